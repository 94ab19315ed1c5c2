"""What the application asks of what it does not own: small protocols, each with a real implementation (Redis, RQ,
the system's secret entropy) and one in memory for the use cases' tests.

The event store (events/store.py), the player store (events/player_store.py), the stream tickets (events/tickets.py)
and the read models (projections/) declare
their own protocols beside their implementations; these are the application's: the job queue, each client's games,
entropy, the judge of a finished game's review, and whoever follows a saved decision.
"""

from __future__ import annotations

import base64
import functools
import random
import secrets
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol

from events.envelope import NONCE_BYTES
from events.repository import Decision
from games import hard
from games import table as tables
from games.base import Ruleset
from games.judgement import Judgement
from games.search import Budget
from games.table import Table


class Follower(Protocol):
    """Told of each decision once it is saved (the read models, the job queue): idempotent, as a decision that
    stands though its replicas did not confirm it in time is told too."""

    def follow(self, decision: Decision) -> None: ...


class JobQueue(Follower, Protocol):
    """The work the house does for the games: each saved decision queues what the game needs next (its bots' turn, a
    deadline, the tally)."""

    def bots_turn(self, table: Table[Any]) -> None:
        """Queue the game's next turn of the house."""

    def review(self, game_id: str) -> None:
        """Queue the first step of a finished game's review, unless a step is pending and alive (a read that finds
        no review asks for it)."""

    def rescue(self, ruleset: Ruleset[Any], table: Table[Any]) -> int:
        """Queue again each job a game that waited too long needs and has no live one of; how many."""

    def playing(self, game_id: str) -> AbstractContextManager[None]:
        """While the house plays a game's bots' turn: its moves queue no turn of their own (the turn's end does)."""

    def depth(self, all_bot_game: bool) -> int:
        """How many jobs a new game's first would wait behind."""

    def pace(self, now: float) -> float:
        """Jobs the workers finished per second, lately."""

    def ping(self) -> None:
        """Return if the queue's store answers (a move queues the house's work there); raise if not."""

    def counts(self) -> Mapping[tuple[str, str], int]:
        """Each queue's jobs by state (queue, state): for the metrics."""


class Judge(Protocol):
    """What a finished game's review asks of each decision (service/application/review.py): the seat's position,
    judged from the seat's own view then (`games.table.plain_view`), with a generator seeded from the game and a
    fixed amount of work, so that the same log always gets the same review."""

    def __call__(self, ruleset: Ruleset[Any], view: dict[str, Any], rng: random.Random) -> Judgement: ...


REVIEW_ITERATIONS = 400
"""A review's search of each decision: a fixed count, not a time, so that a review made again (after a rebuild,
on another machine) says the same."""


def house_judge() -> Judge:
    """The judge of the house's reviews: the `hard` bot's search (games/hard.py), `REVIEW_ITERATIONS` a decision."""
    return functools.partial(hard.judge, budget=Budget(ms=None, iterations=REVIEW_ITERATIONS))


class Holdings(Protocol):
    """Each client's unfinished games (service/application/admission.py)."""

    def unfinished(self, holder: str) -> int:
        """How many of the client's games are neither finished nor aborted."""

    def hold(self, holder: str, game_ids: Iterable[str]) -> None:
        """The client holds these games from now on."""


class Entropy(Protocol):
    """Where every secret and every id the service makes comes from. A seat's token, a hidden seed, a house bot's
    choice must be what nobody can compute from what the game shows, nor from our code: the system's secret
    entropy (`SystemEntropy`), always, in a deployment."""

    def token(self) -> str:
        """A secret handed out once (a seat's or a player's token): 256 bits, URL-safe."""

    def hex(self, nbytes: int) -> str:
        """An id of `nbytes` random bytes, in hex (a game's, a player's, a command's; a seed's salt)."""

    def bits(self, k: int) -> int:
        """A random integer of `k` bits (a hidden seed)."""

    def nonce(self) -> str:
        """An event's secret, covered by its hash."""

    def rng(self) -> random.Random:
        """A generator for a choice the house makes for a seat."""


class SystemEntropy:
    """The system's secret entropy (`secrets`): what a deployment uses, and the in-memory graph by default."""

    def token(self) -> str:
        return secrets.token_urlsafe(32)

    def hex(self, nbytes: int) -> str:
        return secrets.token_hex(nbytes)

    def bits(self, k: int) -> int:
        return secrets.randbits(k)

    def nonce(self) -> str:
        return secrets.token_urlsafe(NONCE_BYTES)

    def rng(self) -> random.Random:
        return random.Random(secrets.randbits(256))


class SeededEntropy:
    """Entropy that a seed reproduces: for the OpenAPI document's example games (the same document every time) and
    for tests. Anyone who knows the seed computes every token: never for a deployment."""

    def __init__(self, seed: int | str) -> None:
        self.random = random.Random(seed)

    def token(self) -> str:
        return base64.urlsafe_b64encode(self.random.randbytes(32)).decode().rstrip("=")

    def hex(self, nbytes: int) -> str:
        return self.random.randbytes(nbytes).hex()

    def bits(self, k: int) -> int:
        return self.random.getrandbits(k)

    def nonce(self) -> str:
        return base64.urlsafe_b64encode(self.random.randbytes(NONCE_BYTES)).decode().rstrip("=")

    def rng(self) -> random.Random:
        return random.Random(self.random.getrandbits(64))


class MemoryJobQueue:
    """A job queue that keeps what it was asked for, for the use cases' tests without Redis: `asked` lists each job
    (`bot`, `tally`, `deadline`, `review`) with its game id; nothing runs them but the test (a review's steps too:
    the test runs the house's step again while it answers MORE)."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []
        self._playing: set[str] = set()
        self._guard = threading.Lock()

    def follow(self, decision: Decision) -> None:
        table = decision.after.table
        if table.status is tables.Status.FINISHED and not table.tallied:
            self._ask("tally", table.game_id)
        if table.status is not tables.Status.IN_PROGRESS:
            return
        awaited = decision.after.ruleset.awaiting(table.rules)
        if table.game_id not in self._playing and any(tables.house_moves(table, s, d) for s, d in awaited.items()):
            self.bots_turn(table)

    def _ask(self, kind: str, game_id: str) -> None:
        with self._guard:
            if (kind, game_id) not in self.asked:
                self.asked.append((kind, game_id))

    def bots_turn(self, table: Table[Any]) -> None:
        self._ask("bot", table.game_id)

    def review(self, game_id: str) -> None:
        self._ask("review", game_id)

    def rescue(self, ruleset: Ruleset[Any], table: Table[Any]) -> int:
        self.bots_turn(table)
        return 1

    @contextmanager
    def playing(self, game_id: str) -> Iterator[None]:
        self._playing.add(game_id)
        try:
            yield
        finally:
            self._playing.discard(game_id)

    def take(self, kind: str) -> list[str]:
        """The games a job of this kind was asked for, taken from the queue."""
        with self._guard:
            taken = [g for k, g in self.asked if k == kind]
            self.asked = [(k, g) for k, g in self.asked if k != kind]
            return taken

    def depth(self, all_bot_game: bool) -> int:
        return 0

    def pace(self, now: float) -> float:
        return 0.0

    def ping(self) -> None:
        return None

    def counts(self) -> dict[tuple[str, str], int]:
        return {("memory", "queued"): len(self.asked)}
