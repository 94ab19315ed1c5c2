"""Real worker processes (`syndicate worker`) against the test session's real Redis."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from service.ops.redis_server import RedisServer
from tests.client import ApiClient, Table


@pytest.fixture
def start_worker(redis_server: RedisServer, redis_client) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """Start `syndicate worker` on the session's Redis, or on the Redis at `redis_url`; `environ` adds to its
    environment."""
    started: list[subprocess.Popen[bytes]] = []
    env = {
        **os.environ,
        "REDIS_URL": redis_server.url,
        "SYNDICATE_SWEEP_S": "0.5",
        "SYNDICATE_STALL_S": "1",
        "SYNDICATE_BOT_PACE_S": "0",  # all-bot games as fast as the worker goes; tests/workers/test_flood.py paces them
    }

    def start(
        redis_url: str | None = None, environ: dict[str, str] | None = None, **popen: Any
    ) -> subprocess.Popen[bytes]:
        # A session of its own, so the worker and the scheduler it forks can be stopped (or killed) together.
        args = [sys.executable, "-m", "service.ops.cli", "worker"]
        process_env = {**env, "REDIS_URL": redis_url or redis_server.url, **(environ or {})}
        process = subprocess.Popen(args, env=process_env, start_new_session=True, **popen)
        started.append(process)
        return process

    yield start
    for process in started:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)


def tallied(api: ApiClient, table: Table) -> bool:
    response = api.result(table)
    return response.status_code == 200 and response.json["tallied"]
