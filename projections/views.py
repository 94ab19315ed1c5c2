"""Each viewer's view of a game, rendered once per change: the spectator's and every seat's. A game document: kept
in the game's slot, written with the decision that changed it, read by viewer, rendered again by a catch-up or a
rebuild."""

from __future__ import annotations

from typing import Any

import msgspec

from events.keys import PREFIX
from games import table as tables
from games.base import Ruleset
from games.table import Table

SPECTATOR_FIELD = "spectator"

encode = msgspec.json.Encoder().encode


def field_of(seat: int | None) -> str:
    """Where a viewer's view is kept: `spectator`, or the seat's number."""
    return SPECTATOR_FIELD if seat is None else str(seat)


def render(ruleset: Ruleset[Any], table: Table[Any]) -> dict[str, bytes]:
    """Every viewer's view of the table, encoded."""
    spectator, seats = tables.views(ruleset, table)
    return {SPECTATOR_FIELD: encode(spectator)} | {field_of(seat): encode(seen) for seat, seen in enumerate(seats)}


class Views:
    """A hash of the game's views by viewer (`spectator`, `0`, `1`, …), kept with their version and format."""

    PATTERN = f"{PREFIX}:game:{{*}}:views"

    def key(self, game_id: str) -> str:
        return f"{PREFIX}:game:{{{game_id}}}:views"

    def render(self, ruleset: Ruleset[Any], table: Table[Any]) -> dict[str, bytes]:
        return render(ruleset, table)


VIEWS = Views()
