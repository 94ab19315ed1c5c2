"""The event store: one log per game, appended atomically with optimistic concurrency.

`EventStore` is what the rest of the service asks of a store; `RedisEventStore` keeps each game in a Redis
Stream and a few keys beside it, all in one Cluster slot (the `{<game id>}` hash tag), and `MemoryEventStore`
(events/memory.py) keeps them in a dict, for tests of the use cases that need no Redis.

A commit is one step: it checks the expected version, adds the events (stream ids `<version>-0`, each kept as
events/entries.py says), and writes with them the state snapshot, any new seat token hashes, the first answer to an
idempotent request, and the game's documents: the read models kept in the game's own slot (projections/model.py
`GameDocument`: every viewer's view, the result once it is over), so a client reads its own writes. The store
knows them only as keys of the game's slot, each holding one value or fields kept with the version and format they
show. Two racing commits on one version can never both land. Streams are never trimmed: the log is the truth, the
snapshot a cache of it, the views projections of it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import redis
from redis.cluster import RedisCluster

from events import keys
from events.entries import COMPACT, compact, entries_in, envelopes
from events.envelope import GENESIS, Envelope
from events.feeds import APPEND_ONCE, Entry
from events.pipelines import Pipelines
from events.replication import Replication

IDEMPOTENCY_TTL_S = 24 * 3600

Reply = Any
"""A reply from Redis: redis-py types replies as unions of bytes and str (and awaitables); ours are bytes,
as decode_responses is off, and each use says what it expects."""

Document = bytes | Mapping[str, bytes]
"""A game document: one value, or fields by name (kept with the version and format they show)."""

DocumentsAt = tuple[str, int, Mapping[str, Document]]
"""A game's documents as of a version: the game, the version, the documents by key."""

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
    documents: Mapping[str, Document] = field(default_factory=dict)
    """The game's documents after the events, by key (in the game's slot); fields are of format `snapshot_format`."""
    token: LiveToken | None = None
    """The player token the decision was asked with, checked in the same step (only where `one_server`)."""
    notices: Sequence[Entry] = ()
    """What the decision tells the players seated, kept on their feeds in the same step (only where `one_server`)."""


@dataclass(frozen=True)
class LiveToken:
    """A player token (`<player id>.<token id>.<secret>`) a commit stands on, as its player, its id and the sha256 of
    the whole: the commit lands only while the player's state lists that id with that digest. Checked in the commit's
    own step, so a token revoked a moment before moves nothing, and a caller that sent it learns nothing first."""

    player_id: str
    token_id: str
    digest: str


class TokenNotLiveError(Exception):
    """The commit's player token is unknown or revoked: nothing was written."""


class EventStore(Protocol):
    one_server: bool
    """Whether every key is on the game's own Redis (not a Redis Cluster, which puts a player's keys in other slots
    than a game's): a commit may then check its player token (`Commit.token`) and keep its notices on the players'
    feeds (`Commit.notices`) in its own step."""

    def load(self, game_id: str, answer_key: AnswerKey | None = None) -> Loaded:
        """The snapshot and every event after it, the token hashes and a stored answer, in one step."""

    def commit(self, commit: Commit) -> int:
        """Store a decision; the new version. TokenNotLiveError if its player token is not live, StaleVersionError if
        the log is not at the expected version, DuplicateRequestError if the answer key already holds an answer (then
        nothing is written)."""

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Envelope]:
        """Events with version > `after`, oldest first, at most `limit` of them."""

    def read_logs(self, game_ids: Sequence[str]) -> list[list[Envelope]]:
        """Each game's whole log, in the order asked (a rebuild reads many at once)."""

    def wait_for(self, game_id: str, after: int, block_s: float, count: int) -> list[Envelope]:
        """Events with version > `after`, waiting up to `block_s` seconds for the first to land."""

    def token_hashes(self, game_id: str) -> dict[int, str]:
        """Each human seat's token hash."""

    def current_fields(
        self, game_id: str, key: str, names: Sequence[str], document_format: int
    ) -> list[bytes | None] | None:
        """Fields of a game document in the order named (None for one it lacks), if the document shows the game's
        last version in `document_format` (None if it does not): all as of one version."""

    def fields(self, key: str) -> tuple[int, int, dict[str, bytes]]:
        """A game document's fields, with the version and format they show (0, 0 and none if there are none)."""

    def value(self, key: str) -> bytes | None:
        """A game document's value, if it has one."""

    def write_documents(
        self, game_id: str, version: int, document_format: int, documents: Mapping[str, Document]
    ) -> None:
        """Store the game's documents as of `version`, unless newer ones of this format are there."""

    def write_many_documents(self, document_format: int, writes: Sequence[DocumentsAt]) -> None:
        """`write_documents` of many games at once (a rebuild's): each game's documents as of its version."""

    def progress(self, key: str) -> tuple[int, int, bytes] | None:
        """A game document that grows as a job works (a review's progress): its format, its length and its value;
        None if there is none (never kept, dropped, or expired)."""

    def write_progress(self, key: str, document_format: int, length: int, value: bytes, ttl_s: int) -> bool:
        """Keep a document that grows, for `ttl_s` seconds, unless one of this format at least as long is kept
        already (a copy of the job that got further): whether it was written. One of another format is replaced."""

    def delete(self, key: str) -> None:
        """Delete one game document."""

    def drop_documents(self, patterns: Sequence[str]) -> int:
        """Delete every game's documents whose keys match these patterns (`*` for any part); how many went."""

    def game_ids(self) -> Iterator[str]:
        """Every game with a log."""

    def ping(self) -> None:
        """Return if the store answers; raise (redis.ConnectionError, say) if not."""


_LOAD = """
local snap = redis.call('HMGET', KEYS[1], 'version', 'head', 'state', 'ruleset', 'format')
local version = tonumber(snap[1]) or 0
local tail = redis.call('XRANGE', KEYS[2], math.max(version, 1) .. '-0', '+')
local tokens = redis.call('HGETALL', KEYS[3])
local answer = false
if KEYS[4] then answer = redis.call('GET', KEYS[4]) end
return {snap[3] or false, version, snap[2] or false, snap[4] or false, tail, tokens, answer, snap[5] or false}
"""

# KEYS: events, snapshot, tokens, then each document's key, then each notice's feed and sent keys, then the answer's
# (if ARGV[6] has `a`), then the player's state (if ARGV[6] has `t`: the commit stands on a player token, whose id
# and digest are the last ARGV).
# ARGV: expected, format, ruleset, head, state, what is kept or checked (`a`, `t`), then counted lists: events,
# after the first's `prev_hash` and its entry as kept when that is not the log's head, each as its entry's field and
# value (the first's as kept when it is: events/entries.py); (seat, digest) pairs; documents, each `v` and its value,
# or `f`, its count of fields and (field, value) pairs; notices, each its key, its value and its feed's length; then
# the answer and its time to live. The log's head is the snapshot's, written with the last event, if it shows the
# expected version. Nothing is written unless every check passes; the notices go with the rest.
_COMMIT = (
    APPEND_ONCE
    + """
local last = #KEYS
if string.find(ARGV[6], 't', 1, true) then
  local player = redis.call('GET', KEYS[last])
  local live = player and cjson.decode(player).tokens[ARGV[#ARGV - 1]]
  if not (live and live.digest == ARGV[#ARGV]) then return {'revoked', 0} end
  last = last - 1
end
local answer = string.find(ARGV[6], 'a', 1, true) and KEYS[last] or nil
if answer and redis.call('EXISTS', answer) == 1 then
  return {'duplicate', redis.call('GET', answer)}
end
local expected = tonumber(ARGV[1])
local length = redis.call('XLEN', KEYS[1])
if length ~= expected then return {'stale', length} end
local i = 7
local count = tonumber(ARGV[i])
if count > 0 then
  local head = string.rep('0', 64)
  if expected > 0 then
    local snap = redis.call('HMGET', KEYS[2], 'version', 'head')
    head = tonumber(snap[1]) == expected and snap[2]
  end
  local first = ARGV[i + 4]
  if head ~= ARGV[i + 1] then first = ARGV[i + 2] end
  redis.call('XADD', KEYS[1], (expected + 1) .. '-0', ARGV[i + 3], first)
  for k = 2, count do
    redis.call('XADD', KEYS[1], (expected + k) .. '-0', ARGV[i + 1 + 2 * k], ARGV[i + 2 + 2 * k])
  end
  i = i + 2
end
local version = expected + count
redis.call('HSET', KEYS[2], 'version', version, 'state', ARGV[5], 'ruleset', ARGV[3], 'format', ARGV[2])
if count > 0 then redis.call('HSET', KEYS[2], 'head', ARGV[4]) end
i = i + 2 * count + 1
local tokens = tonumber(ARGV[i])
for k = 1, tokens do
  redis.call('HSET', KEYS[3], ARGV[i + 2 * k - 1], ARGV[i + 2 * k])
end
i = i + 2 * tokens + 1
local documents = tonumber(ARGV[i])
for d = 1, documents do
  local key = KEYS[3 + d]
  if ARGV[i + 1] == 'v' then
    redis.call('SET', key, ARGV[i + 2])
    i = i + 2
  else
    local fields = tonumber(ARGV[i + 2])
    redis.call('DEL', key)
    redis.call('HSET', key, 'version', version, 'format', ARGV[2], unpack(ARGV, i + 3, i + 2 + 2 * fields))
    i = i + 2 + 2 * fields
  end
end
local told = tonumber(ARGV[i + 1])
for k = 1, told do
  local at = 3 + documents + 2 * k
  append_once(KEYS[at - 1], KEYS[at], ARGV[i + 3 * k - 1], ARGV[i + 3 * k], ARGV[i + 3 * k + 1])
end
i = i + 1 + 3 * told
if answer then redis.call('SET', answer, ARGV[i + 1], 'EX', ARGV[i + 2]) end
return {'ok', version}
"""
)

# Only forward: a catch-up or a rebuild that runs late never moves a document back; another format is replaced.
# Nothing is written while a document of fields of this format shows a later version. A value is written at the
# documents' own version too: a drop that took it after the last commit (a rebuild deletes the views, then the
# results) leaves the fields current and the value gone. KEYS: the documents' keys. ARGV: version, format, then
# each document as the commit takes it.
_WRITE_DOCUMENTS = """
local i = 3
local writes = {}
for d = 1, #KEYS do
  if ARGV[i] == 'v' then
    writes[#writes + 1] = {KEYS[d], 'v', ARGV[i + 1]}
    i = i + 2
  else
    local fields = tonumber(ARGV[i + 1])
    local stored = redis.call('HMGET', KEYS[d], 'version', 'format')
    local later = (tonumber(stored[1]) or 0) - tonumber(ARGV[1])
    if stored[2] == ARGV[2] and later > 0 then return 0 end
    if not (stored[2] == ARGV[2] and later == 0) then
      writes[#writes + 1] = {KEYS[d], 'f', i + 2, i + 1 + 2 * fields}
    end
    i = i + 2 + 2 * fields
  end
end
for _, w in ipairs(writes) do
  if w[2] == 'v' then
    redis.call('SET', w[1], w[3])
  else
    redis.call('DEL', w[1])
    redis.call('HSET', w[1], 'version', ARGV[1], 'format', ARGV[2], unpack(ARGV, w[3], w[4]))
  end
end
return 1
"""

# Fields of a document, if the document shows the game's last version in this format: their values in the order
# asked (nil for one it lacks). KEYS: the document, the game's events. ARGV: the format, then the fields.
_CURRENT_FIELDS = """
local found = redis.call('HMGET', KEYS[1], 'version', 'format', unpack(ARGV, 2))
if not (tonumber(found[1]) == redis.call('XLEN', KEYS[2]) and found[2] == ARGV[1]) then return false end
return {unpack(found, 3, #ARGV + 1)}
"""


# A document that grows only: kept unless one of its format at least as long is. KEYS: the document. ARGV: format,
# length, value, TTL.
_WRITE_PROGRESS = """
local stored = redis.call('HMGET', KEYS[1], 'format', 'length')
if stored[1] == ARGV[1] and tonumber(stored[2]) >= tonumber(ARGV[2]) then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'format', ARGV[1], 'length', ARGV[2], 'value', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""


def document_args(documents: Mapping[str, Document]) -> list[bytes | str | int]:
    """The documents as the scripts take them: `v` and a value, or `f`, the number of fields, and the fields."""
    args: list[bytes | str | int] = []
    for document in documents.values():
        if isinstance(document, bytes):
            args += ["v", document]
        else:
            args += ["f", len(document), *(item for pair in document.items() for item in pair)]
    return args


def entry_args(commit: Commit) -> list[bytes | str | int]:
    """The events as the commit script takes them: their count, then (if any) the first's `prev_hash` and its entry
    as kept when that is not the log's head, then each one's entry (the first's as kept when it is)."""
    game_id, batch = commit.game_id, commit.envelopes
    if not batch:
        return [0]
    args: list[bytes | str | int] = [len(batch), batch[0].prev_hash, compact(batch[0], game_id, linked=False)[1]]
    for before, envelope in zip([None, *batch], batch, strict=False):  # each with the one before it
        linked = before is None or envelope.prev_hash == before.hash
        args += compact(envelope, game_id, linked)
    return args


class RedisEventStore:
    """`replication` says how many replicas must hold a commit before it is answered (events/replication.py)."""

    def __init__(self, client: redis.Redis, replication: Replication | None = None) -> None:
        self.redis = client
        self.replication = replication or Replication()
        self.one_server = not isinstance(client, RedisCluster)
        self._load = client.register_script(_LOAD)
        self._commit = client.register_script(_COMMIT)
        self._write_documents = client.register_script(_WRITE_DOCUMENTS)
        self._current_fields = client.register_script(_CURRENT_FIELDS)
        self._write_progress = client.register_script(_WRITE_PROGRESS)

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
            # From Lua an entry's fields are a flat list; the tail starts at the snapshot's own event, for its hash.
            tail=envelopes(game_id, [(fields[0], fields[1]) for _, fields in tail], int(version)),
            token_hashes={int(tokens[i]): tokens[i + 1].decode() for i in range(0, len(tokens), 2)},
            answer=answer,
        )

    def commit(self, commit: Commit) -> int:
        game_id = commit.game_id
        key_list = [keys.events(game_id), keys.snapshot(game_id), keys.tokens(game_id), *commit.documents]
        head = commit.envelopes[-1].hash if commit.envelopes else ""
        args: list[bytes | str | int] = [
            commit.expected_version,
            commit.snapshot_format,
            commit.ruleset,
            head,
            commit.snapshot,
            ("a" if commit.answer_key else "") + ("t" if commit.token else ""),
            *entry_args(commit),
            len(commit.token_hashes),
        ]
        for seat, digest in sorted(commit.token_hashes.items()):
            args += [seat, digest]
        args += [len(commit.documents), *document_args(commit.documents), len(commit.notices)]
        for entry in commit.notices:
            key_list += [entry.feed, entry.sent]
            args += [entry.key, entry.data, entry.length]
        if commit.notices and not self.one_server:
            raise ValueError("a Redis Cluster keeps a player's feed apart from its games: tell the notices after")
        if commit.answer_key:
            key_list.append(keys.idempotency(game_id, *commit.answer_key))
            args += [commit.answer, IDEMPOTENCY_TTL_S]
        if commit.token:
            if not self.one_server:
                raise ValueError("a Redis Cluster keeps a player's state apart from its games: check the token first")
            key_list.append(keys.player_state(commit.token.player_id))
            args += [commit.token.token_id, commit.token.digest]
        outcome, value = self.replication.write(
            self.redis, key_list[0], lambda target: self._commit(keys=key_list, args=args, client=target)
        )
        if outcome == b"revoked":
            raise TokenNotLiveError(commit.token.player_id if commit.token else "")
        if outcome == b"duplicate":
            self.confirm(keys.idempotency(game_id, *commit.answer_key) if commit.answer_key else "")
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
        # From the event at `after` itself: its hash is the next one's `prev_hash`.
        count = None if limit is None else limit + (after > 0)
        entries: Reply = self.redis.xrange(keys.events(game_id), f"{max(after, 1)}-0", "+", count=count)
        return envelopes(game_id, entries_in(entries), after)

    def read_logs(self, game_ids: Sequence[str]) -> list[list[Envelope]]:
        batch = Pipelines(self.redis)
        for game_id in game_ids:
            stream = keys.events(game_id)
            batch.on(stream).xrange(stream, "-", "+")
        return [
            envelopes(game_id, entries_in(entries)) for game_id, entries in zip(game_ids, batch.execute(), strict=True)
        ]

    def wait_for(self, game_id: str, after: int, block_s: float, count: int) -> list[Envelope]:
        stream = keys.events(game_id)
        landed: Reply = self.redis.xread({stream: f"{after}-0"}, count=count, block=int(block_s * 1000))
        if not landed:
            return []
        entries = entries_in(landed[0][1])
        if after > 0 and entries[0][0] == COMPACT:  # its `prev_hash` is the hash of the event at `after`
            before: Reply = self.redis.xrange(stream, f"{after}-0", f"{after}-0")
            entries = entries_in(before) + entries
        return envelopes(game_id, entries, after)

    def token_hashes(self, game_id: str) -> dict[int, str]:
        hashes: Reply = self.redis.hgetall(keys.tokens(game_id))
        return {int(seat): digest.decode() for seat, digest in hashes.items()}

    def current_fields(
        self, game_id: str, key: str, names: Sequence[str], document_format: int
    ) -> list[bytes | None] | None:
        found: Reply = self._current_fields(keys=[key, keys.events(game_id)], args=[document_format, *names])
        return found  # type: ignore[no-any-return]

    def fields(self, key: str) -> tuple[int, int, dict[str, bytes]]:
        found: Reply = self.redis.hgetall(key)
        stored: dict[str, bytes] = {k.decode(): v for k, v in found.items()}
        version, document_format = int(stored.pop("version", 0)), int(stored.pop("format", 0))
        return version, document_format, stored

    def value(self, key: str) -> bytes | None:
        found: Reply = self.redis.get(key)
        return found  # type: ignore[no-any-return]

    def write_documents(
        self, game_id: str, version: int, document_format: int, documents: Mapping[str, Document]
    ) -> None:
        if documents:
            args = [version, document_format, *document_args(documents)]
            self._write_documents(keys=list(documents), args=args)

    def write_many_documents(self, document_format: int, writes: Sequence[DocumentsAt]) -> None:
        batch = Pipelines(self.redis)
        for _, version, documents in writes:
            if documents:
                key_list, args = list(documents), [version, document_format, *document_args(documents)]
                batch.script(self._write_documents, key_list, args)
        batch.execute()

    def progress(self, key: str) -> tuple[int, int, bytes] | None:
        found: Reply = self.redis.hmget(key, ["format", "length", "value"])
        document_format, length, value = found
        if document_format is None or length is None or value is None:
            return None
        return int(document_format), int(length), value

    def write_progress(self, key: str, document_format: int, length: int, value: bytes, ttl_s: int) -> bool:
        return bool(self._write_progress(keys=[key], args=[document_format, length, value, ttl_s]))

    def delete(self, key: str) -> None:
        self.redis.delete(key)

    def drop_documents(self, patterns: Sequence[str]) -> int:
        dropped = 0
        for pattern in patterns:
            batch: Reply = list(self.redis.scan_iter(match=pattern, count=1000))
            for i in range(0, len(batch), 500):
                dropped += int(self.redis.delete(*batch[i : i + 500]))
        return dropped

    def ping(self) -> None:
        self.redis.ping()

    def game_ids(self) -> Iterator[str]:
        streams: Reply = self.redis.scan_iter(match=keys.GAME_STREAMS, count=1000)
        for stream in streams:
            yield keys.game_id_of_stream(stream.decode())
