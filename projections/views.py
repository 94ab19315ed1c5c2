"""Each viewer's view of a game: the spectator's and every seat's, as of a version."""

from __future__ import annotations

from typing import Any

import msgspec
import redis

from events import keys
from games import table as tables
from games.base import SPECTATOR, Ruleset
from games.table import Table

# Write only if newer: a projector that runs twice, late or out of order never moves a view back. A view
# derived by other code (another format) is replaced whatever its version.
_WRITE = """
local stored = redis.call('HMGET', KEYS[1], 'version', 'format')
if (tonumber(stored[1]) or 0) >= tonumber(ARGV[1]) and stored[2] == ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'format', ARGV[2], unpack(ARGV, 3))
return 1
"""

# The view of one viewer and whether it is current, in one round trip.
_READ = """
local view = redis.call('HMGET', KEYS[1], 'version', ARGV[1], 'format')
return {tonumber(view[1]) or 0, view[2] or false, redis.call('XLEN', KEYS[2]), view[3] or false}
"""


def field_of(viewer: int | None) -> str:
    return "spectator" if viewer is None else str(viewer)


class ViewProjection:
    def __init__(self, client: redis.Redis) -> None:
        self._write = client.register_script(_WRITE)
        self._read = client.register_script(_READ)

    def project(self, ruleset: Ruleset[Any], table: Table[Any], pipe: redis.client.Pipeline | None = None) -> None:
        """Write every viewer's view of the table, unless a newer one is already there."""
        fields: list[str | bytes] = [field_of(None), msgspec.json.encode(tables.view(ruleset, table, SPECTATOR))]
        for seat in range(len(table.seats)):
            fields += [field_of(seat), msgspec.json.encode(tables.view(ruleset, table, seat))]
        self._write(keys=[keys.views(table.game_id)], args=[table.version, tables.FORMAT, *fields], client=pipe)

    def read(self, game_id: str, viewer: int | None) -> bytes | None:
        """The stored view, or None if it is missing or behind the game's log (then project first)."""
        version, view, length, form = self._read(
            keys=[keys.views(game_id), keys.events(game_id)], args=[field_of(viewer)]
        )
        current = view is not None and version == length and form == str(tables.FORMAT).encode()
        return view if current else None
