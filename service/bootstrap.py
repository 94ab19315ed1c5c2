"""The one place the object graph is built: for the app, the worker and the command-line tool alike."""

from __future__ import annotations

import functools
from contextlib import nullcontext

import redis
from redis.cluster import RedisCluster

from events import outbox
from events.player_store import RedisPlayerStore
from events.repository import GameRepository
from events.store import RedisEventStore
from events.tickets import RedisTicketStore
from projections import Projections
from service.application.admission import RedisHoldings
from service.application.services import Services
from service.config import Config
from service.observability.metrics import MovesCounted
from service.worker.scheduler import Scheduler


def bootstrap(
    config: Config | None = None, client: redis.Redis | None = None, queue: redis.Redis | None = None
) -> Services:
    """Everything on the configured Redis (or Redis Cluster): the games, their read models, the players, stream
    tickets, each client's games; and the job queue on the queue's Redis (the same one unless the games are on a
    cluster). Each saved decision is told to the read models, then the job queue, then the metrics; on a plain Redis
    their writes to it go together, in one round trip."""
    config = config or Config()
    client = client or config.redis()
    replication = config.replication()
    store = RedisEventStore(client, replication)
    projections = Projections.on_redis(client, store)
    queue = queue or (client if client_is_plain(client, config) else config.queue_redis())
    jobs = Scheduler(queue, config.bot_pace_s)
    return Services(
        repository=GameRepository(store),
        projections=projections,
        jobs=jobs,
        tickets=RedisTicketStore(client, replication),
        players=RedisPlayerStore(client, replication),
        holdings=RedisHoldings(client, projections.lobby),
        followers=(projections, jobs, MovesCounted()),
        limits=config.limits(),
        judge=config.review_judge(),
        together=functools.partial(outbox.together, client) if store.one_server else nullcontext,
    )


def client_is_plain(client: redis.Redis, config: Config) -> bool:
    """Whether RQ may share the games' client: a plain Redis, and no other named for the queues."""
    return not isinstance(client, RedisCluster) and not config.queue_url
