"""What the use cases work with, built once by service/bootstrap.py for the app, the worker and the CLI."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from events.memory import MemoryEventStore
from events.player_store import PlayerStore
from events.repository import Decision, GameRepository
from events.tickets import TicketStore
from games import table as tables
from projections import Projections
from service.application.admission import Holdings, Limits
from service.worker.scheduler import Scheduler


def utc_now() -> str:
    return tables.utc_iso(datetime.now(UTC))


@dataclass(frozen=True)
class Services:
    """The repository of games, and what else a deployment has: read models beyond a game's own (the lobby,
    the leaderboard), the job queue, stream tickets, the games each client holds and its limits. A use case tells
    `after_save` of each decision it saves."""

    repository: GameRepository
    projections: Projections | None = None
    scheduler: Scheduler | None = None
    tickets: TicketStore | None = None
    players: PlayerStore | None = None
    holdings: Holdings | None = None
    limits: Limits = field(default_factory=Limits)
    clock: Callable[[], str] = utc_now
    after_save: Sequence[Callable[[Decision], None]] = field(default=())

    @classmethod
    def in_memory(cls, clock: Callable[[], str] = utc_now) -> Services:
        """Games kept in memory, with nothing else: for tests of the rules' use cases without Redis."""
        return cls(repository=GameRepository(MemoryEventStore()), clock=clock)
