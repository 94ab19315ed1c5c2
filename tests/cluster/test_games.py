"""Whole games of every ruleset on a 3-master Redis Cluster, through two API processes and two workers."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import requests
from redis.cluster import RedisCluster

from events import keys
from projections.views import VIEWS
from service.bootstrap import bootstrap
from service.config import Config
from service.http import ratelimit
from service.http.app import create_app
from service.ops.cluster import LocalCluster, deployment_env
from service.ops.redis_server import RedisServer
from tests.client import ApiClient
from tests.players.helpers import bearer
from tests.players.helpers import create as create_as
from tests.service.read_models import read_models
from tests.waiting import wait_for

RULESETS = [("twelve-gangsters", 4), ("cash-n-guns", 5), ("mobsters", 3)]


def create(url: str, ruleset: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    response = requests.post(f"{url}/v1/games", json={"ruleset": ruleset, "seats": seats}, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


def tallied(url: str, game_id: str) -> bool:
    response = requests.get(f"{url}/v1/games/{game_id}/result", timeout=10)
    return response.status_code == 200 and response.json()["tallied"]


def games_per_master(cluster: LocalCluster, client: RedisCluster) -> dict[int, set[str]]:
    """Which games' streams each master holds, asked of each master alone."""
    found: dict[int, set[str]] = {}
    for node in client.get_primaries():
        streams = client.get_redis_connection(node).scan_iter(match=keys.GAME_STREAMS, count=1000)
        found[int(node.port)] = {keys.game_id_of_stream(s.decode()) for s in streams}
    return found


def test_bot_games_of_every_ruleset_are_played_tallied_audited_and_rebuilt(
    deploy: Callable[..., list[str]], cluster: LocalCluster, cluster_client: RedisCluster, queue_server: RedisServer
) -> None:
    urls = deploy(apis=2, workers=2)
    games = []
    for i, (ruleset, players) in enumerate(RULESETS * 2):
        seats = [{"bot": "smart"}, *[{"bot": "random"}] * (players - 1)]
        games.append(create(urls[i % 2], ruleset, seats)["game_id"])
    # Read through the other process than the one that created it: both serve every game.
    for i, game_id in enumerate(games):
        wait_for(lambda g=game_id, i=i: tallied(urls[(i + 1) % 2], g), timeout_s=90, what=f"game {game_id}'s tally")
    for i, game_id in enumerate(games):
        report = requests.get(f"{urls[i % 2]}/v1/games/{game_id}/audit", timeout=30).json()
        assert report["ok"], report["problems"]
    lobby = requests.get(f"{urls[0]}/v1/games?status=finished&page_size=50", timeout=10).json()
    assert {g["game_id"] for g in lobby} == set(games)
    board = requests.get(f"{urls[1]}/v1/leaderboard?ruleset=mobsters", timeout=10).json()
    # Two 3-seat Mobsters games of one smart and two random bots: each rates bot:smart and bot:random once.
    assert {row["bot"]: row["games"] for row in board["players"]} == {"smart": 2, "random": 2}

    live = read_models(cluster_client)
    config = dataclasses.replace(Config(), redis_url=cluster.url, redis_cluster=True, queue_url=queue_server.url)
    projections = bootstrap(config, cluster_client).projections
    assert projections is not None
    assert projections.drop() > len(games)  # every read model, on every master
    assert read_models(cluster_client) == {}
    env = deployment_env(cluster.url, queue_server.url)
    rebuilt = subprocess.run(
        [sys.executable, "-m", "service.ops.cli", "projections", "rebuild"], env=env, capture_output=True, text=True
    )
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert f"rebuilt the read models of {len(games)} games" in rebuilt.stdout
    assert read_models(cluster_client) == live  # dropped on every master, and replayed from every master's logs


def test_games_spread_over_every_master_and_each_game_keeps_to_one(
    deploy: Callable[..., list[str]], cluster: LocalCluster, cluster_client: RedisCluster
) -> None:
    [url] = deploy(apis=1, workers=0)
    games: list[str] = []
    while len(games) < 60 and not all(games_per_master(cluster, cluster_client).values()):
        games.append(create(url, "twelve-gangsters", [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}])["game_id"])
    # The rate limit counted every create on the cluster too (its storage is `redis+cluster://`): the API process
    # adds what it counted in memory with the first request that asks once its count has aged.
    time.sleep(ratelimit.SYNC_S)
    games.append(create(url, "twelve-gangsters", [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}])["game_id"])
    held = games_per_master(cluster, cluster_client)
    assert len(held) == 3 and all(held.values()), held
    [counter] = list(cluster_client.scan_iter(match="*syndicate:rate*"))
    assert int(cluster_client.get(counter)) == len(games), counter
    for game_id in games:
        node = cluster_client.get_node_from_key(keys.events(game_id))
        assert game_id in held[int(node.port)]
        own = cluster_client.get_redis_connection(node)  # that master alone: no redirection
        assert own.exists(keys.snapshot(game_id), keys.tokens(game_id), VIEWS.key(game_id)) == 3


def test_a_live_feed_follows_a_game_on_the_cluster(
    deploy: Callable[..., list[str]], cluster_client: RedisCluster
) -> None:
    first, second = deploy(apis=2, workers=1)
    game = create(first, "twelve-gangsters", [{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}])
    token = game["tokens"][0]["token"]
    ticket = requests.post(
        f"{second}/v1/games/{game['game_id']}/stream-tickets", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert ticket.status_code == 201, ticket.text
    stream = requests.get(
        f"{second}/v1/games/{game['game_id']}/events/stream?ticket={ticket.json()['ticket']}", stream=True, timeout=30
    )
    assert stream.status_code == 200
    lines = stream.iter_lines(decode_unicode=True)
    for card in range(1, 13):
        move = {"type": "play", "card": card}
        auth = {"Authorization": f"Bearer {token}"}
        assert requests.post(f"{first}/v1/games/{game['game_id']}/moves", json=move, headers=auth, timeout=10).ok
        assert seen(lines, "twelve_gangsters.round_revealed"), f"round {card} revealed"
    assert seen(lines, "game_tallied")


def seen(lines: Any, kind: str) -> bool:
    """Read the feed up to the next event of this kind."""
    return any(line == f"event: {kind}" for line in lines)  # stops at the first: the rest stays unread


def test_a_players_moves_on_a_cluster_check_its_token_by_a_read_first(
    cluster: LocalCluster, cluster_client: RedisCluster, queue_server: RedisServer
) -> None:
    """A Redis Cluster keeps a player's state in another slot than its games: the save cannot check the token, so the
    move reads the player first, and a revoked token moves nothing."""
    config = dataclasses.replace(Config(), redis_url=cluster.url, redis_cluster=True, queue_url=queue_server.url)
    services = bootstrap(config, cluster_client)
    assert not services.repository.one_server
    api = ApiClient(create_app(config, services, TESTING=True).test_client())
    ann = api.register("Ann")
    second = api.http.post("/v1/players/me/tokens", headers=bearer(ann)).json["token"]
    table = create_as(api, ann, [{"player": "me"}, {"name": "Bob"}, {"name": "Cat"}])
    assert (
        api.http.post(f"/v1/games/{table.id}/moves", json={"type": "play", "card": 3}, headers=bearer(ann)).status_code
        == 200
    )
    assert api.http.delete(f"/v1/players/me/tokens/{ann.split('.')[1]}", headers=bearer(second)).status_code == 204
    version = api.game(table)["version"]
    moved = api.http.post(f"/v1/games/{table.id}/moves", json={"type": "play", "card": 4}, headers=bearer(ann))
    assert moved.status_code == 401 and moved.json["code"] == "invalid_token"
    assert api.game(table)["version"] == version
