"""Ca$h 'n Guns' determinize draws only what a seat's view leaves possible, and everything it leaves possible:
the loot it has not seen, the others' hands and loaded cards, by the clips and wounds the view shows."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import pytest

from games import table as tables
from games.cash_n_guns import RULESET
from games.cash_n_guns.determinize import covers, determinize, draw, hidden_parts
from games.cash_n_guns.loot import kind
from games.cash_n_guns.state import START_BANGS, Gangster, Phase, State
from games.selfplay import play_out
from tests.games.cng_helpers import new_game, stacked, turn

LOOT = sorted(str(card.id) for card in RULESET.catalogue.cards if card.kind not in ("bullet", "token"))
"""Every loot card of the catalogue."""
GAMES = [(4, 4), (6, 6), (5, 11), (8, 8)]
"""(seats, seed) of the games of smart bots whose every decision is checked."""


def decisions(seats: int, seed: int) -> list[tuple[tables.Table[Any], int]]:
    met: list[tuple[tables.Table[Any], int]] = []
    play_out(RULESET, ["smart"] * seats, seed, watch=lambda table, seat, _: met.append((table, seat)))
    return met


def clips(gangster: Gangster) -> int:
    return sum(kind(card) == "clip" for card in gangster.loot)


def spent_bangs(gangster: Gangster) -> int:
    """The Bang!s a gangster spent in the shots so far (its loaded card aside)."""
    return START_BANGS + clips(gangster) - gangster.bangs - (gangster.loaded == "bang")


def hidden_cards(state: State, me: int) -> list[str]:
    """The cards of the piles and of the other seats' loot."""
    others = [card for s, g in enumerate(state.gangsters) if s != me for card in g.loot]
    return [card for pile in state.piles for card in pile] + others


@pytest.mark.parametrize(("seats", "seed"), GAMES)
def test_the_true_state_is_always_among_those_drawn_from(seats: int, seed: int) -> None:
    for table, seat in decisions(seats, seed):
        view = tables.plain_view(RULESET, table, seat)
        state: State = table.rules
        spent = {s: spent_bangs(g) for s, g in enumerate(state.gangsters)}
        assert covers(spent, [g.wounds for g in state.gangsters])
        for hidden in hidden_parts(view):
            gangster = state.gangsters[hidden.seat]
            unmade = state.phase is Phase.LOAD and gangster.loaded is not None
            if unmade:  # the load left unmade: its card back in hand
                back = {"bangs": gangster.bangs + 1} if gangster.loaded == "bang" else {"clicks": gangster.clicks + 1}
                gangster = msgspec.structs.replace(gangster, loaded=None, **back)
            hands = [(h.bangs, h.clicks, h.loaded) for h in hidden.hands[clips(gangster)]]
            assert (gangster.bangs, gangster.clicks, gangster.loaded) in hands, (table.version, hidden.seat)


@pytest.mark.parametrize(("seats", "seed"), GAMES[:2])
def test_hidden_cards_are_those_the_view_has_not_shown_and_the_clips_where_the_bullets_say(
    seats: int, seed: int
) -> None:
    met = decisions(seats, seed)
    for table, seat in met[len(met) // 3 :: 9]:
        view = tables.plain_view(RULESET, table, seat)
        shown, you = view["state"], view["you"]
        seen = {*you["loot"], *shown["table_loot"], *shown["lost_loot"]}
        draws = [determinize(view, random.Random(n)) for n in range(40)]
        for drawn in draws:
            cards = hidden_cards(drawn, seat)
            assert not seen & set(cards)
            assert sorted([*cards, *seen]) == LOOT
            for s, gangster in enumerate(drawn.gangsters):
                if s != seat and gangster.alive:
                    assert clips(gangster) == clips(table.rules.gangsters[s])
        if shown["piles_left"] or any(s["loot_count"] for s in shown["seats"] if s["seat"] != seat):
            assert len({tuple(hidden_cards(drawn, seat)) for drawn in draws}) == len(draws)


def test_a_seats_hand_is_drawn_uniformly_among_those_that_could_have_dealt_the_wounds() -> None:
    """Seats 0 and 2 wound seat 1 twice in turn 1; nobody stands in turn 2, so its shots show no card. Seat 3, which
    loaded only Clicks, knows seats 0 and 2 spent two Bang!s between them, of the four cards they loaded: of the 9
    ways they may have spent 0 to 2 each, 6 remain, and seat 0 spent none in 1 of them, one in 2, two in 3."""
    table = new_game(4, godfather=0, piles=stacked())
    aims = {0: 1, 1: 0, 2: 1, 3: 0}
    table, _ = turn(table, aims, loads={0: "bang", 2: "bang"})
    table, _ = turn(table, aims, stands=dict.fromkeys(range(4), False))
    assert table.rules.phase is Phase.LOAD and table.rules.turn == 3
    assert [g.wounds for g in table.rules.gangsters] == [0, 2, 0, 0]
    view = tables.plain_view(RULESET, table, 3)
    expected = {0: 1 / 6, 1: 2 / 6, 2: 3 / 6}
    for tries in (400, 0):  # redrawn until the wounds are covered; drawn from the counts
        spent = Counter(spent_bangs(draw(view, random.Random(n), tries).gangsters[0]) for n in range(3000))
        for bangs, chance in expected.items():
            assert spent[bangs] / 3000 == pytest.approx(chance, abs=0.03), (tries, bangs)
        assert all(spent_bangs(draw(view, random.Random(n), tries).gangsters[1]) <= 2 for n in range(50))


def test_drawn_from_the_counts_the_state_still_shows_the_seat_its_view() -> None:
    for table, seat in decisions(6, 6)[::5]:
        view = tables.plain_view(RULESET, table, seat)
        drawn = draw(view, random.Random(table.version), tries=0)
        assert msgspec.to_builtins(RULESET.you(drawn, seat)) == {
            k: v for k, v in view["you"].items() if k not in ("seat", "legal_moves")
        }
        assert [msgspec.to_builtins(m) for m in RULESET.legal_moves(drawn, seat)] == view["you"]["legal_moves"]
        spent = {s: spent_bangs(g) for s, g in enumerate(drawn.gangsters)}
        assert covers(spent, [g.wounds for g in drawn.gangsters])


def twin(state: State, seat: int, rng: random.Random) -> State:
    """Another true state the seat sees alike: the unseen cards (clips apart) dealt again between the others' loot
    and the piles, and each other seat's loaded card, during the aim, swapped where its hand allows."""
    others = [s for s in range(state.seats) if s != seat]
    slots = [*(("loot", s, i) for s in others for i in range(len(state.gangsters[s].loot)))]
    slots += [("pile", p, i) for p, pile in enumerate(state.piles) for i in range(len(pile))]
    holders: dict[tuple[str, int], list[str]] = {("loot", s): list(state.gangsters[s].loot) for s in others}
    holders |= {("pile", p): list(pile) for p, pile in enumerate(state.piles)}
    movable = [slot for slot in slots if kind(holders[slot[:2]][slot[2]]) != "clip"]
    cards = [holders[slot[:2]][slot[2]] for slot in movable]
    rng.shuffle(cards)
    for (where, which, i), card in zip(movable, cards, strict=True):
        holders[(where, which)][i] = card
    gangsters = list(state.gangsters)
    for s in others:
        g = msgspec.structs.replace(gangsters[s], loot=tuple(holders[("loot", s)]))
        if state.phase is Phase.AIM and g.loaded == "bang" and g.clicks:
            g = msgspec.structs.replace(g, loaded="click", bangs=g.bangs + 1, clicks=g.clicks - 1)
        gangsters[s] = g
    piles = tuple(tuple(holders[("pile", p)]) for p in range(len(state.piles)))
    return msgspec.structs.replace(state, gangsters=tuple(gangsters), piles=piles)


def test_two_tables_a_seat_sees_alike_give_the_same_draws() -> None:
    checked = 0
    for table, seat in decisions(6, 6)[20::7]:
        other = msgspec.structs.replace(table, rules=twin(table.rules, seat, random.Random(table.version)))
        assert other.rules != table.rules
        view = tables.plain_view(RULESET, table, seat)
        assert tables.plain_view(RULESET, other, seat) == view
        for n in range(3):
            assert determinize(view, random.Random(n)) == determinize(
                tables.plain_view(RULESET, other, seat), random.Random(n)
            )
        checked += 1
    assert checked > 10
