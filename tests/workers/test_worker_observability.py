"""A real `syndicate worker` as operators see it: one JSON line per job at INFO, its health check, its own
`/metrics` when given a port, and its stop on SIGTERM (as `docker stop` sends it), logged with what it had in
hand and how that ended."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from rq import Queue, Retry, SimpleWorker
from rq.job import Job, JobStatus

from service.ops.redis_server import RedisServer, free_port
from service.worker.scheduler import QUEUE
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


QUIET = {"SYNDICATE_SWEEP_S": "3600"}
"""No sweep job every half second: a stop meets the worker idle, or with the test's job in hand."""


def stop_lines(log: Path) -> list[dict[str, Any]]:
    return [line for line in json_lines(log) if line["message"].startswith("worker stop")]


def started(worker: subprocess.Popen[bytes], redis_client: redis.Redis, log: Path) -> None:
    """Once the worker waits for jobs, its first sweep done."""

    def idle() -> bool:
        assert worker.poll() is None, log.read_text()
        ours = [w for w in SimpleWorker.all(connection=redis_client) if w.pid == worker.pid]
        return bool(ours) and ours[0].get_state() == "idle" and Queue(QUEUE, connection=redis_client).count == 0

    def swept() -> bool:  # the sweep of this hour's period (SYNDICATE_SWEEP_S), queued as the worker starts
        hour = int(time.time() // 3600)
        found = Job.fetch_many([f"sweep-{hour}", f"sweep-{hour - 1}"], connection=redis_client)
        return any(job is not None and job.get_status() == JobStatus.FINISHED for job in found)

    wait_for(lambda: swept() and idle(), what="the worker to sweep, then wait for jobs")


def stopped_within(worker: subprocess.Popen[bytes], seconds: float) -> float:
    """How long the worker took to exit, which it must do with 0."""
    began = time.monotonic()
    assert worker.wait(timeout=seconds) == 0
    return time.monotonic() - began


Logged = tuple[subprocess.Popen[bytes], Path]


@pytest.fixture
def logged_worker(redis_client: redis.Redis, start_worker, tmp_path: Path) -> Logged:
    """A real worker waiting for jobs, and the file it logs to."""
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        worker = start_worker(environ=QUIET, stdout=out, stderr=subprocess.STDOUT)
    started(worker, redis_client, log)
    return worker, log


def test_an_idle_worker_logs_its_stop_on_sigterm_and_exits_0(logged_worker: Logged) -> None:
    worker, log = logged_worker
    worker.send_signal(signal.SIGTERM)  # the worker alone, as `docker stop` signals a container's first process
    stopped_within(worker, 10)
    stopping, done = stop_lines(log)
    assert stopping["message"] == "worker stopping on SIGTERM: idle"
    assert stopping["level"] == "INFO" and stopping["signal"] == "SIGTERM" and stopping["job_id"] is None
    assert done["message"] == "worker stopped: idle" and done["outcome"] == "idle" and done["pid"] == worker.pid


def test_a_worker_stopped_with_a_job_in_hand_finishes_it_first_and_says_so(
    redis_client: redis.Redis, logged_worker: Logged
) -> None:
    worker, log = logged_worker
    job = Queue(QUEUE, connection=redis_client).enqueue("time.sleep", 2, job_id="nap")
    wait_for(lambda: job.get_status() == JobStatus.STARTED, what="the worker to take the job")
    worker.send_signal(signal.SIGTERM)
    [stopping] = wait_for(lambda: stop_lines(log), what="the stop's first line")
    assert (
        stopping["message"]
        == "worker stopping on SIGTERM once job nap (time.sleep(2)) is done; a second signal interrupts it"
    )
    assert stopping["job_id"] == "nap" and stopping["function"] == "time.sleep" and stopping["queue"] == QUEUE
    stopped_within(worker, 10)
    assert job.get_status() == JobStatus.FINISHED, "RQ's warm shutdown: the job in hand is done before the worker stops"
    assert stop_lines(log)[1:] == [stop_lines(log)[1]]
    done = stop_lines(log)[1]
    assert done["message"] == "worker stopped: job nap (time.sleep(2)) finished"
    assert done["outcome"] == "finished" and done["job_id"] == "nap"


def test_a_second_sigterm_interrupts_the_job_in_hand_which_goes_back_to_its_queue(
    redis_client: redis.Redis, logged_worker: Logged
) -> None:
    worker, log = logged_worker
    job = Queue(QUEUE, connection=redis_client).enqueue("time.sleep", 60, job_id="long-nap", retry=Retry(max=1))
    wait_for(lambda: job.get_status() == JobStatus.STARTED, what="the worker to take the job")
    worker.send_signal(signal.SIGTERM)
    wait_for(lambda: stop_lines(log), what="the stop's first line")
    time.sleep(1.2)  # RQ takes a second signal within a second for the same one, sent twice
    worker.send_signal(signal.SIGTERM)
    assert stopped_within(worker, 10) < 5, "not the minute the job would have taken"
    assert job.get_status() == JobStatus.QUEUED, "handed back: another worker takes it up (its one retry)"
    stopping, interrupting, done = stop_lines(log)
    assert stopping["job_id"] == "long-nap" and stopping["level"] == "INFO"
    assert (
        interrupting["message"]
        == "worker stopping at once on a second SIGTERM: interrupting job long-nap (time.sleep(60))"
    )
    assert interrupting["level"] == "WARNING" and interrupting["job_id"] == "long-nap"
    assert done["message"] == "worker stopped: job long-nap (time.sleep(60)) handed back"
    assert done["outcome"] == "handed back"
