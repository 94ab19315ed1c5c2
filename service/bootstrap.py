"""The one place the object graph is built: for the app, the worker and the command-line tool alike."""

from __future__ import annotations

import redis

from events.players import PlayerStore
from events.repository import GameRepository
from events.store import RedisEventStore
from events.tickets import TicketStore
from projections import Projections
from service.config import Config
from service.scheduler import Scheduler
from service.services import Services


def bootstrap(config: Config | None = None, client: redis.Redis | None = None) -> Services:
    """Everything on the configured Redis: the games, their read models, the job queue, stream tickets."""
    client = client or (config or Config()).redis()
    store = RedisEventStore(client)
    projections = Projections(client, store)
    scheduler = Scheduler(client)
    return Services(
        repository=GameRepository(store),
        projections=projections,
        scheduler=scheduler,
        tickets=TicketStore(client),
        players=PlayerStore(client),
        after_save=(projections.after_save, scheduler.after_save),
    )
