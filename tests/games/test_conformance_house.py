"""What the house relies on, for every registered game: deadlines and timeouts, the tally, and bots
that answer a legal move from a seat's view alone."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from games import table as tables
from games.base import Ruleset
from games.bots import random_bot
from games.registry import RULESETS
from games.table import GameTallied, Seat, Status, Table

CASES = [
    pytest.param(r.id, seats, id=f"{r.id}-{seats}seats")
    for r in RULESETS.values()
    for seats in (r.min_seats, r.max_seats)
]


def fold(ruleset: Ruleset[Any], table: Table[Any] | None, events: list[Any]) -> Table[Any]:
    for event in events:
        table = tables.evolve(ruleset, table, event)
    assert table is not None
    return table


def move_of(ruleset: Ruleset[Any], body: dict[str, Any]) -> Any:
    move_type = ruleset.move_type(body["type"])
    assert move_type is not None, body
    return msgspec.convert(body, move_type)


def play_with_timeouts(ruleset: Ruleset[Any], seats: int, seed: int) -> tuple[Table[Any], list[Any]]:
    """A game where, now and then, a deadline passes: the game's own lateness rule, else the random bot
    moves for every awaited seat, as the house does. Every bot kind of the game takes part."""
    rng = random.Random(seed)
    kinds = ["random", *ruleset.bots]
    layout = [Seat(bot=kinds[i % len(kinds)]) for i in range(seats)]
    log = tables.create(ruleset, "g", layout, {"move_deadline_s": 5}, seed, "")
    table = fold(ruleset, None, log)
    for _ in range(20_000):
        if table.status is not Status.IN_PROGRESS:
            return table, log
        awaited = list(ruleset.awaiting(table.rules))
        assert awaited, "a game in progress always waits on someone"
        if rng.random() < 0.2 and tables.time_limit(ruleset, table):
            own = tables.timeout(ruleset, table, table.wait_since)
            if own is not None:
                assert own, "a game's own lateness rule always does something"
                log += own
                table = fold(ruleset, table, own)
                continue
            seat = awaited[0]
            body = random_bot(tables.plain_view(ruleset, table, seat), rng)
        else:
            seat = rng.choice(awaited)
            bot = ruleset.bots.get(table.seats[seat].bot or "", random_bot)
            view = tables.plain_view(ruleset, table, seat)
            body = bot(view, rng)
            assert body in view["you"]["legal_moves"], "a bot answers one of its seat's legal moves"
        events = tables.play(ruleset, table, seat, move_of(ruleset, body))
        log += events
        table = fold(ruleset, table, events)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("ruleset_id", "seats"), CASES)
def test_deadlines_bots_and_the_tally_keep_a_game_whole(ruleset_id: str, seats: int) -> None:
    ruleset = RULESETS[ruleset_id]
    for seed in range(3):
        table, log = play_with_timeouts(ruleset, seats, seed)
        assert table.status is Status.FINISHED
        [tally] = tables.tally(ruleset, table)
        assert isinstance(tally, GameTallied) and tally.result == ruleset.result(table.rules)
        table = fold(ruleset, table, [tally])
        assert tables.tally(ruleset, table) == []  # tallied once
        assert fold(ruleset, None, [*log, tally]) == table  # the log alone rebuilds it


@pytest.mark.parametrize(("ruleset_id", "seats"), CASES)
def test_a_timeout_for_a_wait_that_is_over_is_refused(ruleset_id: str, seats: int) -> None:
    ruleset = RULESETS[ruleset_id]
    table, _ = play_with_timeouts(ruleset, seats, 9)
    with pytest.raises(Exception) as refusal:
        tables.timeout(ruleset, table, table.wait_since)
    assert getattr(refusal.value, "code", None) == "wait_over"
