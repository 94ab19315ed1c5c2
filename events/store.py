"""The event store: one Redis Stream per game, appended atomically with optimistic concurrency.

An append is one Lua script: it checks the expected version, adds the events under ids
`<version>-0`, and writes in the same step the state snapshot, any new seat token hashes and the
first answer to an idempotent request. Two racing appends on one version can never both land.
Streams are never trimmed: the log is the truth; the snapshot is a cache of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import redis

from events import keys
from events.envelope import GENESIS, Envelope, decode, encode

IDEMPOTENCY_TTL_S = 24 * 3600

_LOAD = """
local snap = redis.call('HMGET', KEYS[1], 'version', 'head', 'state', 'ruleset', 'format')
local version = tonumber(snap[1]) or 0
local tail = redis.call('XRANGE', KEYS[2], (version + 1) .. '-0', '+')
local tokens = redis.call('HGETALL', KEYS[3])
local answer = false
if KEYS[4] then answer = redis.call('GET', KEYS[4]) end
return {snap[3] or false, version, snap[2] or false, snap[4] or false, tail, tokens, answer, snap[5] or false}
"""

_APPEND = """
if KEYS[4] and redis.call('EXISTS', KEYS[4]) == 1 then
  return {'duplicate', redis.call('GET', KEYS[4])}
end
local expected = tonumber(ARGV[1])
local length = redis.call('XLEN', KEYS[1])
if length ~= expected then return {'stale', length} end
local count = tonumber(ARGV[2])
for i = 1, count do
  redis.call('XADD', KEYS[1], (expected + i) .. '-0', 'e', ARGV[6 + i])
end
redis.call('HSET', KEYS[2], 'version', expected + count, 'head', ARGV[3], 'state', ARGV[4], 'ruleset', ARGV[5],
  'format', ARGV[6])
local rest = 6 + count
local tokens = tonumber(ARGV[rest + 1])
for i = 1, tokens do
  redis.call('HSET', KEYS[3], ARGV[rest + 2 * i], ARGV[rest + 2 * i + 1])
end
if KEYS[4] then
  redis.call('SET', KEYS[4], ARGV[rest + 2 * tokens + 2], 'EX', ARGV[rest + 2 * tokens + 3])
end
return {'ok', expected + count}
"""


class StaleVersionError(Exception):
    """The stream moved past the expected version: someone else's events landed first."""

    def __init__(self, actual: int) -> None:
        super().__init__(f"stream is at version {actual}")
        self.actual = actual


class DuplicateRequestError(Exception):
    """The idempotency key was already used; `answer` is the first answer."""

    def __init__(self, answer: bytes) -> None:
        super().__init__("idempotency key already used")
        self.answer = answer


@dataclass(frozen=True)
class Loaded:
    """What one load returns: the snapshot (if any), the events after it, a stored first answer."""

    snapshot: bytes | None
    snapshot_version: int
    snapshot_head: str
    ruleset: str | None
    tail: list[Envelope]
    token_hashes: dict[int, str]
    answer: bytes | None
    snapshot_format: int = 0
    """How the snapshot's state was derived (0: before formats were recorded); see `append`."""

    @property
    def head_hash(self) -> str:
        """The hash of the game's last event: the next event's `prev_hash`."""
        return self.tail[-1].hash if self.tail else self.snapshot_head


@dataclass(frozen=True)
class Idempotency:
    """Where the first answer to an idempotent request is kept."""

    key: str
    answer: bytes


class EventStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._load = client.register_script(_LOAD)
        self._append = client.register_script(_APPEND)

    def load(self, game_id: str, idempotency_key: str | None = None) -> Loaded:
        """The snapshot and every event after it, plus a stored answer, in one round trip."""
        key_list = [keys.snapshot(game_id), keys.events(game_id), keys.tokens(game_id)]
        if idempotency_key:
            key_list.append(idempotency_key)
        state, version, head, ruleset, tail, tokens, answer, snapshot_format = self._load(keys=key_list)
        return Loaded(
            snapshot=state,
            snapshot_version=int(version),
            snapshot_head=head.decode() if head else GENESIS,
            ruleset=ruleset.decode() if ruleset else None,
            tail=[decode(fields[1]) for _, fields in tail],  # from Lua, an entry's fields are a flat list
            token_hashes={int(tokens[i]): tokens[i + 1].decode() for i in range(0, len(tokens), 2)},
            answer=answer,
            snapshot_format=int(snapshot_format or 0),
        )

    def append(
        self,
        game_id: str,
        envelopes: Sequence[Envelope],
        expected_version: int,
        snapshot: bytes,
        ruleset: str,
        tokens: dict[int, str] | None = None,
        idempotency: Idempotency | None = None,
        snapshot_format: int = 0,
    ) -> int:
        """Append events at `expected_version` with the snapshot after them; the new version.

        `snapshot_format` says how the snapshot was derived from the log: a reader that derives states
        differently ignores it and replays the log instead.

        Raises StaleVersionError if the stream is not at `expected_version`, and
        DuplicateRequestError if the idempotency key already holds an answer.
        """
        key_list = [keys.events(game_id), keys.snapshot(game_id), keys.tokens(game_id)]
        head = envelopes[-1].hash if envelopes else ""
        args: list[bytes | str | int] = [expected_version, len(envelopes), head, snapshot, ruleset, snapshot_format]
        args += [encode(e) for e in envelopes]
        token_items = sorted((tokens or {}).items())
        args.append(len(token_items))
        for seat, digest in token_items:
            args += [seat, digest]
        if idempotency:
            key_list.append(idempotency.key)
            args += [idempotency.answer, IDEMPOTENCY_TTL_S]
        outcome, value = self._append(keys=key_list, args=args)
        if outcome == b"duplicate":
            raise DuplicateRequestError(value)
        if outcome == b"stale":
            raise StaleVersionError(int(value))
        return int(value)

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Envelope]:
        """Events with version > `after`, oldest first, at most `limit` of them."""
        entries = self.redis.xrange(keys.events(game_id), f"{after + 1}-0", "+", count=limit)
        return [decode(fields[b"e"]) for _, fields in entries]

    def wait_for(self, game_id: str, after: int, block_s: float, count: int) -> list[Envelope]:
        """Events with version > `after`, waiting up to `block_s` seconds for the first to land."""
        landed = self.redis.xread({keys.events(game_id): f"{after}-0"}, count=count, block=int(block_s * 1000))
        return [decode(fields[b"e"]) for _, fields in landed[0][1]] if landed else []

    def version(self, game_id: str) -> int:
        return int(self.redis.xlen(keys.events(game_id)))

    def token_hashes(self, game_id: str) -> dict[int, str]:
        return {int(seat): digest.decode() for seat, digest in self.redis.hgetall(keys.tokens(game_id)).items()}
