"""A worker running on its own (as in a container) outlives a Redis restart: the same process comes back
to work, and its sweep recovers what the outage stalled."""

from __future__ import annotations

import dataclasses
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from rq import Queue

from service.application.house import House
from service.application.play import create_game
from service.bootstrap import bootstrap
from service.config import Config
from service.http.app import create_app
from service.ops.redis_server import RedisServer, free_port
from service.worker import jobs
from service.worker.runner import Worker
from service.worker.scheduler import QUEUE, Scheduler
from tests.client import ApiClient, Table
from tests.waiting import wait_for
from tests.workers.conftest import tallied


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A Redis of the test's own, to kill: the session's Redis serves the other tests."""
    server = RedisServer(tmp_path / "redis", free_port(), fsync="everysec").start()
    yield server
    server.stop()


def restart(server: RedisServer, down_s: float) -> None:
    """SIGKILL Redis, leave it down a moment, start it again on the same port and data (AOF)."""
    assert server.process is not None
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(timeout=10)
    time.sleep(down_s)
    server.start()


def test_a_worker_outlives_a_redis_restart_and_its_sweep_recovers_a_lost_bot_turn(
    own_redis: RedisServer, start_worker, tmp_path: Path
) -> None:
    log = (tmp_path / "worker.log").open("wb")
    worker = start_worker(own_redis.url, stdout=log, stderr=subprocess.STDOUT)
    api = ApiClient(create_app(dataclasses.replace(Config(), redis_url=own_redis.url), TESTING=True).test_client())
    busy = [api.create(seats=[{"bot": "random"}] * 6) for _ in range(3)]
    wait_for(lambda: api.game(busy[0])["version"] > 10, what="the worker to be busy playing")

    restart(own_redis, down_s=1.5)  # the worker meets the outage mid-job, and its sweep mid-period

    # A game whose first bot turn was never queued (as if its job was lost with the outage): only
    # the sweep can find it.
    client = redis.Redis.from_url(own_redis.url)
    everything = bootstrap(client=client)
    unscheduled = dataclasses.replace(everything, followers=(everything.projections,))
    created = create_game(unscheduled, "twelve-gangsters", [{"bot": "random"}] * 3, {}, 1)
    lost = Table(created.game.game_id)
    wait_for(lambda: tallied(api, lost), timeout_s=30, what="the sweep to recover the lost bot turn")
    for table in busy:
        wait_for(lambda table=table: tallied(api, table), timeout_s=30, what="the games in play to finish")
    assert worker.poll() is None, "the worker process itself came back to work"
    assert b"Exception in thread" not in (tmp_path / "worker.log").read_bytes()


class Slept(Exception):
    pass


def test_a_worker_waiting_out_an_outage_tries_redis_again_at_least_every_five_seconds(
    own_redis: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = redis.Redis.from_url(own_redis.url, socket_connect_timeout=0.2)
    services = bootstrap(client=client)
    assert isinstance(services.jobs, Scheduler)
    workshop = jobs.Workshop(House(services), services.jobs)
    worker = Worker([Queue(QUEUE, connection=client)], connection=client, workshop=workshop)
    assert own_redis.process is not None
    own_redis.process.send_signal(signal.SIGKILL)  # the outage begins while the worker waits for a job
    own_redis.process.wait(timeout=10)
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 6:
            raise Slept

    monkeypatch.setattr("rq.worker.base.time.sleep", sleep)
    monkeypatch.setattr(worker, "set_state", lambda *_: None)  # it went idle just before Redis died
    with pytest.raises(Slept):
        worker.dequeue_job_and_maintain_ttl(timeout=1)
    assert waits == [1, 2, 4, 5, 5, 5]  # doubling, then every 5 s: back to work soon after Redis is
