"""Games as the rules know them, loaded from and saved to an event store: the one way state is rebuilt from a
log, and the one way a decision is stored.

`get` loads a game from its snapshot and the events after it (one step); `save` stores a sealed decision with
its snapshot, token hashes, idempotent answer and the game's documents (one step); `at` rebuilds a game as it
was at a version. `seal` turns what the rules decided into envelopes chained by hash.
"""

from __future__ import annotations

import dataclasses
import re
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from events.envelope import GENESIS, Envelope, new_nonce, sealed
from events.feeds import Entry
from events.registry import from_payload, to_payload
from events.store import AnswerKey, Commit, Document, EventStore, LiveToken
from games import table as tables
from games.base import Event, Ruleset
from games.commands import Command
from games.registry import RULESETS
from games.table import Table

GAME_ID = re.compile(r"[0-9a-f]{16}")


class NoSuchGameError(Exception):
    """No game has this id."""


def event_of(envelope: Envelope) -> Event:
    """The event inside an envelope, upcast to its current schema."""
    return from_payload(envelope.type, envelope.schema_version, envelope.payload)


def ruleset_of(first: Envelope) -> Ruleset[Any]:
    """A game's rules, named by its first event."""
    return RULESETS[first.payload["ruleset"]]


def fold(ruleset: Ruleset[Any], table: Table[Any] | None, envelopes: Iterable[Envelope]) -> Table[Any] | None:
    """The table after the given events, starting from `table` (None: from the beginning)."""
    for envelope in envelopes:
        table = tables.evolve(ruleset, table, event_of(envelope), envelope.at)
    return table


@dataclass(frozen=True)
class Game:
    """A loaded game: its rules, its table, the hash at its head, its seats' token hashes and, when asked
    for, the first answer kept for an idempotent request."""

    ruleset: Ruleset[Any]
    table: Table[Any]
    head_hash: str
    token_hashes: Mapping[int, str] = field(default_factory=dict)
    answer: bytes | None = None

    @property
    def game_id(self) -> str:
        return self.table.game_id

    @property
    def version(self) -> int:
        return self.table.version


@dataclass(frozen=True)
class Decision:
    """What the rules decided for a command, sealed: the command, the envelopes, and the game before and after."""

    before: Game | None
    after: Game
    envelopes: Sequence[Envelope]
    events: Sequence[Event]
    command: Command

    @property
    def expected_version(self) -> int:
        return self.before.version if self.before else 0


def seal(
    ruleset: Ruleset[Any],
    before: Game | None,
    events: Sequence[Event],
    command: Command,
    seat: int | None,
    at: str,
    command_id: str | None = None,
    nonces: Callable[[], str] = new_nonce,
) -> Decision:
    """Wrap events in envelopes chained by hash (the command rides on the first); the game after them. The
    command's id and the nonces are drawn at random unless given (the OpenAPI document's example game)."""
    table = before.table if before else None
    version = table.version if table else 0
    head = before.head_hash if before else GENESIS
    command_id = command_id or uuid.uuid4().hex
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
                command=command.stored() if i == 0 else None,
                at=at,
                prev_hash=envelopes[-1].hash if envelopes else head,
                nonce=nonces(),
            )
        )
        envelopes.append(envelope)
        table = tables.evolve(ruleset, table, event, at)
    assert table is not None, "a decision has at least one event"
    tokens = before.token_hashes if before else {}
    return Decision(before, Game(ruleset, table, envelopes[-1].hash, tokens), envelopes, list(events), command)


HELD = 1024
"""Games a repository holds as it last loaded or saved them: those its process acted on most lately (a 4-seat
Mobsters table late in play is about 20 KiB of Python objects, so some 20 MiB at most)."""


class GameRepository:
    def __init__(self, store: EventStore, held: int = HELD) -> None:
        self.store = store
        self._held: OrderedDict[str, Game] = OrderedDict()
        self._most_held = held
        self._guard = threading.Lock()

    def held(self, game_id: str) -> Game | None:
        """The game as this repository last loaded or saved it, if it still holds it: current unless another
        process (or another repository) has acted on it since, which only a save can tell (its version check)."""
        with self._guard:
            return self._held.get(game_id)

    def _hold(self, game: Game) -> None:
        with self._guard:
            self._held[game.game_id] = game
            self._held.move_to_end(game.game_id)
            if len(self._held) > self._most_held:
                self._held.popitem(last=False)

    def get(self, game_id: str, answer_key: AnswerKey | None = None) -> Game:
        """The game as it stands; NoSuchGameError if there is none."""
        if not GAME_ID.fullmatch(game_id):
            raise NoSuchGameError(game_id)
        loaded = self.store.load(game_id, answer_key)
        ruleset_id = loaded.ruleset or (loaded.tail[0].payload["ruleset"] if loaded.tail else None)
        if ruleset_id is None:
            raise NoSuchGameError(game_id)
        ruleset = RULESETS[ruleset_id]
        if loaded.snapshot is not None and loaded.snapshot_format == tables.FORMAT:
            snapshot = msgspec.json.decode(loaded.snapshot, type=Table[ruleset.state_type])  # type: ignore[name-defined]
            table = fold(ruleset, snapshot, loaded.tail)
        else:  # no snapshot, or one derived by other rules: the log decides
            table = fold(ruleset, None, self.store.read(game_id))
        assert table is not None
        game = Game(ruleset, table, loaded.head_hash, loaded.token_hashes)
        self._hold(game)
        return dataclasses.replace(game, answer=loaded.answer) if loaded.answer is not None else game

    def save(
        self,
        decision: Decision,
        token_hashes: Mapping[int, str] | None = None,
        answer: tuple[AnswerKey, bytes] | None = None,
        documents: Mapping[str, Document] | None = None,
        token: LiveToken | None = None,
        notices: Sequence[Entry] = (),
    ) -> None:
        """Store a decision with what goes with it, in one step; StaleVersionError if another landed first,
        DuplicateRequestError if the answer's key holds a first answer already, TokenNotLiveError if the player token
        it stands on (`token`, where the store is `one_server`) is not live; `notices`: the players' feeds' entries it
        makes, kept with it (where the store is `one_server`)."""
        after = decision.after
        self.store.commit(
            Commit(
                game_id=after.game_id,
                ruleset=after.ruleset.id,
                envelopes=decision.envelopes,
                expected_version=decision.expected_version,
                snapshot=msgspec.json.encode(after.table),
                snapshot_format=tables.FORMAT,
                token_hashes=token_hashes or {},
                answer_key=answer[0] if answer else None,
                answer=answer[1] if answer else b"",
                documents=documents or {},
                token=token,
                notices=notices,
            )
        )
        self._hold(dataclasses.replace(after, token_hashes={**after.token_hashes, **(token_hashes or {})}))

    @property
    def one_server(self) -> bool:
        """Whether a save can check the player token it stands on and keep its notices (`EventStore.one_server`)."""
        return self.store.one_server

    def at(self, game: Game, version: int) -> Table[Any]:
        """The game's table as it was at `version` (1 to the game's version)."""
        past = fold(game.ruleset, None, self.store.read(game.game_id, after=0, limit=version))
        assert past is not None
        return past

    def token_hashes(self, game_id: str) -> dict[int, str]:
        """Each anonymous human seat's token hash, without loading the game (a read checks its token first)."""
        return self.store.token_hashes(game_id)

    def ping(self) -> None:
        """Return if the store answers; raise (redis.ConnectionError, say) if not."""
        self.store.ping()

    def log(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Envelope]:
        return self.store.read(game_id, after, limit)

    def wait_for(self, game_id: str, after: int, block_s: float, count: int) -> list[Envelope]:
        """The events after version `after`, waiting up to `block_s` seconds for the first to land (a live feed)."""
        return self.store.wait_for(game_id, after, block_s, count)
