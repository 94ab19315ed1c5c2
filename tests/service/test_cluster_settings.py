"""The settings of a deployment on Redis Cluster and of replicated writes, checked where they are read."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys

import pytest
import redis

from events import keys
from service.config import Config, ConfigError
from service.http.app import create_app
from tests.client import ApiClient, assert_problem


def test_cluster_mode_without_a_queue_redis_is_refused_at_start_up() -> None:
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:1/0", "SYNDICATE_REDIS_CLUSTER": "1"}
    env.pop("SYNDICATE_QUEUE_URL", None)
    for command in (["worker"], ["projections", "rebuild"], ["run"]):
        started = subprocess.run(
            [sys.executable, "-m", "service.ops.cli", *command], env=env, capture_output=True, text=True, timeout=60
        )
        assert started.returncode == 2, started.stderr
        assert "SYNDICATE_QUEUE_URL is not set" in started.stderr
    config = dataclasses.replace(Config(), redis_url="redis://127.0.0.1:1/0", redis_cluster=True, queue_url=None)
    with pytest.raises(ConfigError, match="RQ does not speak Redis Cluster"):
        create_app(config)


def test_the_queues_default_to_the_games_redis_outside_cluster_mode() -> None:
    config = dataclasses.replace(Config(), redis_url="redis://127.0.0.1:7001/0", queue_url=None)
    queue = config.queue_redis().connection_pool.connection_kwargs
    assert (queue["port"], config.rate_limit_storage) == (7001, "redis://127.0.0.1:7001/0")
    named = dataclasses.replace(config, queue_url="redis://127.0.0.1:7002/0")
    assert named.queue_redis().connection_pool.connection_kwargs["port"] == 7002


def test_in_cluster_mode_the_rate_limit_counts_on_the_cluster() -> None:
    config = dataclasses.replace(Config(), redis_url="redis://10.0.0.5:7000/0", redis_cluster=True)
    assert config.rate_limit_storage == "redis+cluster://10.0.0.5:7000"


def test_without_the_replicas_asked_for_a_write_is_answered_503_not_replicated(
    config: Config, redis_client: redis.Redis
) -> None:
    # The test Redis has no replica: no write can be confirmed by one.
    api = ApiClient(create_app(dataclasses.replace(config, min_replicas=1, replica_timeout_ms=50)).test_client())
    response = api.http.post("/v1/games", json={"ruleset": "twelve-gangsters", "seats": [{"name": "A"}] * 3})
    assert_problem(response, 503, "not_replicated")
    assert response.headers["Retry-After"] == "1"
    assert redis_client.keys("syndicate:game:*:events")  # it stands on the master alone: it may or may not last

    plain = ApiClient(create_app(config).test_client())
    table = plain.create(players=3)
    answer = api.play(table, 0, 3, headers={"Idempotency-Key": "k"})
    assert_problem(answer, 503, "not_replicated")
    assert_problem(api.play(table, 0, 3, headers={"Idempotency-Key": "k"}), 503, "not_replicated")  # the replay too
    assert plain.play(table, 0, 3, headers={"Idempotency-Key": "k"}).status_code == 200  # the first answer, kept
    assert plain.version(table) == table.body["version"] + 1
    auth = plain.auth(table, 1)
    assert_problem(api.http.post(f"/v1/games/{table.id}/stream-tickets", headers=auth), 503, "not_replicated")
    # A player's change hands out a token: it too waits for the replicas.
    assert_problem(api.http.post("/v1/players", json={"name": "Zed"}), 503, "not_replicated")
    token = plain.register("Yan")
    mine = {"Authorization": f"Bearer {token}"}
    assert_problem(api.http.post("/v1/players/me/tokens", headers=mine), 503, "not_replicated")
    assert_problem(api.http.post("/v1/players/me/stream-tickets", headers=mine), 503, "not_replicated")


def test_a_registration_whose_name_claim_is_not_replicated_writes_no_player_and_frees_the_name_in_time(
    config: Config, redis_client: redis.Redis
) -> None:
    # The name is claimed first: a claim that a failover could lose (and another registration then take) must
    # not be answered, nor followed by a player holding it that nobody has a token of.
    api = ApiClient(create_app(dataclasses.replace(config, min_replicas=1, replica_timeout_ms=50)).test_client())
    assert_problem(api.http.post("/v1/players", json={"name": "Zed"}), 503, "not_replicated")
    assert not redis_client.keys(keys.player_state("*"))
    claimant = redis_client.hget(keys.player_names(), "zed")
    assert claimant is not None  # it stands on the master alone, and lapses like a registration that died
    redis_client.delete(keys.name_claim_pending(claimant.decode()))  # its time has run out
    plain = ApiClient(create_app(config).test_client())
    assert plain.http.post("/v1/players", json={"name": "Zed"}).status_code == 201


def test_a_worker_waits_for_a_redis_cluster_that_does_not_answer_yet() -> None:
    env = {
        **os.environ,
        "REDIS_URL": "redis://127.0.0.1:1/0",
        "SYNDICATE_REDIS_CLUSTER": "1",
        "SYNDICATE_QUEUE_URL": "redis://127.0.0.1:1/0",
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "service.ops.cli", "worker"], env=env, stderr=subprocess.PIPE, text=True
    )
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            worker.wait(timeout=3)  # still there, trying again
    finally:
        worker.terminate()
        _, err = worker.communicate(timeout=10)
    assert "the games' Redis Cluster does not answer" in err and "trying again" in err
