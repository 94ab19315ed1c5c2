"""An event store in memory: the same contract as the Redis one (tests/events/test_store.py runs against both),
for tests of the use cases that need no Redis. One lock makes each commit one step, as one Lua script does."""

from __future__ import annotations

import fnmatch
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from events.entries import Entry, compact, envelopes
from events.envelope import GENESIS, Envelope
from events.store import (
    AnswerKey,
    Commit,
    Document,
    DocumentsAt,
    DuplicateRequestError,
    Loaded,
    StaleVersionError,
)


@dataclass
class _Game:
    log: list[Entry] = field(default_factory=list)
    """each event as the Redis store keeps it in its stream (events/entries.py)"""
    snapshot: tuple[int, str, bytes, str, int] | None = None
    """version, head, state, ruleset, format"""
    tokens: dict[int, str] = field(default_factory=dict)


class MemoryEventStore:
    one_server = False
    """It keeps no players: a player token is checked before the commit, the notices told after it."""

    def __init__(self) -> None:
        self._games: dict[str, _Game] = {}
        self._answers: dict[tuple[str, AnswerKey], bytes] = {}
        self._documents: dict[str, bytes | tuple[int, int, dict[str, bytes]]] = {}
        """key -> a value, or (version, format, fields)"""
        self._progress: dict[str, tuple[int, int, bytes]] = {}
        """key -> (format, length, value) of a document that grows (kept until it is deleted: no TTL here)"""
        self._changed = threading.Condition()

    def _game(self, game_id: str) -> _Game:
        return self._games.setdefault(game_id, _Game())

    def load(self, game_id: str, answer_key: AnswerKey | None = None) -> Loaded:
        with self._changed:
            game = self._games.get(game_id, _Game())
            version, head, state, ruleset, snapshot_format = game.snapshot or (0, GENESIS, None, None, 0)
            return Loaded(
                snapshot=state,
                snapshot_version=version,
                snapshot_head=head,
                snapshot_format=snapshot_format,
                ruleset=ruleset,
                tail=envelopes(game_id, game.log[max(version - 1, 0) :], version),
                token_hashes=dict(game.tokens),
                answer=self._answers.get((game_id, answer_key)) if answer_key else None,
            )

    def commit(self, commit: Commit) -> int:
        if commit.token is not None or commit.notices:
            raise ValueError("this store keeps no players: check the token first, tell the notices after")
        with self._changed:
            if commit.answer_key and (answer := self._answers.get((commit.game_id, commit.answer_key))):
                raise DuplicateRequestError(answer)
            game = self._game(commit.game_id)
            if len(game.log) != commit.expected_version:
                raise StaleVersionError(len(game.log))
            head = game.snapshot[1] if game.snapshot else GENESIS  # the hash of the last event
            for envelope in commit.envelopes:
                game.log.append(compact(envelope, commit.game_id, linked=envelope.prev_hash == head))
                head = envelope.hash
            version = len(game.log)
            game.snapshot = (version, head, commit.snapshot, commit.ruleset, commit.snapshot_format)
            game.tokens.update(commit.token_hashes)
            for key, document in commit.documents.items():
                self._documents[key] = self._kept(document, version, commit.snapshot_format)
            if commit.answer_key:
                self._answers[(commit.game_id, commit.answer_key)] = commit.answer
            self._changed.notify_all()
            return version

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Envelope]:
        with self._changed:
            log = self._games.get(game_id, _Game()).log
            return envelopes(game_id, log[max(after - 1, 0) : None if limit is None else after + limit], after)

    def read_logs(self, game_ids: Sequence[str]) -> list[list[Envelope]]:
        return [self.read(game_id) for game_id in game_ids]

    def wait_for(self, game_id: str, after: int, block_s: float, count: int) -> list[Envelope]:
        with self._changed:
            self._changed.wait_for(lambda: len(self._game(game_id).log) > after, timeout=block_s)
            return self.read(game_id, after, count)

    def token_hashes(self, game_id: str) -> dict[int, str]:
        with self._changed:
            return dict(self._games.get(game_id, _Game()).tokens)

    @staticmethod
    def _kept(document: Document, version: int, document_format: int) -> bytes | tuple[int, int, dict[str, bytes]]:
        return document if isinstance(document, bytes) else (version, document_format, dict(document))

    def current_fields(
        self, game_id: str, key: str, names: Sequence[str], document_format: int
    ) -> list[bytes | None] | None:
        with self._changed:
            found = self._documents.get(key)
            if not isinstance(found, tuple):
                return None
            version, stored_format, fields = found
            current = version == len(self._games.get(game_id, _Game()).log) and stored_format == document_format
            return [fields.get(name) for name in names] if current else None

    def fields(self, key: str) -> tuple[int, int, dict[str, bytes]]:
        with self._changed:
            found = self._documents.get(key)
            return (found[0], found[1], dict(found[2])) if isinstance(found, tuple) else (0, 0, {})

    def value(self, key: str) -> bytes | None:
        with self._changed:
            found = self._documents.get(key)
            return found if isinstance(found, bytes) else None

    def write_documents(
        self, game_id: str, version: int, document_format: int, documents: Mapping[str, Document]
    ) -> None:
        with self._changed:
            stored = {key: self._documents.get(key) for key, d in documents.items() if not isinstance(d, bytes)}
            if any(isinstance(s, tuple) and s[1] == document_format and s[0] > version for s in stored.values()):
                return
            for key, document in documents.items():
                old = stored.get(key)
                if not (isinstance(old, tuple) and old[1] == document_format and old[0] == version):
                    self._documents[key] = self._kept(document, version, document_format)

    def write_many_documents(self, document_format: int, writes: Sequence[DocumentsAt]) -> None:
        for game_id, version, documents in writes:
            self.write_documents(game_id, version, document_format, documents)

    def progress(self, key: str) -> tuple[int, int, bytes] | None:
        with self._changed:
            return self._progress.get(key)

    def write_progress(self, key: str, document_format: int, length: int, value: bytes, ttl_s: int) -> bool:
        with self._changed:
            stored = self._progress.get(key)
            if stored is not None and stored[0] == document_format and stored[1] >= length:
                return False
            self._progress[key] = (document_format, length, value)
            return True

    def delete(self, key: str) -> None:
        with self._changed:
            self._documents.pop(key, None)
            self._progress.pop(key, None)

    def drop_documents(self, patterns: Sequence[str]) -> int:
        with self._changed:
            # A key's `{` and `}` are literal: only `*` is a wildcard, as in the patterns the store is given.
            gone = 0
            for documents in (self._documents, self._progress):
                found = [k for k in documents if any(fnmatch.fnmatchcase(k, p.replace("[", "[[]")) for p in patterns)]
                for key in found:
                    del documents[key]
                gone += len(found)
            return gone

    def game_ids(self) -> Iterator[str]:
        with self._changed:
            return iter([game_id for game_id, game in self._games.items() if game.log])

    def ping(self) -> None:
        return None
