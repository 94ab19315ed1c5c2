"""Everything the use cases work with, as one object: built once by service/bootstrap.py for the app, the worker and
the command-line tool over Redis, or whole in memory by `Services.in_memory()` for the use cases' tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime

from events.memory import MemoryEventStore
from events.player_store import MemoryPlayerStore, PlayerStore
from events.repository import GameRepository
from events.tickets import MemoryTicketStore, TicketStore
from games import table as tables
from projections import Projections
from service.application.admission import Limits, MemoryHoldings
from service.application.ports import (
    Entropy,
    Follower,
    Holdings,
    JobQueue,
    Judge,
    MemoryJobQueue,
    SystemEntropy,
    house_judge,
)


def utc_now() -> str:
    return tables.utc_iso(datetime.now(UTC))


@dataclass(frozen=True)
class Services:
    """The games (a repository over an event store), their read models, the job queue that has the house play
    them, stream tickets, the registered players, the games each client holds and the limits on them, the entropy
    every secret and id comes from, the clock; and who is told of each saved decision, in order (`followers`:
    the read models, the job queue, the metrics)."""

    repository: GameRepository
    projections: Projections
    jobs: JobQueue
    tickets: TicketStore
    players: PlayerStore
    holdings: Holdings
    followers: Sequence[Follower]
    limits: Limits = field(default_factory=Limits)
    entropy: Entropy = field(default_factory=SystemEntropy)
    clock: Callable[[], str] = utc_now
    judge: Judge = field(default_factory=house_judge)
    together: Callable[[], AbstractContextManager[object]] = nullcontext
    """A block within which the followers' writes to one Redis go in one round trip (events/outbox.py), or none."""

    @classmethod
    def in_memory(
        cls, clock: Callable[[], str] = utc_now, entropy: Entropy | None = None, judge: Judge | None = None
    ) -> Services:
        """The whole graph in memory, for the use cases' tests without Redis (and the OpenAPI document's examples):
        the same use cases, stores and read models, none of them shared with another graph."""
        store = MemoryEventStore()
        projections = Projections.in_memory(store)
        jobs = MemoryJobQueue()
        return cls(
            repository=GameRepository(store),
            projections=projections,
            jobs=jobs,
            tickets=MemoryTicketStore(),
            players=MemoryPlayerStore(),
            holdings=MemoryHoldings(projections.lobby),
            followers=(projections, jobs),
            clock=clock,
            entropy=entropy or SystemEntropy(),
            judge=judge or house_judge(),
        )
