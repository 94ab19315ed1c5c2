"""What the table offers the house: deadlines counted from the start of a wait, timeouts, the tally."""

from __future__ import annotations

import pytest

from games import table as tables
from games.table import GameTallied, Status
from games.twelve_gangsters import RULESET
from games.twelve_gangsters.moves import Play
from tests.games.helpers import apply, created, given, refused, when


def test_a_seat_outside_the_table_is_refused() -> None:
    table = given(RULESET, created(RULESET, seats=3, options={"first_boss": 0}))
    assert refused(RULESET, table, seat=-1, move=Play(card=1)) == "no_such_seat"
    assert refused(RULESET, table, seat=3, move=Play(card=1)) == "no_such_seat"


def test_a_wait_begins_when_a_new_decision_is_owed_not_when_part_of_it_is_made() -> None:
    table = given(RULESET, created(RULESET, seats=3, options={"first_boss": 0}))
    round_one = table.wait_since
    table, _ = when(RULESET, table, seat=0, move=Play(card=1))
    table, _ = when(RULESET, table, seat=1, move=Play(card=2))
    assert table.wait_since == round_one  # still the same round's wait
    table, events = when(RULESET, table, seat=2, move=Play(card=3))
    assert table.wait_since > round_one and table.wait_since == table.version - (len(events) - 2)


def test_in_twelve_gangsters_a_second_seats_play_does_not_restart_the_wait() -> None:
    table = given(RULESET, created(RULESET, seats=4, options={"first_boss": 0, "move_deadline_s": 30}))
    round_one = table.wait_since
    table, _ = when(RULESET, table, seat=2, move=Play(card=5))
    assert table.wait_since == round_one

    table, _ = when(RULESET, table, seat=0, move=Play(card=7))

    assert RULESET.awaiting(table.rules) == {1: "play", 3: "play"}
    assert table.wait_since == round_one
    assert tables.timeout(RULESET, table, round_one) is None  # the round's deadline still stands


def test_the_deadline_is_the_move_deadline_option_while_a_seat_is_awaited() -> None:
    table = given(RULESET, created(RULESET, seats=3, options={"first_boss": 0, "move_deadline_s": 30}))
    assert tables.time_limit(RULESET, table) == 30
    untimed = given(RULESET, created(RULESET, seats=3))
    assert tables.time_limit(RULESET, untimed) is None


def test_twelve_gangsters_leaves_lateness_to_the_random_bot() -> None:
    table = given(RULESET, created(RULESET, seats=3, options={"move_deadline_s": 5}))
    assert tables.timeout(RULESET, table, table.wait_since) is None


def test_a_timeout_for_a_wait_that_is_over_is_refused() -> None:
    table = given(RULESET, created(RULESET, seats=3, options={"first_boss": 0}))
    stale = table.wait_since
    for seat in range(3):
        table, _ = when(RULESET, table, seat=seat, move=Play(card=seat + 1))
    with pytest.raises(Exception) as refusal:
        tables.timeout(RULESET, table, stale)
    assert getattr(refusal.value, "code", None) == "wait_over"


def play_out(table):  # type: ignore[no-untyped-def]
    while table.status is Status.IN_PROGRESS:
        for seat in list(RULESET.awaiting(table.rules)):
            table, _ = when(RULESET, table, seat=seat, move=RULESET.legal_moves(table.rules, seat)[0])
    return table


def test_a_finished_game_is_tallied_once_with_its_result() -> None:
    table = play_out(given(RULESET, created(RULESET, seats=4)))
    [tally] = tables.tally(RULESET, table)
    assert isinstance(tally, GameTallied) and tally.result == RULESET.result(table.rules)
    table = apply(RULESET, table, [tally])
    assert table.tallied and tables.tally(RULESET, table) == []


def test_a_game_in_progress_cannot_be_tallied() -> None:
    table = given(RULESET, created(RULESET, seats=3))
    with pytest.raises(Exception) as refusal:
        tables.tally(RULESET, table)
    assert getattr(refusal.value, "code", None) == "game_not_finished"


def test_a_bot_the_game_does_not_have_is_refused() -> None:
    with pytest.raises(tables.SetupError) as refusal:
        tables.create(RULESET, "g", [tables.Seat(bot="genius")] * 3, {}, 1, "")
    assert refusal.value.code == "unknown_bot"
    assert tables.create(
        RULESET, "g", [tables.Seat(bot="random"), tables.Seat(bot="smart"), tables.Seat(name="A")], {}, 1, ""
    )
