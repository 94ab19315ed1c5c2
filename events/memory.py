"""An event store in memory: the same contract as the Redis one (tests/events/test_store.py runs against both),
for tests of the use cases that need no Redis. One lock makes each commit one step, as one Lua script does."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from events.envelope import GENESIS, Envelope, decode, encode
from events.store import AnswerKey, Commit, DuplicateRequestError, Loaded, StaleVersionError


@dataclass
class _Game:
    log: list[bytes] = field(default_factory=list)
    snapshot: tuple[int, str, bytes, str, int] | None = None
    """version, head, state, ruleset, format"""
    tokens: dict[int, str] = field(default_factory=dict)
    views: tuple[int, int, dict[str, bytes]] = (0, 0, {})
    """version, format, views"""
    result: bytes | None = None


class MemoryEventStore:
    def __init__(self) -> None:
        self._games: dict[str, _Game] = {}
        self._answers: dict[tuple[str, AnswerKey], bytes] = {}
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
                tail=[decode(e) for e in game.log[version:]],
                token_hashes=dict(game.tokens),
                answer=self._answers.get((game_id, answer_key)) if answer_key else None,
            )

    def commit(self, commit: Commit) -> int:
        with self._changed:
            if commit.answer_key and (answer := self._answers.get((commit.game_id, commit.answer_key))):
                raise DuplicateRequestError(answer)
            game = self._game(commit.game_id)
            if len(game.log) != commit.expected_version:
                raise StaleVersionError(len(game.log))
            game.log += [encode(e) for e in commit.envelopes]
            version = len(game.log)
            head = commit.envelopes[-1].hash if commit.envelopes else ""
            game.snapshot = (version, head, commit.snapshot, commit.ruleset, commit.snapshot_format)
            game.tokens.update(commit.token_hashes)
            if commit.views:
                game.views = (version, commit.snapshot_format, dict(commit.views))
            if commit.result is not None:
                game.result = commit.result
            if commit.answer_key:
                self._answers[(commit.game_id, commit.answer_key)] = commit.answer
            self._changed.notify_all()
            return version

    def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Envelope]:
        with self._changed:
            log = self._games.get(game_id, _Game()).log
            return [decode(e) for e in log[after : None if limit is None else after + limit]]

    def wait_for(self, game_id: str, after: int, block_s: float, count: int) -> list[Envelope]:
        with self._changed:
            self._changed.wait_for(lambda: len(self._game(game_id).log) > after, timeout=block_s)
            return self.read(game_id, after, count)

    def token_hashes(self, game_id: str) -> dict[int, str]:
        with self._changed:
            return dict(self._games.get(game_id, _Game()).tokens)

    def view(self, game_id: str, viewer: str, view_format: int) -> bytes | None:
        with self._changed:
            game = self._games.get(game_id, _Game())
            version, stored_format, views = game.views
            current = version == len(game.log) and stored_format == view_format
            return views.get(viewer) if current else None

    def stored_views(self, game_id: str) -> tuple[int, int, dict[str, bytes]]:
        with self._changed:
            version, view_format, views = self._games.get(game_id, _Game()).views
            return version, view_format, dict(views)

    def write_views(
        self, game_id: str, version: int, view_format: int, views: Mapping[str, bytes], result: bytes | None
    ) -> None:
        with self._changed:
            game = self._game(game_id)
            stored_version, stored_format, _ = game.views
            if stored_version > version and stored_format == view_format:
                return
            if result is not None:
                game.result = result
            if stored_version < version or stored_format != view_format:
                game.views = (version, view_format, dict(views))

    def result(self, game_id: str) -> bytes | None:
        with self._changed:
            return self._games.get(game_id, _Game()).result

    def game_ids(self) -> Iterator[str]:
        with self._changed:
            return iter([game_id for game_id, game in self._games.items() if game.log])

    def ping(self) -> None:
        return None
