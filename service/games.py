"""Use cases: create, join, move, look. Each loads, decides, appends with the expected version, answers.

The state is loaded from the snapshot plus the events after it (one round trip); the append writes
the events, the new snapshot and any idempotent answer in one atomic step (a second round trip).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec

from events import keys
from events.envelope import GENESIS, Envelope, new_nonce, sealed
from events.registry import to_payload
from events.store import DuplicateRequestError, EventStore, Idempotency, StaleVersionError
from games import table as tables
from games.base import SPECTATOR, Event, IllegalMoveError, Ruleset
from games.registry import RULESETS
from games.table import SetupError, Table
from projections import Projections
from projections.replay import fold
from service import tokens
from service.errors import (
    ConflictError,
    GameNotFoundError,
    InvalidRequestError,
    InvalidTokenError,
    VersionMismatchError,
)
from service.feed import feed_item
from service.scheduler import Scheduler

GAME_ID = re.compile(r"[0-9a-f]{16}")
MAX_ATTEMPTS = 5
"""Times a move is decided again when another move lands first (no If-Match given)."""


def utc_now() -> str:
    return tables.utc_iso(datetime.now(UTC))


@dataclass(frozen=True)
class Caller:
    """Who sends a move: a player with a seat token, or the house playing a seat (`by` a bot or a deadline)."""

    token: str | None = None
    seat: int | None = None
    by: str | None = None

    @property
    def key(self) -> str:
        """Whose idempotency keys these are."""
        return tokens.digest(self.token)[:32] if self.token is not None else f"house-{self.seat}"


@dataclass(frozen=True)
class Game:
    """A loaded game: its rules, its table, the hash at its head and its seats' token hashes."""

    ruleset: Ruleset[Any]
    table: Table[Any]
    head_hash: str
    token_hashes: dict[int, str]
    answer: bytes | None = None


class Games:
    def __init__(
        self,
        store: EventStore,
        projections: Projections,
        scheduler: Scheduler | None = None,
        clock: Callable[[], str] = utc_now,
    ) -> None:
        self.store = store
        self.projections = projections
        self.scheduler = scheduler
        self.clock = clock

    # -- reading ---------------------------------------------------------------------------

    def load(self, game_id: str, idempotency_key: str | None = None) -> Game:
        """The game as it stands: its snapshot plus any events after it."""
        if not GAME_ID.fullmatch(game_id):
            raise GameNotFoundError(f"no game {game_id!r}")
        loaded = self.store.load(game_id, idempotency_key)
        ruleset_id = loaded.ruleset or (loaded.tail[0].payload["ruleset"] if loaded.tail else None)
        if ruleset_id is None:
            raise GameNotFoundError(f"no game {game_id!r}")
        ruleset = RULESETS[ruleset_id]
        if loaded.snapshot is not None and loaded.snapshot_format == tables.FORMAT:
            table = fold(ruleset, msgspec.json.decode(loaded.snapshot, type=Table[ruleset.state_type]), loaded.tail)
        else:  # no snapshot, or one derived by other rules: the log decides
            table = fold(ruleset, None, self.store.read(game_id))
        assert table is not None
        return Game(ruleset, table, loaded.head_hash, loaded.token_hashes, loaded.answer)

    def seat_of(self, game: Game, token: str | None) -> int | None:
        """The caller's seat, None for a spectator; InvalidTokenError for a token of no seat."""
        if token is None:
            return None
        seat = tokens.seat_of(token, game.token_hashes)
        if seat is None:
            raise InvalidTokenError("this token holds no seat in this game")
        return seat

    def view(self, game: Game, seat: int | None) -> dict[str, Any]:
        return tables.view(game.ruleset, game.table, SPECTATOR if seat is None else seat)

    # -- writing ---------------------------------------------------------------------------

    def create(
        self, ruleset_id: str, seats: list[dict[str, Any]], options: dict[str, Any], seed: int | None
    ) -> tuple[Game, dict[int, str]]:
        """A new game and the token of each human seat (handed out once)."""
        ruleset = RULESETS.get(ruleset_id)
        if ruleset is None:
            raise SetupError("unknown_ruleset", f"no ruleset {ruleset_id!r}; see GET /v1/rulesets")
        game_id = secrets.token_hex(8)
        seat_list = [tables.Seat(name=s.get("name"), bot=s.get("bot")) for s in seats]
        # A seed the service draws stays secret behind a random salt; a seed the creator gives is
        # public already, and with no salt it reproduces every shuffle and roll.
        salt = secrets.token_hex(16) if seed is None else ""
        seed = secrets.randbits(53) if seed is None else seed
        events = tables.create(ruleset, game_id, seat_list, options, seed, salt, self.clock())
        handed = {i: tokens.new_token() for i, s in enumerate(seat_list) if s.name is not None}
        envelopes, game = self._seal(ruleset, None, GENESIS, events, None, {"name": "create"})
        self._save(game, envelopes, 0, handed)
        return game, handed

    def join(self, game_id: str, name: str) -> tuple[Game, int, str]:
        """The caller takes the first open seat; its token is handed out once."""
        for _ in range(MAX_ATTEMPTS):
            game = self.load(game_id)
            events = tables.join(game.ruleset, game.table, name)
            seat = events[0].seat  # type: ignore[attr-defined]
            token = tokens.new_token()
            command = {"name": "join", "player": name}
            envelopes, joined = self._seal(game.ruleset, game.table, game.head_hash, events, None, command)
            try:
                self._save(joined, envelopes, game.table.version, {seat: token})
            except StaleVersionError:
                continue
            return joined, seat, token
        raise ConflictError("the game is too busy; try again", code="concurrent_modification")

    def move(
        self,
        game_id: str,
        caller: Caller,
        body: dict[str, Any],
        if_match: int | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """Apply the caller's move; the answer holds the new version, the events and the view."""
        stored_at = keys.idempotency(game_id, caller.key, idempotency_key) if idempotency_key else None
        fingerprint = hashlib.sha256(msgspec.json.encode(body, order="sorted")).hexdigest()
        wait: int | None = None
        for _ in range(MAX_ATTEMPTS):
            game = self.load(game_id, stored_at)
            seat = caller.seat if caller.token is None else self.seat_of(game, caller.token)
            assert seat is not None
            if game.answer is not None:
                return first_answer(game.answer, fingerprint)
            game = self._close_if_overdue(game)
            if wait is not None and game.table.wait_since != wait:
                # Decided again only within the same wait: never carried into a round the caller has not seen.
                raise ConflictError("the game moved on before this move landed; look again", code="game_moved_on")
            wait = game.table.wait_since
            move = game.ruleset.parse_move(body)
            if if_match is not None and if_match != game.table.version:
                raise VersionMismatchError(
                    f"If-Match names version {if_match}; the game is at version {game.table.version}"
                )
            events = tables.play(game.ruleset, game.table, seat, move)
            parsed = msgspec.to_builtins(move)  # the move as the rules read it, not the raw body
            command = {"name": "move", "seat": seat, "move": parsed, **({"by": caller.by} if caller.by else {})}
            envelopes, after = self._seal(game.ruleset, game.table, game.head_hash, events, seat, command)
            answer = {
                "version": after.table.version,
                "events": [feed_item(after.ruleset, after.table, e, seat) for e in envelopes],
                "game": self.view(after, seat),
            }
            record = msgspec.json.encode({"fingerprint": fingerprint, "answer": answer})
            try:
                self._save(after, envelopes, game.table.version, None, stored_at and Idempotency(stored_at, record))
                return answer
            except StaleVersionError:
                if if_match is not None:
                    raise VersionMismatchError("another move landed first") from None
            except DuplicateRequestError as duplicate:
                return first_answer(duplicate.answer, fingerprint)
        raise ConflictError("the game is too busy; try again", code="concurrent_modification")

    def _close_if_overdue(self, game: Game) -> Game:
        """Where the rules say what lateness means (an aiming window), a move arriving after the limit
        finds the wait already closed, even if the deadline job has not run yet: timing is a rule."""
        table, ruleset = game.table, game.ruleset
        due = tables.deadline_at(ruleset, table)
        if due is None or ruleset.time_limit(table.rules) is None or seconds_between(due, self.clock()) < 0:
            return game
        return self.expire(table.game_id, table.wait_since)

    def expire(self, game_id: str, wait_since: int) -> Game:
        """Apply the game's own lateness rule to the wait that began at `wait_since`, if it still goes on."""

        def decide(game: Game) -> list[Event]:
            try:
                return tables.timeout(game.ruleset, game.table, wait_since) or []
            except IllegalMoveError:
                return []  # the wait is over: someone closed it first

        return self.act(game_id, {"name": "timeout", "wait_since": wait_since}, decide)

    def act(self, game_id: str, command: dict[str, Any], decide: Callable[[Game], list[Event]]) -> Game:
        """Apply a command of the house (a timeout, a tally): decide on the current state, append,
        and decide again if another command landed first. No events: nothing to do."""
        for _ in range(MAX_ATTEMPTS):
            game = self.load(game_id)
            events = decide(game)
            if not events:
                return game
            envelopes, after = self._seal(game.ruleset, game.table, game.head_hash, events, None, command)
            try:
                self._save(after, envelopes, game.table.version, None)
                return after
            except StaleVersionError:
                continue
        raise ConflictError("the game is too busy; try again", code="concurrent_modification")

    def _seal(
        self,
        ruleset: Ruleset[Any],
        table: Table[Any] | None,
        head_hash: str,
        events: list[Event],
        seat: int | None,
        command: dict[str, Any],
    ) -> tuple[list[Envelope], Game]:
        """Wrap events in envelopes chained by hash; the game as it stands after them."""
        version = table.version if table else 0
        command_id = uuid.uuid4().hex
        envelopes: list[Envelope] = []
        for i, event in enumerate(events):
            name, schema_version, payload = to_payload(event)
            envelope = sealed(
                Envelope(
                    game_id=table.game_id if table else event.game_id,  # type: ignore[attr-defined]
                    version=version + i + 1,
                    type=name,
                    schema_version=schema_version,
                    payload=payload,
                    seat=seat,
                    command_id=command_id,
                    command=command if i == 0 else None,
                    at=self.clock(),
                    prev_hash=envelopes[-1].hash if envelopes else head_hash,
                    nonce=new_nonce(),
                )
            )
            envelopes.append(envelope)
            table = tables.evolve(ruleset, table, event, envelope.at)
        assert table is not None
        return envelopes, Game(ruleset, table, envelopes[-1].hash, {})

    def _save(
        self,
        game: Game,
        envelopes: list[Envelope],
        expected_version: int,
        handed: dict[int, str] | None,
        idempotency: Idempotency | None = None,
    ) -> None:
        hashes = {seat: tokens.digest(token) for seat, token in (handed or {}).items()}
        snapshot = msgspec.json.encode(game.table)
        self.store.append(
            game.table.game_id,
            envelopes,
            expected_version,
            snapshot,
            game.ruleset.id,
            hashes,
            idempotency,
            snapshot_format=tables.FORMAT,
        )
        self.projections.project(game.ruleset, game.table)
        if self.scheduler:
            self.scheduler.after(game.ruleset, game.table, expected_version)


def seconds_between(earlier: str, later: str) -> float:
    return (datetime.fromisoformat(later) - datetime.fromisoformat(earlier)).total_seconds()


def first_answer(stored: bytes, fingerprint: str) -> dict[str, Any]:
    """The answer kept for an idempotency key, if the request is the same as the first."""
    record = msgspec.json.decode(stored)
    if record["fingerprint"] != fingerprint:
        raise InvalidRequestError("this Idempotency-Key was used with a different body", code="idempotency_key_reused")
    return record["answer"]
