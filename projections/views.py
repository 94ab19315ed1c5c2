"""Each viewer's view of a game, rendered once per change: the spectator's and every seat's. A game document: kept
in the game's slot, written with the decision that changed it, read by viewer, rendered again by a catch-up or a
rebuild.

A seat's view is the spectator's with the seat's own `you` added (its last field); every ruleset shows what only
a seat may see in its `you`. Such a view is kept as its `you` alone, after the mark `SHARED`, and read back whole
with the spectator's (`view_of`): the spectator's view is not kept again for each seat. A seat's view that differs
elsewhere is kept whole.
"""

from __future__ import annotations

from collections.abc import Mapping
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


SHARED = b"+"
"""The mark of a seat's view kept as its `you` alone."""

YOU = b',"you":'


def render(ruleset: Ruleset[Any], table: Table[Any]) -> dict[str, bytes]:
    """Every viewer's view of the table, encoded, as kept."""
    spectator, seats = tables.views(ruleset, table)
    public = encode(spectator)
    return {SPECTATOR_FIELD: public} | {field_of(seat): kept(public, encode(seen)) for seat, seen in enumerate(seats)}


def kept(spectator: bytes, view: bytes) -> bytes:
    """How a seat's encoded view is kept beside the spectator's: its `you` alone if it adds no more."""
    shared = spectator[:-1] + YOU
    return SHARED + view[len(shared) : -1] if view.startswith(shared) else view


def shared(kept: bytes) -> bool:
    """Whether a seat's view is kept as its `you` alone (the spectator's view is needed to read it)."""
    return kept.startswith(SHARED)


def view_of(kept: Mapping[str, bytes], field: str) -> bytes:
    """A viewer's whole view from the views as kept (the spectator's among them, if the viewer's is shared)."""
    view = kept[field]
    return joined(view, kept[SPECTATOR_FIELD]) if shared(view) else view


def joined(kept: bytes, spectator: bytes) -> bytes:
    """A seat's view kept as its `you` alone, whole."""
    return spectator[:-1] + YOU + kept[1:] + b"}"


class Views:
    """A hash of the game's views by viewer (`spectator`, `0`, `1`, …), kept with their version and format."""

    PATTERN = f"{PREFIX}:game:{{*}}:views"

    def key(self, game_id: str) -> str:
        return f"{PREFIX}:game:{{{game_id}}}:views"

    def render(self, ruleset: Ruleset[Any], table: Table[Any]) -> dict[str, bytes]:
        return render(ruleset, table)


VIEWS = Views()
