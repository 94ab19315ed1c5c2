"""Each viewer's view of a game, rendered once per change: the spectator's and every seat's.

They are stored with the decision that changed them (events/store.py `Commit.views`), read by viewer, and
rendered again from the log by a catch-up or a rebuild."""

from __future__ import annotations

from typing import Any

import msgspec

from games import table as tables
from games.base import SPECTATOR, Ruleset
from games.table import Table

SPECTATOR_FIELD = "spectator"

encode = msgspec.json.Encoder().encode


def field_of(seat: int | None) -> str:
    """Where a viewer's view is kept: `spectator`, or the seat's number."""
    return SPECTATOR_FIELD if seat is None else str(seat)


def render(ruleset: Ruleset[Any], table: Table[Any]) -> dict[str, bytes]:
    """Every viewer's view of the table, encoded."""
    views = {SPECTATOR_FIELD: encode(tables.view(ruleset, table, SPECTATOR))}
    for seat in range(len(table.seats)):
        views[field_of(seat)] = encode(tables.view(ruleset, table, seat))
    return views
