"""A real `syndicate worker` as operators see it: one JSON line per job at INFO, its health check, and its
own `/metrics` when given a port."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import requests

from service.ops.redis_server import RedisServer, free_port
from tests.client import ApiClient, metric_value
from tests.waiting import wait_for
from tests.workers.conftest import tallied


def json_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.startswith("{")]


def check(redis_server: RedisServer) -> int:
    env = {**os.environ, "REDIS_URL": redis_server.url}
    return subprocess.run(
        [sys.executable, "-m", "service.ops.cli", "worker", "--check"], env=env, timeout=30
    ).returncode


def test_the_worker_logs_each_job_at_info_and_serves_its_metrics(api: ApiClient, start_worker, tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        start_worker(environ={"SYNDICATE_WORKER_METRICS_PORT": str(port)}, stdout=out, stderr=subprocess.STDOUT)
    table = api.create(seats=[{"bot": "random"}] * 3)
    wait_for(lambda: tallied(api, table), what="the tally")

    # A game has one tally job pending at most; the sweep (every 0.5 s here) queues another only if it is lost.
    lines = wait_for(lambda: [x for x in json_lines(log) if x.get("job") == "tally"], what="the tally's line")
    [tally, *_] = lines
    assert tally["level"] == "INFO" and tally["logger"] == "syndicate.jobs"
    assert tally["game_id"] == table.id and tally["outcome"] == "tallied"
    assert tally["job_id"].startswith(f"tally-{table.id}") and tally["duration_ms"] >= 0
    bot_lines = [x for x in json_lines(log) if x.get("job") == "bots_turn" and x["outcome"] == "played for 3 seats"]
    assert len(bot_lines) == 12 and {x["game_id"] for x in bot_lines} == {table.id}  # a turn a round

    metrics = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    assert metric_value(metrics, "syndicate_bot_turns_total") == 36


def test_the_worker_check_passes_while_a_worker_runs_here(redis_server: RedisServer, start_worker) -> None:
    assert check(redis_server) == 1, "no worker yet"
    worker = start_worker()
    wait_for(lambda: check(redis_server) == 0, what="the worker to register")
    worker.terminate()
    worker.wait(timeout=30)
    assert check(redis_server) == 1
