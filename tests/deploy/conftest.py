"""`syndicate serve` started as the container starts it: a real gunicorn on a free port, against the tests' Redis."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from service.config import every_rate_limit
from service.ops.gunicorn_conf import GRACEFUL_TIMEOUT_S
from service.ops.redis_server import RedisServer, free_port
from tests.waiting import wait_for


@dataclass
class Served:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def lines(self) -> list[dict[str, Any]]:
        """The log's lines, each a JSON object (a stray line, a warning say, is left out)."""
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.startswith("{")]

    def stop(self) -> None:
        """Stopped as `docker stop` would: gunicorn removes the metrics directory it made."""
        self.process.terminate()
        try:
            self.process.wait(timeout=GRACEFUL_TIMEOUT_S + 5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_serving(redis_url: str, directory: Path, workers: int = 1) -> Served:
    """`syndicate serve` with `workers` workers, once every worker has booted and it answers."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    env |= {"REDIS_URL": redis_url, "SYNDICATE_HOST": "127.0.0.1", "SYNDICATE_PORT": str(port),
            "SYNDICATE_WEB_WORKERS": str(workers), **every_rate_limit("100000 per minute")}  # fmt: skip
    log = directory / f"serve-{port}.log"
    with log.open("wb") as out:
        args = [sys.executable, "-m", "service.ops.cli", "serve"]
        process = subprocess.Popen(args, env=env, cwd=directory, stdout=out, stderr=subprocess.STDOUT)
    served = Served(f"http://127.0.0.1:{port}", process, log)

    def up() -> bool:
        assert process.poll() is None, "syndicate serve stopped:\n" + log.read_text()
        booted = [line for line in served.lines() if line["message"].startswith("Booting worker")]
        return len(booted) == workers and requests.get(f"{served.url}/livez", timeout=2).ok

    try:
        wait_for(up, f"syndicate serve with {workers} workers")
    except BaseException:  # even when it did not come up: no server left behind
        served.stop()
        raise
    return served


@pytest.fixture
def serve(redis_server: RedisServer, redis_client: redis.Redis, tmp_path: Path) -> Iterator[Callable[..., Served]]:
    started: list[Served] = []

    def start(workers: int = 1) -> Served:
        started.append(start_serving(redis_server.url, tmp_path, workers))
        return started[-1]

    yield start
    for served in started:
        served.stop()
