"""Each game's `determinize`: from a seat's view alone, a state that shows that seat what its view showed it, the
same moves to make, and hidden parts the view leaves possible. Checked at every decision of games of bots."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from games import table as tables
from games.base import Ruleset
from games.registry import RULESETS
from games.selfplay import play_out

Unmade = Callable[[dict[str, Any], int], dict[str, Any]]


def others_undecided(key: str) -> Unmade:
    """The public view with every other seat's unrevealed choice still to make (as determinize leaves it)."""

    def shown(state: dict[str, Any], me: int) -> dict[str, Any]:
        seats = [seat if seat["seat"] == me else {**seat, key: False} for seat in state["seats"]]
        return {**state, "seats": seats}

    return shown


def cash_n_guns_unmade(state: dict[str, Any], me: int) -> dict[str, Any]:
    """Ca$h 'n Guns: this turn's loads (each card back in its seat's hand), aims or courages of the others."""

    def unmade(seat: dict[str, Any]) -> dict[str, Any]:
        match state["phase"]:
            case "load" if seat["has_loaded"]:
                return {**seat, "has_loaded": False, "bullet_cards": seat["bullet_cards"] + 1}
            case "aim":
                return {**seat, "has_aimed": False}
            case "courage":
                return {**seat, "has_chosen": False}
        return seat

    return {**state, "seats": [seat if seat["seat"] == me else unmade(seat) for seat in state["seats"]]}


UNMADE: dict[str, Unmade] = {
    "twelve-gangsters": others_undecided("has_chosen"),
    "cash-n-guns": cash_n_guns_unmade,
}
"""How each game's determinize leaves the public view: an unrevealed simultaneous choice of another seat is left
for the search to make, so the view of the state drawn shows it unmade. Mobsters' view shows no setup decision
(only the table's `awaiting` does), so it needs none."""

SEATS = {"twelve-gangsters": (3, 5), "cash-n-guns": (4, 6), "mobsters": (2, 4)}

SEARCHED = [r for r in RULESETS.values() if r.determinize is not None]


def decisions(ruleset: Ruleset[Any], seats: int, seed: int) -> list[tuple[tables.Table[Any], int]]:
    """Every (table, seat) a game of smart bots asks a decision of."""
    met: list[tuple[tables.Table[Any], int]] = []
    play_out(ruleset, ["smart"] * seats, seed, watch=lambda table, seat, _: met.append((table, seat)))
    return met


@pytest.mark.parametrize("ruleset", SEARCHED, ids=lambda r: r.id)
def test_a_state_drawn_from_a_seats_view_shows_that_seat_its_view(ruleset: Ruleset[Any]) -> None:
    assert ruleset.determinize is not None
    for seats in SEATS.get(ruleset.id, (ruleset.min_seats,)):
        for table, seat in decisions(ruleset, seats, seed=seats):
            view = tables.plain_view(ruleset, table, seat)
            drawn = ruleset.determinize(view, random.Random(table.version))
            shown = msgspec.to_builtins(ruleset.view(drawn, seat))
            assert shown == UNMADE.get(ruleset.id, lambda s, _: s)(view["state"], seat), (table.version, seat)
            assert msgspec.to_builtins(ruleset.you(drawn, seat)) == {
                k: v for k, v in view["you"].items() if k not in ("seat", "legal_moves")
            }
            assert [msgspec.to_builtins(m) for m in ruleset.legal_moves(drawn, seat)] == view["you"]["legal_moves"]
            awaited = ruleset.awaiting(drawn)
            assert seat in awaited
            for wait in view["awaiting"]:  # a choice left unmade only adds seats to a simultaneous decision
                assert awaited.get(wait["seat"]) == wait["decision"], (table.version, seat)
            assert all(
                d in ruleset.simultaneous for s, d in awaited.items() if s not in {w["seat"] for w in view["awaiting"]}
            )
