"""The lobby: every game's summary, listed by status and ruleset, newest first."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import msgspec
import redis

from events import keys
from games.table import Status, Table, randomness, seat_views

STATUSES = tuple(str(s) for s in Status)

# Entry and indexes change together, and only forward: an older version never overwrites a newer.
# KEYS: the entry, the active set, the four indexes of the new status, then the others' indexes.
_WRITE = """
local old = redis.call('GET', KEYS[1])
if old and cjson.decode(old)['version'] >= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
if ARGV[5] == '1' then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4]) else redis.call('ZREM', KEYS[2], ARGV[4]) end
for i = 3, 6 do redis.call('ZADD', KEYS[i], ARGV[3], ARGV[4]) end
for i = 7, #KEYS do redis.call('ZREM', KEYS[i], ARGV[4]) end
return 1
"""


def entry(table: Table[Any]) -> dict[str, Any]:
    """What the lobby shows of a game: what a newcomer needs to judge it before taking a seat too (its options, and
    whether its creator chose the seed). `open_seats` counts the seats anyone may take (not those kept for an
    invited player)."""
    return {
        "game_id": table.game_id,
        "ruleset": table.ruleset,
        "status": str(table.status),
        "version": table.status_since,
        "created_at": table.created_at,
        "seats": msgspec.to_builtins(seat_views(table)),
        "open_seats": sum(s.takes(None) for s in table.seats),
        "options": table.options,
        "randomness": randomness(table),
    }


def shows_a_change(before: Table[Any] | None, after: Table[Any]) -> bool:
    """Whether the lobby shows anything new after a decision: a new game, a seat taken, the start, the end,
    the tally. A move that changes none of these is not the lobby's business: an entry's `version` is the
    version at which what it shows last changed."""
    return before is None or before.status_since != after.status_since


def is_active(table: Table[Any]) -> bool:
    """Whether the house may still have something to do for the game."""
    return table.status is Status.IN_PROGRESS or (table.status is Status.FINISHED and not table.tallied)


LOCK_MS = 10_000

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class LobbyProjection:
    """`table_of`: a game's table from its log, to write again an entry that an older service wrote without a
    field the lobby shows now (a read model is rebuilt from the logs, and this one also entry by entry)."""

    def __init__(self, client: redis.Redis, table_of: Callable[[str], Table[Any] | None] | None = None) -> None:
        self.redis = client
        self.table_of = table_of
        self._write = client.register_script(_WRITE)
        self._release = client.register_script(_RELEASE)

    def project(self, table: Table[Any], pipe: redis.client.Pipeline | None = None) -> None:
        status, ruleset = str(table.status), table.ruleset
        fresh = [keys.lobby_index(s, r) for s in ("*", status) for r in ("*", ruleset)]
        stale = [keys.lobby_index(s, r) for s in STATUSES if s != status for r in ("*", ruleset)]
        created = datetime.fromisoformat(table.created_at).timestamp() if table.created_at else 0
        self._write(
            keys=[keys.lobby_game(table.game_id), keys.active_games(), *fresh, *stale],
            args=[table.version, msgspec.json.encode(entry(table)), created, table.game_id, int(is_active(table))],
            client=pipe,
        )

    def page(self, status: str | None, ruleset: str | None, offset: int, limit: int) -> tuple[int, list[dict]]:
        """The total number of matching games and one page of them, newest first."""
        index = keys.lobby_index(status or "*", ruleset or "*")
        total = int(self.redis.zcard(index))
        if offset >= total:
            return total, []  # past the end (an offset that large would not even fit Redis's integers)
        ids = self.redis.zrevrange(index, offset, offset + limit - 1)
        return total, self.entries([i.decode() for i in ids])

    def waiting(self, ruleset: str, limit: int = 200) -> list[dict[str, Any]]:
        """The oldest waiting games of a ruleset, oldest first (what a quick match may join)."""
        ids = self.redis.zrange(keys.lobby_index(str(Status.WAITING), ruleset), 0, limit - 1)
        return self.entries([i.decode() for i in ids])

    def entries(self, game_ids: list[str]) -> list[dict[str, Any]]:
        """The lobby entries of these games, in this order (a game not in the lobby is left out)."""
        raw = self.redis.mget([keys.lobby_game(i) for i in game_ids]) if game_ids else []
        return [self.current(msgspec.json.decode(r)) for r in raw if r is not None]

    def current(self, found: dict[str, Any]) -> dict[str, Any]:
        """An entry as the lobby writes it now: one written before `randomness` was shown is written again."""
        if "randomness" in found or self.table_of is None:
            return found
        table = self.table_of(found["game_id"])
        if table is None:
            return found
        self.project(table)
        return entry(table)

    @contextmanager
    def quick_match_lock(self, ruleset: str, seats: int, wait_s: float = 5.0) -> Iterator[bool]:
        """Hold the quick match of a ruleset and seat count (True), or give up after `wait_s` (False). The
        lock lapses by itself after LOCK_MS, should its holder die."""
        key, mine = keys.quick_match_lock(ruleset, seats), secrets.token_hex(8)
        deadline = time.monotonic() + wait_s
        while not (held := bool(self.redis.set(key, mine, nx=True, px=LOCK_MS))) and time.monotonic() < deadline:
            time.sleep(0.02)
        try:
            yield held
        finally:
            if held:
                self._release(keys=[key], args=[mine])

    def active(self) -> list[str]:
        """Every game the house may have to act on, oldest first."""
        return [game_id.decode() for game_id in self.redis.zrange(keys.active_games(), 0, -1)]
