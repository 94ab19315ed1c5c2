"""The event store: one log per game, appended atomically with optimistic concurrency.

`EventStore` is what the rest of the service asks of a store; `RedisEventStore` keeps each game in a Redis
Stream and a few keys beside it, all in one Cluster slot (the `{<game id>}` hash tag), and `MemoryEventStore`
(events/memory.py) keeps them in a dict, for tests of the use cases that need no Redis.

A commit is one step: it checks the expected version, adds the events (stream ids `<version>-0`), and writes
with them the state snapshot, any new seat token hashes, the first answer to an idempotent request, and the
game's own read models (every viewer's view; the result once it is over), so a client reads its own writes.
Two racing commits on one version can never both land. Streams are never trimmed: the log is the truth, the
snapshot a cache of it, the views projections of it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import redis

from events import keys
from events.envelope import GENESIS, Envelope, decode, encode
from events.replication import Replication

IDEMPOTENCY_TTL_S = 24 * 3600

Reply = Any
"""A reply from Redis: redis-py types replies as unions of bytes and str (and awaitables); ours are bytes,
as decode_responses is off, and each use says what it expects."""

AnswerKey = tuple[str, str]
"""Whose request (a hash of the caller) and its `Idempotency-Key`: where its first answer is kept."""


class StaleVersionError(Exception):
    """The log moved past the expected version: someone else's events landed first."""

    def __init__(self, actual: int) -> None:
        super().__init__(f"the log is at version {actual}")
        self.actual = actual


class DuplicateRequestError(Exception):
    """The idempotency key was already used; `answer` is the first answer."""

    def __init__(self, answer: bytes) -> None:
        super().__init__("idempotency key already used")
        self.answer = answer


@dataclass(frozen=True)
class Loaded:
    """What one load returns: the snapshot (if any), the events after it, the token hashes, a stored answer."""

    snapshot: bytes | None
    snapshot_version: int
    snapshot_head: str
    snapshot_format: int
    """How the snapshot's state was derived (0: before formats were recorded): see games.table.FORMAT."""
    ruleset: str | None
    tail: list[Envelope]
    token_hashes: dict[int, str]
    answer: bytes | None

    @property
    def head_hash(self) -> str:
        """The hash of the game's last event: the next event's `prev_hash`."""
        return self.tail[-1].hash if self.tail else self.snapshot_head


@dataclass(frozen=True)
class Commit:
    """One decision to store: the events at `expected_version`, and what is written with them."""

    game_id: str
    ruleset: str
    envelopes: Sequence[Envelope]
    expected_version: int
    snapshot: bytes
    snapshot_format: int
    token_hashes: Mapping[int, str] = field(default_factory=dict)
    answer_key: AnswerKey | None = None
    answer: bytes = b""
    views: Mapping[str, bytes] = field(default_factory=dict)
    """Each viewer's view after the events (`spectator`, `0`, `1`, …), of format `snapshot_format`."""
    result: bytes | None = None


class EventStore(Protocol):
    def load(self, game_id: str, answer_key: AnswerKey | None = None) -> Loaded:
        """The snapshot and every event after it, the token hashes and a stored answer, in one step."""

    def commit(self, commit: Commit) -> int:
        """Store a decision; the new version. StaleVersionError if the log is not at the expected version,
        DuplicateRequestError if the answer key already holds an answer (then nothing is written)."""

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Envelope]:
        """Events with version > `after`, oldest first, at most `limit` of them."""

    def wait_for(self, game_id: str, after: int, block_s: float, count: int) -> list[Envelope]:
        """Events with version > `after`, waiting up to `block_s` seconds for the first to land."""

    def token_hashes(self, game_id: str) -> dict[int, str]:
        """Each human seat's token hash."""

    def view(self, game_id: str, viewer: str, view_format: int) -> bytes | None:
        """A viewer's stored view, if it is of the game's last version and of `view_format`; else None."""

    def stored_views(self, game_id: str) -> tuple[int, int, dict[str, bytes]]:
        """Every stored view of a game, with their version and format (0, 0 and none if there are none)."""

    def write_views(
        self, game_id: str, version: int, view_format: int, views: Mapping[str, bytes], result: bytes | None
    ) -> None:
        """Store the game's read models as of `version`, unless newer ones of this format are there."""

    def result(self, game_id: str) -> bytes | None:
        """The stored result of a finished game."""

    def game_ids(self) -> Iterator[str]:
        """Every game with a log."""

    def ping(self) -> None:
        """Return if the store answers; raise (redis.ConnectionError, say) if not."""


_LOAD = """
local snap = redis.call('HMGET', KEYS[1], 'version', 'head', 'state', 'ruleset', 'format')
local version = tonumber(snap[1]) or 0
local tail = redis.call('XRANGE', KEYS[2], (version + 1) .. '-0', '+')
local tokens = redis.call('HGETALL', KEYS[3])
local answer = false
if KEYS[4] then answer = redis.call('GET', KEYS[4]) end
return {snap[3] or false, version, snap[2] or false, snap[4] or false, tail, tokens, answer, snap[5] or false}
"""

# KEYS: events, snapshot, tokens, views, result[, answer]
# ARGV: expected, format, ruleset, head, state, then counted lists: events; (seat, digest) pairs;
# (viewer, view) pairs; then the result ('' for none), then the answer and its time to live.
_COMMIT = """
if KEYS[6] and redis.call('EXISTS', KEYS[6]) == 1 then
  return {'duplicate', redis.call('GET', KEYS[6])}
end
local expected = tonumber(ARGV[1])
local length = redis.call('XLEN', KEYS[1])
if length ~= expected then return {'stale', length} end
local i = 6
local count = tonumber(ARGV[i])
for k = 1, count do
  redis.call('XADD', KEYS[1], (expected + k) .. '-0', 'e', ARGV[i + k])
end
local version = expected + count
redis.call('HSET', KEYS[2], 'version', version, 'head', ARGV[4], 'state', ARGV[5], 'ruleset', ARGV[3],
  'format', ARGV[2])
i = i + count + 1
local tokens = tonumber(ARGV[i])
for k = 1, tokens do
  redis.call('HSET', KEYS[3], ARGV[i + 2 * k - 1], ARGV[i + 2 * k])
end
i = i + 2 * tokens + 1
local views = tonumber(ARGV[i])
if views > 0 then
  redis.call('DEL', KEYS[4])
  redis.call('HSET', KEYS[4], 'version', version, 'format', ARGV[2], unpack(ARGV, i + 1, i + 2 * views))
end
i = i + 2 * views + 1
if ARGV[i] ~= '' then redis.call('SET', KEYS[5], ARGV[i]) end
if KEYS[6] then redis.call('SET', KEYS[6], ARGV[i + 1], 'EX', ARGV[i + 2]) end
return {'ok', version}
"""

# Only forward: a catch-up or a rebuild that runs late never moves a view back; another format is replaced.
# The result is written at the views' own version too: a drop that took it after the last commit (a rebuild
# deletes the views, then the results) leaves the views current and the result gone.
_WRITE_VIEWS = """
local stored = redis.call('HMGET', KEYS[1], 'version', 'format')
local current = (tonumber(stored[1]) or 0) - tonumber(ARGV[1])
if stored[2] == ARGV[2] and current > 0 then return 0 end
if ARGV[3] ~= '' then redis.call('SET', KEYS[2], ARGV[3]) end
if stored[2] == ARGV[2] and current == 0 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'format', ARGV[2], unpack(ARGV, 4))
return 1
"""

_VIEW = """
local view = redis.call('HMGET', KEYS[1], 'version', ARGV[1], 'format')
if view[2] and tonumber(view[1]) == redis.call('XLEN', KEYS[2]) and view[3] == ARGV[2] then return view[2] end
return false
"""


class RedisEventStore:
    """`replication` says how many replicas must hold a commit before it is answered (events/replication.py)."""

    def __init__(self, client: redis.Redis, replication: Replication | None = None) -> None:
        self.redis = client
        self.replication = replication or Replication()
        self._load = client.register_script(_LOAD)
        self._commit = client.register_script(_COMMIT)
        self._write_views = client.register_script(_WRITE_VIEWS)
        self._view = client.register_script(_VIEW)

    def load(self, game_id: str, answer_key: AnswerKey | None = None) -> Loaded:
        key_list = [keys.snapshot(game_id), keys.events(game_id), keys.tokens(game_id)]
        if answer_key:
            key_list.append(keys.idempotency(game_id, *answer_key))
        state, version, head, ruleset, tail, tokens, answer, snapshot_format = self._load(keys=key_list)
        if answer is not None and answer_key:
            self.confirm(keys.idempotency(game_id, *answer_key))
        return Loaded(
            snapshot=state,
            snapshot_version=int(version),
            snapshot_head=head.decode() if head else GENESIS,
            snapshot_format=int(snapshot_format or 0),
            ruleset=ruleset.decode() if ruleset else None,
            tail=[decode(fields[1]) for _, fields in tail],  # from Lua, an entry's fields are a flat list
            token_hashes={int(tokens[i]): tokens[i + 1].decode() for i in range(0, len(tokens), 2)},
            answer=answer,
        )

    def commit(self, commit: Commit) -> int:
        game_id = commit.game_id
        key_list = [
            keys.events(game_id),
            keys.snapshot(game_id),
            keys.tokens(game_id),
            keys.views(game_id),
            keys.result(game_id),
        ]
        head = commit.envelopes[-1].hash if commit.envelopes else ""
        args: list[bytes | str | int] = [
            commit.expected_version,
            commit.snapshot_format,
            commit.ruleset,
            head,
            commit.snapshot,
            len(commit.envelopes),
            *(encode(e) for e in commit.envelopes),
            len(commit.token_hashes),
        ]
        for seat, digest in sorted(commit.token_hashes.items()):
            args += [seat, digest]
        args.append(len(commit.views))
        for viewer, view in commit.views.items():
            args += [viewer, view]
        args.append(commit.result or b"")
        if commit.answer_key:
            key_list.append(keys.idempotency(game_id, *commit.answer_key))
            args += [commit.answer, IDEMPOTENCY_TTL_S]
        outcome, value = self.replication.write(
            self.redis, key_list[0], lambda target: self._commit(keys=key_list, args=args, client=target)
        )
        if outcome == b"duplicate":
            self.confirm(key_list[-1])
            raise DuplicateRequestError(value)
        if outcome == b"stale":
            raise StaleVersionError(int(value))
        return int(value)

    def confirm(self, answer_key: str) -> None:
        """Before a stored answer is given again: the first may have been answered before its replicas held it.
        Any write on the game's master that the replicas confirm was replicated after everything before it,
        the stored answer included; this one keeps the answer another day."""
        if self.replication.min_replicas:
            self.replication.write(self.redis, answer_key, lambda t: t.expire(answer_key, IDEMPOTENCY_TTL_S))

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Envelope]:
        entries: Reply = self.redis.xrange(keys.events(game_id), f"{after + 1}-0", "+", count=limit)
        return [decode(fields[b"e"]) for _, fields in entries]

    def wait_for(self, game_id: str, after: int, block_s: float, count: int) -> list[Envelope]:
        landed: Reply = self.redis.xread({keys.events(game_id): f"{after}-0"}, count=count, block=int(block_s * 1000))
        return [decode(fields[b"e"]) for _, fields in landed[0][1]] if landed else []

    def token_hashes(self, game_id: str) -> dict[int, str]:
        hashes: Reply = self.redis.hgetall(keys.tokens(game_id))
        return {int(seat): digest.decode() for seat, digest in hashes.items()}

    def view(self, game_id: str, viewer: str, view_format: int) -> bytes | None:
        stored = self._view(keys=[keys.views(game_id), keys.events(game_id)], args=[viewer, view_format])
        return stored or None

    def stored_views(self, game_id: str) -> tuple[int, int, dict[str, bytes]]:
        found: Reply = self.redis.hgetall(keys.views(game_id))
        stored: dict[str, bytes] = {k.decode(): v for k, v in found.items()}
        version, view_format = int(stored.pop("version", 0)), int(stored.pop("format", 0))
        return version, view_format, stored

    def write_views(
        self, game_id: str, version: int, view_format: int, views: Mapping[str, bytes], result: bytes | None
    ) -> None:
        fields = [item for pair in views.items() for item in pair]
        args = [version, view_format, result or b"", *fields]
        self._write_views(keys=[keys.views(game_id), keys.result(game_id)], args=args)

    def result(self, game_id: str) -> bytes | None:
        found: Reply = self.redis.get(keys.result(game_id))
        return found  # type: ignore[no-any-return]

    def ping(self) -> None:
        self.redis.ping()

    def game_ids(self) -> Iterator[str]:
        streams: Reply = self.redis.scan_iter(match=keys.GAME_STREAMS, count=1000)
        for stream in streams:
            yield keys.game_id_of_stream(stream.decode())
