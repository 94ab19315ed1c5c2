"""The lobby: every game's summary, listed by status and ruleset, newest first; and the games the house may still
have to act on. A read model fed by every change it shows (a new game, a seat taken, the start, the end, the tally);
its keys share the hash tag `{lobby}`."""

from __future__ import annotations

import secrets
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any, Protocol

import msgspec
import redis

from events.keys import PREFIX
from events.outbox import open_for
from events.pipelines import Pipelines
from games.registry import RULESETS
from games.table import Status, Table, bots_at, randomness, seat_views
from projections.model import Applying, Batching, Change, Notice, ReadModel, Rebuild
from projections.scan import drop

STATUSES = tuple(str(s) for s in Status)

Reply = Any
"""A reply from Redis (bytes, as decode_responses is off): redis-py types replies as unions of many things."""


def game_key(game_id: str) -> str:
    """One game's lobby entry (JSON)."""
    return f"{PREFIX}:{{lobby}}:game:{game_id}"


def index_key(status: str, ruleset: str) -> str:
    """Game ids by creation time, for one status and ruleset; `*` stands for any."""
    return f"{PREFIX}:{{lobby}}:index:{status}:{ruleset}"


def active_key() -> str:
    """Games the house may have to act on (in progress, or finished and not yet tallied), by creation time."""
    return f"{PREFIX}:{{lobby}}:active"


def quick_match_key(ruleset: str, seats: int) -> str:
    """Held while one quick match of a ruleset and seat count picks its game, so two never both create one."""
    return f"{PREFIX}:{{quick-match}}:lock:{ruleset}:{seats}"


PATTERNS = (f"{PREFIX}:{{lobby}}:*",)


class Lobby(ReadModel, Protocol):
    """What the use cases read of the lobby (the Redis one and the one in memory alike)."""

    def project(self, table: Table[Any]) -> None:
        """Write the game's entry as of this table, unless a later one is there."""

    def page(
        self, status: str | None, ruleset: str | None, offset: int, limit: int
    ) -> tuple[int, list[dict[str, Any]]]:
        """The total number of matching games and one page of them, newest first."""

    def waiting(self, ruleset: str, limit: int = 200) -> list[dict[str, Any]]:
        """The oldest waiting games of a ruleset, oldest first (what a quick match may join)."""

    def entries(self, game_ids: list[str]) -> list[dict[str, Any]]:
        """The lobby entries of these games, in this order (a game not in the lobby is left out)."""

    def quick_match_lock(self, ruleset: str, seats: int, wait_s: float = 5.0) -> AbstractContextManager[bool]:
        """Hold the quick match of a ruleset and seat count (True), or give up after `wait_s` (False)."""

    def active(self) -> list[str]:
        """Every game the house may have to act on, oldest first."""


# Entry and indexes change together, and only forward (`order`): an older table never overwrites a newer. An entry
# written before `moved_at` was shown is written again whatever it shows.
# KEYS: the entry, the active set, the four indexes of the new status, then the others' indexes.
# ARGV: the entry's version, the entry, its creation time, the game id, whether it is active, its moved_at.
_WRITE = """
local old = redis.call('GET', KEYS[1])
if old then
  local was = cjson.decode(old)
  local version = tonumber(ARGV[1])
  if was['moved_at'] and (was['version'] > version or (was['version'] == version and was['moved_at'] >= ARGV[6]))
  then return 0 end
end
redis.call('SET', KEYS[1], ARGV[2])
if ARGV[5] == '1' then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4]) else redis.call('ZREM', KEYS[2], ARGV[4]) end
for i = 3, 6 do redis.call('ZADD', KEYS[i], ARGV[3], ARGV[4]) end
for i = 7, #KEYS do redis.call('ZREM', KEYS[i], ARGV[4]) end
return 1
"""


def entry(table: Table[Any]) -> dict[str, Any]:
    """What the lobby shows of a game: what a newcomer needs to judge it before taking a seat too (its options, and
    whether its creator chose the seed). `open_seats` counts the seats anyone may take (not those kept for an
    invited player); a finished game shows its `winners` and `scores`, and one waiting for players when the house's
    bots take its open seats (`bots_at`). `moved_at` is the minute of its last event (`shows_a_change`)."""
    found = {
        "game_id": table.game_id,
        "ruleset": table.ruleset,
        "status": str(table.status),
        "version": table.status_since,
        "created_at": table.created_at,
        "moved_at": minute_of(table.moved_at),
        "seats": msgspec.to_builtins(seat_views(table)),
        "open_seats": sum(s.takes(None) for s in table.seats),
        "options": table.options,
        "randomness": randomness(table),
    }
    if (due := bots_at(table)) is not None:
        found["bots_at"] = due
    if table.status is Status.FINISHED:
        result = RULESETS[table.ruleset].result(table.rules)
        found.update(winners=list(result.winners), scores=list(result.scores))
    return found


def written(table: Table[Any]) -> tuple[list[str], list[Any]]:
    """The keys and arguments of the script that writes the game's entry and indexes as of this table."""
    status, ruleset = str(table.status), table.ruleset
    fresh = [index_key(s, r) for s in ("*", status) for r in ("*", ruleset)]
    stale = [index_key(s, r) for s in STATUSES if s != status for r in ("*", ruleset)]
    created = datetime.fromisoformat(table.created_at).timestamp() if table.created_at else 0
    keys = [game_key(table.game_id), active_key(), *fresh, *stale]
    args = [table.status_since, msgspec.json.encode(entry(table)), created, table.game_id, int(is_active(table))]
    return keys, [*args, minute_of(table.moved_at)]


def shows_a_change(before: Table[Any] | None, after: Table[Any]) -> bool:
    """Whether the lobby shows anything new after a decision: a new game, a seat taken, the start, the end,
    the tally, or the first move of a new minute. Any other move is not the lobby's business: an entry's `version`
    is the version at which what it shows last changed, and its `moved_at` the minute of the game's last event
    (enough to tell a game left idle for an hour, at one write a minute at most)."""
    return before is None or order(before) != order(after)


def order(table: Table[Any]) -> tuple[int, str]:
    """What an entry is written from, in the order of the log: an entry never goes back to an earlier one."""
    return table.status_since, minute_of(table.moved_at)


def minute_of(at: str) -> str:
    """The minute of a recorded time (`utc_iso`'s `2026-12-01T07:42:20.123Z`: `2026-12-01T07:42:00.000Z`)."""
    return f"{at[:16]}:00.000Z" if at else ""


def is_active(table: Table[Any]) -> bool:
    """Whether the house may still have something to do for the game: play it, tally it, or seat its bots."""
    return (
        table.status is Status.IN_PROGRESS
        or (table.status is Status.FINISHED and not table.tallied)
        or bots_at(table) is not None
    )


LOCK_MS = 10_000

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Entries(ABC):
    """What both lobbies do with a change they are fed: write the game's entry as of it."""

    def fed_by(self, change: Change) -> bool:
        return shows_a_change(change.before, change.after)

    def apply(self, change: Change) -> Sequence[Notice]:
        self.project(change.after)
        return ()

    def rebuild(self) -> Rebuild:
        return Applying(self)

    @abstractmethod
    def project(self, table: Table[Any]) -> None:
        """Write the game's entry as of this table, unless a later one is there."""


class RedisLobby(Entries):
    """`table_of`: a game's table from its log, to write again an entry that an older service wrote without a
    field the lobby shows now (a read model is rebuilt from the logs, and this one also entry by entry)."""

    def __init__(self, client: redis.Redis, table_of: Callable[[str], Table[Any] | None] | None = None) -> None:
        self.redis = client
        self.table_of = table_of
        self._write = client.register_script(_WRITE)
        self._release = client.register_script(_RELEASE)

    def drop(self) -> int:
        return drop(self.redis, PATTERNS)

    def project(self, table: Table[Any]) -> None:
        key_list, args = written(table)
        outbox = open_for(self.redis)
        if outbox is not None:  # with the decision's other followers' writes, in one round trip
            outbox.script(self._write, key_list, args)
        else:
            self._write(key_list, args)

    def rebuild(self) -> Rebuild:
        return Batching(self)

    def apply_many(self, changes: Sequence[Change]) -> None:
        """Every change's entry, in one round trip (a rebuild's)."""
        batch = Pipelines(self.redis)
        for change in changes:
            key_list, args = written(change.after)
            batch.script(self._write, key_list, args)
        batch.execute()

    def page(
        self, status: str | None, ruleset: str | None, offset: int, limit: int
    ) -> tuple[int, list[dict[str, Any]]]:
        """The total number of matching games and one page of them, newest first."""
        index = index_key(status or "*", ruleset or "*")
        total = int(self.redis.zcard(index))
        if offset >= total:
            return total, []  # past the end (an offset that large would not even fit Redis's integers)
        ids: Reply = self.redis.zrevrange(index, offset, offset + limit - 1)
        return total, self.entries([i.decode() for i in ids])

    def waiting(self, ruleset: str, limit: int = 200) -> list[dict[str, Any]]:
        """The oldest waiting games of a ruleset, oldest first (what a quick match may join)."""
        ids: Reply = self.redis.zrange(index_key(str(Status.WAITING), ruleset), 0, limit - 1)
        return self.entries([i.decode() for i in ids])

    def entries(self, game_ids: list[str]) -> list[dict[str, Any]]:
        """The lobby entries of these games, in this order (a game not in the lobby is left out)."""
        raw = self.redis.mget([game_key(i) for i in game_ids]) if game_ids else []
        return [self.current(msgspec.json.decode(r)) for r in raw if r is not None]

    def current(self, found: dict[str, Any]) -> dict[str, Any]:
        """An entry as the lobby writes it now: one written before `moved_at` (or `randomness`, or a finished game's
        `winners`) was shown is written again."""
        if ("moved_at" in found and (found["status"] != "finished" or "winners" in found)) or self.table_of is None:
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
        key, mine = quick_match_key(ruleset, seats), secrets.token_hex(8)
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
        active: Reply = self.redis.zrange(active_key(), 0, -1)
        return [game_id.decode() for game_id in active]


class MemoryLobby(Entries):
    """The lobby in memory, for the use cases' tests without Redis: the same entries, orders and lock."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[tuple[int, str], float, dict[str, Any], bool]] = {}
        """game id -> the `order` its entry was written from, its creation time, the entry, whether it is active"""
        self._guard = threading.Lock()
        self._locks: dict[tuple[str, int], threading.Lock] = {}

    def drop(self) -> int:
        with self._guard:
            dropped = len(self._entries)
            self._entries.clear()
            return dropped

    def project(self, table: Table[Any]) -> None:
        created = datetime.fromisoformat(table.created_at).timestamp() if table.created_at else 0
        with self._guard:
            old = self._entries.get(table.game_id)
            if old is None or old[0] < order(table):
                self._entries[table.game_id] = (order(table), created, entry(table), is_active(table))

    def _ordered(self, keep: Callable[[dict[str, Any], bool], bool]) -> list[dict[str, Any]]:
        """The entries kept, oldest first (by creation time, then id: Redis's order of a sorted set)."""
        with self._guard:
            found = [(c, g, e) for g, (_, c, e, active) in self._entries.items() if keep(e, active)]
        return [e for _, _, e in sorted(found, key=lambda f: (f[0], f[1]))]

    def page(
        self, status: str | None, ruleset: str | None, offset: int, limit: int
    ) -> tuple[int, list[dict[str, Any]]]:
        found = self._ordered(lambda e, _: status in (None, e["status"]) and ruleset in (None, e["ruleset"]))
        newest = found[::-1]
        return len(newest), newest[offset : offset + limit]

    def waiting(self, ruleset: str, limit: int = 200) -> list[dict[str, Any]]:
        return self._ordered(lambda e, _: e["status"] == Status.WAITING and e["ruleset"] == ruleset)[:limit]

    def entries(self, game_ids: list[str]) -> list[dict[str, Any]]:
        with self._guard:
            return [self._entries[g][2] for g in game_ids if g in self._entries]

    @contextmanager
    def quick_match_lock(self, ruleset: str, seats: int, wait_s: float = 5.0) -> Iterator[bool]:
        with self._guard:
            lock = self._locks.setdefault((ruleset, seats), threading.Lock())
        held = lock.acquire(timeout=wait_s)
        try:
            yield held
        finally:
            if held:
                lock.release()

    def active(self) -> list[str]:
        return [e["game_id"] for e in self._ordered(lambda _, active: active)]
