"""Ca$h 'n Guns, one test per rule or ruling: the end of the game, the scores and who wins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
import pytest

from games.base import EVERYONE, Event
from games.cash_n_guns import RULESET
from games.cash_n_guns.events import GameEnded, LootRevealed, LootTaken, ShotsResolved
from games.cash_n_guns.loot import DECK, breakdown, loot_value
from games.cash_n_guns.state import Gangster, Phase, State, initial_state
from games.table import Status, Table, plain_view
from tests.games.cng_helpers import new_game, of_type, stacked, turn

BANG_RING = {1: 2, 2: 3, 3: 1}
"""Seats 1, 2 and 3 shoot one another in a ring; seat 0 aims at nobody."""


def ended(
    loots: Mapping[int, Sequence[str]],
    seats: int = 4,
    wounds: Mapping[int, int] | None = None,
    dead: Sequence[int] = (),
) -> State:
    """A finished game's state where each seat holds the given loot (the dead hold 3 wounds)."""
    gangsters = tuple(
        Gangster(
            loot=tuple(loots.get(s, ())),
            wounds=(wounds or {}).get(s, 3 if s in dead else 0),
            alive=s not in dead,
        )
        for s in range(seats)
    )
    state = initial_state(seats, {})
    return msgspec.structs.replace(state, gangsters=gangsters, phase=Phase.OVER, ended="eighth_turn")


# --- the end ------------------------------------------------------------------------------------------------


def test_the_game_ends_after_the_eighth_turn() -> None:
    table = new_game(4)
    events: list = []
    for _ in range(8):
        table, new = turn(table, aims={})
        events += new

    assert [e.turn for e in of_type(events, LootRevealed)] == list(range(2, 9))
    assert events[-1] == GameEnded(reason="eighth_turn")
    assert table.status is Status.FINISHED
    assert RULESET.awaiting(table.rules) == {}
    assert all(RULESET.legal_moves(table.rules, s) == [] for s in range(4))


def test_a_lone_survivor_wins_outright_and_the_game_ends_at_once() -> None:
    table = new_game(4)
    for _ in range(2):  # seat 0 lies low with no loot; the others wound one another, so nobody shares
        table, _ = turn(table, aims=BANG_RING, loads=dict.fromkeys(BANG_RING, "bang"), stands={0: False})

    table, events = turn(table, aims=BANG_RING, loads=dict.fromkeys(BANG_RING, "bang"))

    assert of_type(events, ShotsResolved)[0].died == (1, 2, 3)
    assert events[-1] == GameEnded(reason="one_survivor")
    assert of_type(events, LootTaken) == []
    assert table.status is Status.FINISHED
    assert table.rules.turn == 3
    result = RULESET.result(table.rules)
    assert result.winners == (0,)
    assert result.ranks == (1, None, None, None)
    assert result.details["lone_survivor"] == 0
    assert result.scores == (0, 0, 0, 0)  # it wins with nothing at all


SURVIVORS_LOOT = (
    *("diamond-1000-1", "diamond-1000-2", "diamond-5000-1", "painting-01", "painting-02"),
    *("cash-20000-01", "cash-10000-01", "cash-10000-02"),
    *(f"cash-5000-{n:02d}" for n in range(1, 9)),
)
"""The first two piles, all taken by seat 0: $80,000 in banknotes, $7,000 in 3 diamonds, 2 paintings."""
LEFT_ON_THE_TABLE = (
    *("diamond-10000-1", "diamond-5000-2", "painting-03", "painting-04", "painting-05"),
    *("cash-20000-02", "cash-20000-03", "cash-20000-04"),
)
"""The third pile: revealed in the turn the others die, never shared."""


def lone_survivor_with_diamonds() -> tuple[Table[Any], list[Event]]:
    """Seat 0 takes the first two piles while the others wound one another, then they kill one another."""
    table = new_game(4, godfather=0, piles=stacked(*SURVIVORS_LOOT, *LEFT_ON_THE_TABLE))
    for _ in range(2):
        table, _ = turn(table, aims=BANG_RING, loads=dict.fromkeys(BANG_RING, "bang"))
    return turn(table, aims=BANG_RING, loads=dict.fromkeys(BANG_RING, "bang"))


def test_a_lone_survivor_holding_diamonds_scores_exactly_its_holdings_without_the_bonus() -> None:
    table, _ = lone_survivor_with_diamonds()

    assert sorted(table.rules.gangsters[0].loot) == sorted(SURVIVORS_LOOT)
    result = RULESET.result(table.rules)
    assert result.winners == (0,)
    assert result.scores == (80_000 + 7_000 + 12_000, 0, 0, 0)
    assert result.details["lone_survivor"] == 0
    assert result.details["diamond_bonus"] is None
    seat = result.details["seats"][0]
    assert (seat["banknotes"], seat["diamonds"], seat["paintings"], seat["bonus"]) == (80_000, 7_000, 12_000, 0)
    assert seat["total"] == result.scores[0]


def test_the_loot_on_the_table_when_the_game_ends_at_once_leaves_the_game_unshared_and_unscored() -> None:
    table, events = lone_survivor_with_diamonds()

    assert events[-1] == GameEnded(reason="one_survivor")
    assert of_type(events, LootTaken) == []  # the turn's loot is not shared
    assert table.rules.table_loot == ()
    assert set(LEFT_ON_THE_TABLE) <= set(table.rules.lost)
    body = plain_view(RULESET, table, EVERYONE)["state"]
    assert body["table_loot"] == []
    assert set(LEFT_ON_THE_TABLE) <= set(body["lost_loot"])
    assert not set(LEFT_ON_THE_TABLE) & {card for g in table.rules.gangsters for card in g.loot}
    assert sum(RULESET.result(table.rules).scores) == loot_value(SURVIVORS_LOOT)


def test_a_lone_survivor_is_not_scored_the_bonus_even_with_the_most_diamond_cards() -> None:
    state = ended({0: ["diamond-1000-1", "cash-5000-01"], 1: ["diamond-5000-1", "diamond-5000-2"]}, dead=[1, 2, 3])

    result = RULESET.result(state)
    assert result.scores == (6000, 0, 0, 0)
    assert result.details["diamond_bonus"] is None
    assert result.details["seats"][0]["bonus"] == 0
    assert result.details["seats"][0]["total"] == 6000
    assert result.winners == (0,)


def test_when_nobody_survives_nobody_wins() -> None:
    table = new_game(4)
    for _ in range(3):
        table, events = turn(table, aims={0: 1, 1: 2, 2: 3, 3: 0}, loads=dict.fromkeys(range(4), "bang"))

    assert events[-1] == GameEnded(reason="no_survivor")
    result = RULESET.result(table.rules)
    assert result.winners == ()
    assert result.ranks == (None,) * 4
    assert result.details["lone_survivor"] is None


def test_a_seat_holding_the_whole_deck_scores_it_all_with_the_diamond_bonus() -> None:
    table = new_game(4, godfather=2)
    for _ in range(8):
        table, _ = turn(table, aims={}, stands={0: False, 1: False, 3: False})

    assert sorted(table.rules.gangsters[2].loot) == sorted(DECK)
    result = RULESET.result(table.rules)
    assert result.scores == (0, 0, 425_000 + 30_000 + 500_000 + 60_000, 0)
    assert result.winners == (2,)
    assert result.ranks == (2, 2, 1, 2)
    assert result.tie_break is None


# --- scores ---------------------------------------------------------------------------------------------------


def test_banknotes_and_diamonds_score_their_face_value() -> None:
    loot = ["cash-5000-01", "cash-10000-01", "cash-20000-01", "diamond-1000-1", "diamond-5000-1", "diamond-10000-1"]

    assert loot_value(loot) == 5000 + 10000 + 20000 + 1000 + 5000 + 10000


@pytest.mark.parametrize(
    ("paintings", "value"),
    list(enumerate([0, 4000, 12000, 30000, 60000, 100000, 150000, 200000, 300000, 400000, 500000])),
)
def test_paintings_score_by_how_many_a_seat_holds(paintings: int, value: int) -> None:
    loot = [f"painting-{n:02d}" for n in range(1, paintings + 1)]

    assert breakdown(loot)["paintings"] == value
    assert RULESET.result(ended({0: loot})).scores[0] == value


def test_clips_and_first_aid_kits_are_worth_nothing() -> None:
    assert loot_value(["clip-1", "clip-2", "first-aid-1"]) == 0


def test_the_living_seat_with_strictly_the_most_diamond_cards_gets_the_60000_bonus() -> None:
    state = ended({0: ["diamond-1000-1", "diamond-1000-2"], 1: ["diamond-10000-1"]})

    result = RULESET.result(state)
    assert result.details["diamond_bonus"] == 0  # by count, not by value
    assert result.scores[:2] == (2000 + 60000, 10000)
    assert result.winners == (0,)


def test_a_tie_for_the_most_diamond_cards_gives_nobody_the_bonus() -> None:
    state = ended({0: ["diamond-1000-1"], 1: ["diamond-10000-1"], 2: ["diamond-1000-2", "cash-5000-01"]}, wounds={})

    result = RULESET.result(state)
    assert result.details["diamond_bonus"] is None
    assert result.scores == (1000, 10000, 6000, 0)


def test_nobody_gets_the_bonus_when_nobody_holds_a_diamond() -> None:
    assert RULESET.result(ended({0: ["cash-5000-01"]})).details["diamond_bonus"] is None


def test_a_lone_survivor_without_a_diamond_gets_no_bonus() -> None:
    result = RULESET.result(ended({0: ["cash-5000-01"]}, dead=[1, 2, 3]))

    assert result.details["diamond_bonus"] is None
    assert result.scores == (5000, 0, 0, 0)
    assert result.winners == (0,)


def test_a_dead_seats_diamonds_do_not_count_for_the_bonus() -> None:
    state = ended({0: ["diamond-1000-1"], 2: ["diamond-5000-1", "diamond-5000-2"]}, dead=[2])

    result = RULESET.result(state)
    assert result.details["diamond_bonus"] == 0
    assert result.scores[0] == 61000


def test_the_dead_cannot_win_even_when_richest() -> None:
    state = ended({0: ["cash-5000-01"], 3: ["cash-20000-01", "painting-01"]}, dead=[3])

    result = RULESET.result(state)
    assert result.scores == (5000, 0, 0, 0)
    assert result.ranks == (1, 2, 2, None)
    assert result.winners == (0,)
    assert result.details["seats"][3]["alive"] is False


def test_a_tie_on_score_goes_to_the_most_wounded() -> None:
    state = ended({0: ["cash-10000-01"], 1: ["cash-5000-01", "cash-5000-02"]}, wounds={0: 1, 1: 2})

    result = RULESET.result(state)
    assert result.scores[:2] == (10000, 10000)
    assert result.winners == (1,)
    assert result.ranks == (2, 1, 3, 3)
    assert result.tie_break == "wounds"
    assert result.tie_breakers == ("wounds",)


def test_seats_tied_on_score_and_wounds_share_the_victory() -> None:
    state = ended({0: ["cash-10000-01"], 2: ["cash-10000-02"]}, wounds={0: 1, 2: 1})

    result = RULESET.result(state)
    assert result.winners == (0, 2)
    assert result.ranks == (1, 3, 1, 3)
    assert result.tie_break is None


def test_the_result_details_break_each_score_down() -> None:
    state = ended({0: ["cash-5000-01", "diamond-1000-1", "painting-01", "painting-02", "clip-1"]}, wounds={0: 2})

    assert RULESET.result(state).details["seats"][0] == {
        "seat": 0,
        "alive": True,
        "wounds": 2,
        "banknotes": 5000,
        "diamonds": 1000,
        "diamond_cards": 1,
        "paintings": 12000,
        "painting_cards": 2,
        "bonus": 60000,
        "total": 5000 + 1000 + 12000 + 60000,
    }
    assert RULESET.result(state).details["ended"] == "eighth_turn"
