"""Given / when / then for pure rule tests: a Table folded from events, moves played through the table.

table = given(RULESET, created(RULESET, seats=3, options={"first_boss": 0}))
table, events = when(RULESET, table, seat=1, move=Play(card=7))
assert refused(RULESET, table, seat=1, move=Play(card=7)) == "already_played"
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from games.base import Event, IllegalMoveError, Move, Ruleset
from games.table import Seat, Table, create, evolve, play


def created(
    ruleset: Ruleset[Any],
    seats: int,
    options: Mapping[str, Any] | None = None,
    *,
    open_seats: int = 0,
    seed: int = 7,
    salt: str = "pepper",
) -> list[Event]:
    """The events that create a game with bots in every seat but the last `open_seats`.

    With no open seat the game starts at once, so the list ends with the game's opening facts.
    """
    taken = [Seat(bot="random")] * (seats - open_seats) + [Seat()] * open_seats
    return create(ruleset, "game-1", taken, options or {}, seed, salt)


def given(ruleset: Ruleset[Any], events: Iterable[Event]) -> Table[Any]:
    """The table those events build, folded one by one from nothing."""
    table: Table[Any] | None = None
    for event in events:
        table = evolve(ruleset, table, event)
    assert table is not None, "given() needs at least the game_created event"
    return table


def apply(ruleset: Ruleset[Any], table: Table[Any], events: Iterable[Event]) -> Table[Any]:
    """The table after more events."""
    for event in events:
        table = evolve(ruleset, table, event)
    return table


def when(ruleset: Ruleset[Any], table: Table[Any], seat: int, move: Move) -> tuple[Table[Any], list[Event]]:
    """A seat moves: the events the move produces, and the table after them."""
    events = play(ruleset, table, seat, move)
    return apply(ruleset, table, events), events


def refused(ruleset: Ruleset[Any], table: Table[Any], seat: int, move: Move) -> str:
    """The error code the move is refused with (the test fails if it is accepted)."""
    with pytest.raises(IllegalMoveError) as refusal:
        play(ruleset, table, seat, move)
    return refusal.value.code


class Spy(dict):
    """A view that records every key read from it, at any depth (list indices read as `*`)."""

    def __init__(self, value: dict[str, Any], reads: set[str], path: str = "") -> None:
        super().__init__({k: self._wrap(v, reads, f"{path}{k}.") for k, v in value.items()})
        self.reads, self.path = reads, path

    @classmethod
    def _wrap(cls, value: Any, reads: set[str], path: str) -> Any:
        if isinstance(value, dict):
            return cls(value, reads, path)
        if isinstance(value, list):
            return [cls._wrap(item, reads, f"{path}*.") for item in value]
        return value

    def __getitem__(self, key: str) -> Any:
        self.reads.add(f"{self.path}{key}")
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.reads.add(f"{self.path}{key}")
        return super().get(key, default)
