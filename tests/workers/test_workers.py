"""Real worker processes (`syndicate worker`) against the test's real Redis."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from service.redis_server import RedisServer
from tests.client import ApiClient, Table


@pytest.fixture
def start_worker(redis_server: RedisServer, redis_client) -> Iterator[Callable[[], subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    env = {**os.environ, "REDIS_URL": redis_server.url, "SYNDICATE_SWEEP_S": "0.5", "SYNDICATE_STALL_S": "1"}

    def start() -> subprocess.Popen[bytes]:
        process = subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=env)
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def wait_for(condition: Callable[[], Any], timeout_s: float = 60, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout_s
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def tallied(api: ApiClient, table: Table) -> bool:
    response = api.result(table)
    return response.status_code == 200 and response.json["tallied"]


@pytest.mark.parametrize("players", [3, 6])
def test_an_all_bot_game_plays_to_its_end_and_is_tallied(api: ApiClient, start_worker, players: int) -> None:
    start_worker()
    table = api.create(seats=[{"bot": "random"}] * players)
    wait_for(lambda: tallied(api, table), what="the tally")
    events = api.events(table)
    assert events[-1]["type"] == "game_tallied"
    assert events[-1]["payload"]["result"]["scores"] == api.result(table).json["scores"]
    assert api.http.get(f"/v1/games/{table.id}/audit").json["ok"]
    board = api.http.get("/v1/leaderboard?ruleset=twelve-gangsters").json["players"]
    assert board[0]["player"] == "bot:random" and board[0]["games"] == players


def test_a_human_seat_that_misses_a_short_deadline_is_played_for(api: ApiClient, start_worker) -> None:
    start_worker()
    table = api.create(seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}], options={"move_deadline_s": 1})
    wait_for(lambda: api.game(table)["state"]["round"] >= 3, what="two rounds played for Ann")
    ann = [e for e in api.events(table, seat=0) if e["type"] == "twelve_gangsters.gangster_played" and e["seat"] == 0]
    assert len(ann) >= 2 and all(e["command"]["by"] == "deadline" for e in ann)
    assert api.game(table, 0)["you"]["legal_moves"] or api.game(table)["status"] == "finished"


def test_a_human_who_moves_in_time_is_not_played_for(api: ApiClient, start_worker) -> None:
    start_worker()
    table = api.create(seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}], options={"move_deadline_s": 3})
    assert api.play(table, 0, 12).status_code == 200
    wait_for(lambda: api.game(table)["state"]["round"] == 2, what="the bots to finish round 1")
    ann = [e for e in api.events(table, seat=0) if e["type"] == "twelve_gangsters.gangster_played" and e["seat"] == 0]
    assert [e["payload"]["card"] for e in ann] == [12] and "by" not in ann[0]["command"]


def test_a_worker_killed_mid_game_does_not_stall_it(api: ApiClient, start_worker) -> None:
    first = start_worker()
    table = api.create(seats=[{"bot": "smart"}, {"bot": "random"}, {"bot": "random"}, {"bot": "random"}])
    wait_for(lambda: api.game(table)["version"] > 15, what="the game to get going")
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    stopped_at = api.game(table)["version"]
    start_worker()
    wait_for(lambda: tallied(api, table), what="the game to finish after the kill")
    assert api.game(table)["version"] > stopped_at
    assert api.http.get(f"/v1/games/{table.id}/audit").json["ok"]
