"""`syndicate run` keeps the service running through faults: its worker, its gunicorn and its own Redis are
each SIGKILLed in turn, and each time the service comes back and a game against the house still finishes."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from service.ops.redis_server import free_port
from tests.client import metric_value
from tests.waiting import wait_for


@dataclass
class Service:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def pids(self, child: str) -> list[int]:
        """Every pid the run log says `child` was started with, oldest first."""
        return [int(pid) for pid in re.findall(rf"{child} started \(pid (\d+)\)", self.log_text())]


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env |= {
        "SYNDICATE_PORT": str(port),
        "SYNDICATE_REDIS_PORT": str(free_port()),
        "SYNDICATE_DATA_DIR": str(tmp_path / "var"),
        "SYNDICATE_WEB_WORKERS": "1",
        "SYNDICATE_SWEEP_S": "0.5",
        "SYNDICATE_STALL_S": "1",
        "SYNDICATE_BOT_PACE_S": "0",  # its bot games as fast as the worker goes
    }
    log = tmp_path / "run.log"
    with log.open("wb") as out:
        args = [sys.executable, "-m", "service.ops.cli", "run"]
        process = subprocess.Popen(args, env=env, cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT)
    running = Service(f"http://127.0.0.1:{port}", process, log)
    try:
        wait_for(lambda: ready(running), "syndicate run to come up")
        yield running
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def ready(service: Service) -> bool:
    assert service.process.poll() is None, "syndicate run stopped:\n" + service.log_text()
    return requests.get(f"{service.url}/readyz", timeout=2).status_code == 200


def live(service: Service) -> bool:
    assert service.process.poll() is None, "syndicate run stopped:\n" + service.log_text()
    return requests.get(f"{service.url}/livez", timeout=2).json() == {"status": "ok"}


def a_bot_game_finishes(service: Service) -> str:
    """Create a game of three bots (their turns are played by the worker) and wait for its tally."""
    seats = [{"bot": "random"}] * 3
    created = requests.post(f"{service.url}/v1/games", json={"ruleset": "twelve-gangsters", "seats": seats}, timeout=5)
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]

    def tallied() -> bool:
        result = requests.get(f"{service.url}/v1/games/{game_id}/result", timeout=5)
        return result.status_code == 200 and result.json()["tallied"]

    wait_for(tallied, f"game {game_id} to be played and tallied")
    return game_id


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def kill(service: Service, child: str) -> None:
    """SIGKILL the child's newest process; wait for the run log to say so and for its successor."""
    [*_, pid] = service.pids(child)
    os.kill(pid, signal.SIGKILL)
    wait_for(lambda: service.pids(child)[-1] != pid, f"{child} to be started again")
    said = rf"{child} \(pid {pid}\) died \(killed by SIGKILL\); restarting it in [\d.]+ s"
    assert re.search(said, service.log_text()), service.log_text()


def test_whatever_dies_is_restarted_and_games_go_on(service: Service) -> None:
    first_game = a_bot_game_finishes(service)
    # The worker counts its bot turns where gunicorn's workers count theirs: the API's /metrics has them.
    metrics = requests.get(f"{service.url}/metrics", timeout=5).text
    assert metric_value(metrics, "syndicate_bot_turns_total") == 36, "12 rounds of 3 bots"
    for child in ("worker", "gunicorn", "redis-server"):
        kill(service, child)
        wait_for(lambda: live(service), f"the service to be live after {child} died")
        wait_for(lambda: ready(service), f"the service to be ready after {child} died")
        a_bot_game_finishes(service)
    # Our Redis came back on its port with its data (AOF): the first game is still there, finished.
    assert requests.get(f"{service.url}/v1/games/{first_game}", timeout=5).json()["status"] == "finished"

    service.process.send_signal(signal.SIGTERM)
    assert service.process.wait(timeout=30) == 0
    started = [pid for child in ("worker", "gunicorn", "redis-server") for pid in service.pids(child)]
    assert not [pid for pid in started if alive(pid)], "every child is stopped"
