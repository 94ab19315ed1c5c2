"""One real redis-server per test session, on a port of its own, and a clean database per test."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
import redis
from flask import Flask
from rq import Queue

from projections import lobby
from service.application.house import House
from service.application.services import Services
from service.bootstrap import bootstrap
from service.config import Config
from service.http import context
from service.http.app import create_app
from service.ops.redis_server import RedisServer, free_port
from service.worker import jobs
from service.worker.runner import Worker
from service.worker.scheduler import QUEUES, Scheduler
from tests import generated_client
from tests.client import ApiClient


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    # Started as `make run` starts its own, but fsyncing once a second: tests do not test the disk.
    server = RedisServer(Path(tmp_path_factory.mktemp("redis")), free_port(), fsync="everysec").start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def client_package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The Python client openapi-python-client generates from the committed document, imported
    (tests/generated_client.py)."""
    workdir = tmp_path_factory.mktemp("python-client")
    try:
        yield generated_client.generate(workdir)
    finally:
        generated_client.forget(workdir)


@pytest.fixture
def redis_client(redis_server: RedisServer) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    yield client
    client.flushdb()


@pytest.fixture
def config(redis_server: RedisServer, redis_client: redis.Redis) -> Config:
    # Tests play many games from one address, and all-bot games as fast as the house goes: tests of the limits set
    # their own (tests/workers/test_flood.py, tests/service/test_admission.py).
    return dataclasses.replace(
        Config(),
        redis_url=redis_server.url,
        rate_limit="100000 per minute",
        rate_limit_token="100000 per minute",
        rate_limit_address="100000 per minute",
        rate_limit_open="100000 per minute",
        games_per_address=10**6,
        games_per_player=10**6,
        bot_pace_s=0,
    )


@pytest.fixture
def services(config: Config) -> Services:
    return bootstrap(config)


@pytest.fixture
def app(config: Config, services: Services) -> Flask:
    return create_app(config, services, TESTING=True)


@pytest.fixture
def api(app: Flask) -> ApiClient:
    return ApiClient(app.test_client())


@pytest.fixture
def one_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every move in this process seen as made in the same minute: the lobby writes a game's entry again at the first
    move of each new minute, one round trip more, so a test that counts a game's round trips plays it within one."""
    monkeypatch.setattr(lobby, "minute_of", lambda at: "2026-12-01T07:42:00.000Z")


@pytest.fixture
def house(app: Flask) -> House:
    """The house, acting on the test's Redis."""
    return House(context.services_of(app), stall_s=0.5)


@pytest.fixture
def workshop(house: House) -> jobs.Workshop:
    """What jobs run in this process work with: the test's house and its queue."""
    scheduler = house.services.jobs
    assert isinstance(scheduler, Scheduler)
    return jobs.Workshop(house, scheduler)


@pytest.fixture
def drain(workshop: jobs.Workshop, redis_client: redis.Redis) -> Callable[[], None]:
    """Run every queued job (bots, tallies) in this process until the queue is empty."""

    def run() -> None:
        # Jobs are taken and run one by one, as a worker does, without a worker's start and stop (a second each).
        queues = [Queue(name, connection=redis_client) for name in QUEUES]
        worker = Worker(queues, connection=redis_client, workshop=workshop)
        while (found := Queue.dequeue_any(queues, None, connection=redis_client)) is not None:
            worker.execute_job(*found)

    return run
