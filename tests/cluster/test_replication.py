"""SYNDICATE_MIN_REPLICAS on the cluster: a write its replica does not confirm in time is answered 503
`not_replicated`, and the retry with the same Idempotency-Key gets the first answer once the replica has it."""

from __future__ import annotations

import os
import signal
from collections.abc import Callable

import redis
import requests
from redis.cluster import RedisCluster

from events import keys
from service.ops.cluster import LocalCluster


def replica_of(cluster: LocalCluster, master: int) -> int:
    return int(redis.Redis(port=master).info("replication")["slave0"]["port"])


def test_a_move_its_replica_does_not_confirm_is_refused_then_replayed_whole(
    deploy: Callable[..., list[str]], cluster: LocalCluster, cluster_client: RedisCluster
) -> None:
    first, second = deploy(apis=2, workers=0, SYNDICATE_MIN_REPLICAS="1", SYNDICATE_REPLICA_TIMEOUT_MS="300")
    seats = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]
    created = requests.post(f"{first}/v1/games", json={"ruleset": "twelve-gangsters", "seats": seats}, timeout=10)
    assert created.status_code == 201
    game_id, token = created.json()["game_id"], created.json()["tokens"][0]["token"]
    before = cluster_client.xlen(keys.events(game_id))
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": "first-card"}
    move = {"type": "play", "card": 5}

    master = int(cluster_client.get_node_from_key(keys.events(game_id)).port)
    replica = cluster.node(replica_of(cluster, master)).process
    assert replica is not None
    os.kill(replica.pid, signal.SIGSTOP)  # shorter than the node timeout: no failover, only a lagging replica
    try:
        refused = requests.post(f"{first}/v1/games/{game_id}/moves", json=move, headers=headers, timeout=10)
        replayed_too_soon = requests.post(f"{second}/v1/games/{game_id}/moves", json=move, headers=headers, timeout=10)
    finally:
        os.kill(replica.pid, signal.SIGCONT)
    for answer in (refused, replayed_too_soon):
        assert answer.status_code == 503
        assert answer.headers["Content-Type"] == "application/problem+json"
        assert answer.json()["code"] == "not_replicated"
        assert answer.headers["Retry-After"] == "1"

    retried = requests.post(f"{second}/v1/games/{game_id}/moves", json=move, headers=headers, timeout=10)
    assert retried.status_code == 200, retried.text
    assert retried.json()["version"] == before + 1
    assert cluster_client.xlen(keys.events(game_id)) == before + 1  # the move landed once, and only once
