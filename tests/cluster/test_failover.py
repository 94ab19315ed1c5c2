"""A master killed mid-game: its replica takes over, and with SYNDICATE_MIN_REPLICAS=1 no move that was answered
2xx is lost. Every player retries what was not answered 2xx with the same Idempotency-Key, as a client must."""

from __future__ import annotations

import itertools
import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from redis.cluster import RedisCluster

from events import keys
from service.ops.cluster import LocalCluster
from tests.cluster.conftest import start_cluster
from tests.waiting import wait_for

GAMES = 6
SEATS = 3
ROUNDS = 12
THINK_S = 0.03
"""A player's pause between moves: a game lasts a few seconds, so the master dies in the middle of it."""


@pytest.fixture
def own_cluster(tmp_path: Path) -> Any:
    """A cluster of the test's own: it loses a master."""
    found = start_cluster(tmp_path)
    yield found
    found.stop()


class Player:
    """Plays its seats of one game to the end, retrying each move until it is answered 2xx."""

    def __init__(self, urls: list[str], game: dict[str, Any]) -> None:
        self.urls = itertools.cycle(urls)
        self.game_id = game["game_id"]
        self.tokens = {t["seat"]: t["token"] for t in game["tokens"]}
        self.answered: dict[int, str] = {}
        """Version -> hash of every event a 2xx answer reported."""
        self.refused: list[str] = []
        self.failure: BaseException | None = None

    def play(self, deadline: float) -> None:
        try:
            for card in range(1, ROUNDS + 1):
                for seat in range(SEATS):
                    self.move(seat, card, deadline)
        except BaseException as error:  # said by the test, not lost in its thread
            self.failure = error

    def move(self, seat: int, card: int, deadline: float) -> None:
        headers = {"Authorization": f"Bearer {self.tokens[seat]}", "Idempotency-Key": f"{seat}-{card}"}
        while time.monotonic() < deadline:
            url = f"{next(self.urls)}/v1/games/{self.game_id}/moves"
            try:
                response = requests.post(url, json={"type": "play", "card": card}, headers=headers, timeout=10)
            except requests.RequestException as error:
                self.refused.append(type(error).__name__)
                continue
            if response.ok:
                self.answered.update({e["version"]: e["hash"] for e in response.json()["events"]})
                time.sleep(THINK_S)
                return
            assert response.status_code == 503, response.text
            assert response.headers["Retry-After"]
            self.refused.append(response.json()["code"])
            time.sleep(0.1)
        raise AssertionError(f"seat {seat} of {self.game_id} could not play card {card} in time")


def create(urls: list[str]) -> dict[str, Any]:
    seats = [{"name": f"P{i}"} for i in range(SEATS)]
    for url in itertools.islice(itertools.cycle(urls), 200):
        try:
            response = requests.post(
                f"{url}/v1/games", json={"ruleset": "twelve-gangsters", "seats": seats}, timeout=10
            )
        except requests.RequestException:
            continue
        if response.status_code == 201:
            return response.json()
        time.sleep(0.1)
    raise AssertionError("no game could be created")


def test_a_killed_master_loses_no_move_that_was_answered(
    own_cluster: LocalCluster, deploy: Callable[..., list[str]]
) -> None:
    urls = deploy(own_cluster, apis=2, workers=1, SYNDICATE_MIN_REPLICAS="1", SYNDICATE_REPLICA_TIMEOUT_MS="500")
    client = RedisCluster.from_url(own_cluster.url)
    players = [Player(urls, create(urls)) for _ in range(GAMES)]
    deadline = time.monotonic() + 90
    threads = [threading.Thread(target=p.play, args=(deadline,)) for p in players]
    for thread in threads:
        thread.start()

    # Mid-game, the master that holds the most games dies at once.
    wait_for(lambda: sum(len(p.answered) for p in players) > GAMES * 8, timeout_s=60, what="the games to get going")
    by_master: dict[int, int] = {}
    for player in players:
        port = int(client.get_node_from_key(keys.events(player.game_id)).port)
        by_master[port] = by_master.get(port, 0) + 1
    victim = max(by_master, key=lambda port: by_master[port])
    node = own_cluster.node(victim)
    replica = own_cluster.node(int(redis.Redis(port=victim).info("replication")["slave0"]["port"])).process
    assert node.process is not None and replica is not None
    on_victim = [p for p in players if client.get_node_from_key(keys.events(p.game_id)).port == victim]
    # Its replica lags first (paused, for less than the node timeout), so the master dies with writes its
    # replica has not confirmed: none of them may have been answered 2xx (they are answered `not_replicated`,
    # and retried). Whether such a write is then lost depends on what had reached the replica's socket, which
    # on one machine is nearly everything: the WAIT itself is tested in test_replication.py.
    os.kill(replica.pid, signal.SIGSTOP)
    time.sleep(0.7)
    node.process.kill()
    os.kill(replica.pid, signal.SIGCONT)
    node.process.wait()
    answered_before = {p.game_id: len(p.answered) for p in on_victim}
    survivors = [port for port in own_cluster.ports if port != victim]
    wait_for(
        lambda: victim not in own_cluster.masters() and len(own_cluster.masters()) == 3,
        timeout_s=60,
        what="the replica's promotion",
    )
    # Its replica took over. Restarted, the old master comes back as the new one's replica: writes are
    # confirmed again, and the moves refused meanwhile land when retried.
    node.start()
    own_cluster.wait_until_ok(timeout_s=30, ports=[*survivors, victim])

    for thread in threads:
        thread.join()
    for player in players:
        if player.failure:
            raise player.failure
    assert any(len(p.answered) > answered_before[p.game_id] for p in on_victim), "no game was mid-way"
    refused = {code for p in players for code in p.refused}
    assert {"not_replicated", "unavailable"} <= refused, refused
    for player in players:
        log = requests.get(f"{urls[0]}/v1/games/{player.game_id}/events?limit=1000", timeout=10).json()["events"]
        hashes = {e["version"]: e["hash"] for e in log}
        assert all(hashes.get(v) == h for v, h in player.answered.items()), (
            f"an answered move of {player.game_id} is lost"
        )
        assert len(log) >= 1 + SEATS * ROUNDS
        report = requests.get(f"{urls[1]}/v1/games/{player.game_id}/audit", timeout=30).json()
        assert report["ok"], report["problems"]
