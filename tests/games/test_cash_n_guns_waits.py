"""Ca$h 'n Guns, what counts as one wait (what a move deadline counts from): each pick of the sharing is its
own wait, even when one seat makes them all; a simultaneous decision stays one wait until every seat made it."""

from __future__ import annotations

import pytest

from games import table as tables
from games.base import IllegalMoveError
from games.cash_n_guns import RULESET
from games.cash_n_guns.moves import Load, Take
from games.cash_n_guns.state import Phase
from tests.games.cng_helpers import hold_up, new_game
from tests.games.helpers import when

DEADLINE = {"move_deadline_s": 30}


def test_each_pick_of_a_lone_standing_seat_is_its_own_wait() -> None:
    table, _ = hold_up(new_game(4, options=DEADLINE), aims={}, stands={1: False, 2: False, 3: False})
    assert RULESET.awaiting(table.rules) == {0: "take"}

    waits = [table.wait_since]
    picks = [Take(godfather_token=True), *(Take(loot=card) for card in table.rules.table_loot[:-1])]
    for pick in picks:
        previous = table
        table, _ = when(RULESET, table, 0, pick)
        assert RULESET.awaiting(table.rules) == {0: "take"}  # the same seat owes the same kind of decision
        assert table.wait_since == table.version  # ...and its deadline counts from this pick on
        assert tables.time_limit(RULESET, table) == 30
        with pytest.raises(IllegalMoveError) as refusal:
            tables.timeout(RULESET, table, previous.wait_since)  # the last pick's deadline is over
        assert refusal.value.code == "wait_over"
        waits.append(table.wait_since)

    assert len(waits) == 1 + 8 and len(set(waits)) == len(waits)
    assert table.rules.phase is Phase.SHARING and len(table.rules.table_loot) == 1


def test_each_pick_of_several_standing_seats_is_its_own_wait() -> None:
    table, _ = hold_up(new_game(4, options=DEADLINE), aims={}, stands={2: False, 3: False})

    waits = [table.wait_since]
    for _ in range(3):
        table, _ = when(RULESET, table, table.rules.sharer, Take(loot=table.rules.table_loot[0]))
        waits.append(table.wait_since)

    assert waits[1:] == sorted(set(waits[1:])) and waits[0] < waits[1]


def test_a_seat_loading_does_not_restart_the_wait_of_the_seats_still_to_load() -> None:
    table = new_game(4, options=DEADLINE)
    loading = table.wait_since

    for seat in range(3):
        table, _ = when(RULESET, table, seat, Load(card="click"))
        assert table.wait_since == loading
    assert RULESET.awaiting(table.rules) == {3: "load"}
    assert tables.timeout(RULESET, table, loading) is None  # that wait still goes on: a random bot loads
