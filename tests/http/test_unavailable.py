"""With Redis stopped, every route that needs it answers 503 `unavailable` with Retry-After, never 500;
the routes that do not need it (liveness, the catalogue, the docs, the metrics) keep answering; nothing changes; and
once Redis is back the same app answers again."""

from __future__ import annotations

import dataclasses
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from service.config import REDIS_SOCKET_TIMEOUT_S, Config
from service.http import ratelimit
from service.http.app import create_app
from service.ops.redis_server import RedisServer, free_port
from tests.client import ApiClient, Table, assert_problem

Request = tuple[str, str, dict[str, Any]]


def needing_redis(table: Table) -> dict[tuple[str, str], Request]:
    """A request for each route and method that reads or writes Redis: (rule, method) → (method, url, options)."""
    token = {"Authorization": f"Bearer {table.tokens[0]}"}
    player = {"Authorization": "Bearer 0123456789abcdef.abcd0123.secret"}
    game = f"/v1/games/{table.id}"
    create = {"json": {"ruleset": "twelve-gangsters", "seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}]}}
    requests = [
        ("GET", "/v1/games", {}),
        ("POST", "/v1/games", create),
        ("GET", game, {"headers": token}),
        ("POST", f"{game}/join", {"json": {"name": "Late"}}),
        ("POST", f"{game}/moves", {"json": {"type": "play", "card": 1}, "headers": token}),
        ("GET", f"{game}/events", {"headers": {"Accept": "application/x-ndjson"}}),
        ("GET", f"{game}/events/stream", {}),
        ("POST", f"{game}/stream-tickets", {"headers": token}),
        ("GET", f"{game}/states/1", {}),
        ("GET", f"{game}/audit", {}),
        ("GET", f"{game}/result", {}),
        ("GET", f"{game}/review", {}),
        ("GET", "/v1/leaderboard?ruleset=twelve-gangsters", {}),
        ("GET", "/v1/rulesets", {}),  # with each bot kind's rating
        ("GET", "/readyz", {}),
        ("POST", f"{game}/leave", {"headers": token}),
        ("POST", f"{game}/resign", {"headers": token}),
        ("POST", f"{game}/auto-pass", {"headers": token, "json": {"decisions": []}}),
        ("POST", f"{game}/abort", {"headers": token}),
        ("POST", f"{game}/start-with-bots", {"headers": token}),
        ("POST", f"{game}/rematch", {"headers": token}),
        ("POST", "/v1/quick-match", {"json": {"ruleset": "twelve-gangsters", "seats": 3}, "headers": player}),
        ("POST", "/v1/players", {"json": {"name": "Zed"}}),
        ("GET", "/v1/players/me", {"headers": player}),
        ("POST", "/v1/players/me/tokens", {"headers": player}),
        ("DELETE", "/v1/players/me/tokens/abcd0123", {"headers": player}),
        ("GET", "/v1/players/me/games", {"headers": player}),
        ("POST", "/v1/players/me/stream-tickets", {"headers": player}),
        ("GET", "/v1/players/me/events/stream", {"headers": player}),
        ("GET", "/v1/players/0123456789abcdef", {}),
    ]
    rule = {
        game: "/v1/games/<game_id>",
        f"{game}/states/1": "/v1/games/<game_id>/states/<version:version>",
        "/v1/leaderboard?ruleset=twelve-gangsters": "/v1/leaderboard",
        "/v1/players/me/tokens/abcd0123": "/v1/players/me/tokens/<token_id>",
        "/v1/players/0123456789abcdef": "/v1/players/<player_id>",
    }
    return {(rule.get(url, url.replace(game, "/v1/games/<game_id>")), method): (method, url, options)
            for method, url, options in requests}  # fmt: skip


WITHOUT_REDIS = {
    "/livez": 200,
    "/v1/rulesets/mobsters/cards": 200,
    "/openapi.json": 200,
    "/docs": 200,
    "/docs/assets/swagger-ui-bundle.js": 200,
    "/play": 200,
    "/play/static/app.js": 200,
    "/healthz": 503,
    "/metrics": 200,
}
"""Routes that answer without Redis: the card catalogue, the docs and the web client's page are code; /healthz keeps
its own body; the metrics are the processes' own (the queue's depth is left out while its Redis is away)."""
RULE_OF = {
    "/v1/rulesets/mobsters/cards": "/v1/rulesets/<ruleset_id>/cards",
    "/docs/assets/swagger-ui-bundle.js": "/docs/assets/<path:filename>",
    "/play/static/app.js": "/play/static/<path:filename>",
}
"""The route of each URL above that is not its own route."""


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path, free_port(), fsync="everysec").start()
    yield server
    server.stop()


@pytest.fixture
def app_on_own_redis(own_redis: RedisServer) -> Flask:
    # The rate limit is kept in the same Redis: it must fail open, not turn the outage into a 500.
    config = dataclasses.replace(Config(), redis_url=own_redis.url, rate_limit="1000 per minute")
    return create_app(config, TESTING=True)


def test_the_outage_list_covers_every_route(app_on_own_redis: Flask) -> None:
    routes = {
        (rule.rule, method)
        for rule in app_on_own_redis.url_map.iter_rules()
        if rule.endpoint != "static"
        for method in rule.methods - {"HEAD", "OPTIONS"}
    }
    without = {(RULE_OF.get(url, url), "GET") for url in WITHOUT_REDIS}
    listed = set(needing_redis(Table("0123456789abcdef", {0: "t"}))) | without
    assert routes == listed, "a new route: say here how it answers without Redis"


def test_with_redis_stopped_every_route_answers_503_unavailable_and_liveness_200(
    app_on_own_redis: Flask, own_redis: RedisServer
) -> None:
    api = ApiClient(app_on_own_redis.test_client())
    table = api.create(players=3, options={"first_boss": 0})
    before = api.game(table, 0)
    own_redis.stop()

    for route, (method, url, options) in needing_redis(table).items():
        response = api.http.open(url, method=method, **options)
        assert_problem(response, 503, "unavailable")
        assert 1 <= int(response.headers["Retry-After"]) <= 10, route
    for url, status in WITHOUT_REDIS.items():
        assert api.http.get(url).status_code == status, url
    assert api.http.get("/livez").json == {"status": "ok"}

    own_redis.start()  # the same port and data: the app's connections come back on their own
    assert api.http.get("/readyz").status_code == 200
    assert api.game(table, 0) == before, "a refused request changed nothing"
    assert api.play(table, 0, 1).status_code == 200


def test_a_redis_gone_silent_costs_a_request_seconds_then_503_unavailable(
    app_on_own_redis: Flask, own_redis: RedisServer
) -> None:
    api = ApiClient(app_on_own_redis.test_client())
    table = api.create(players=3, options={"first_boss": 0})
    before = api.version(table)
    key = {"Idempotency-Key": "silent"}
    assert own_redis.process is not None
    own_redis.process.send_signal(signal.SIGSTOP)  # it holds its connections open and answers nothing
    try:
        asked = time.monotonic()
        for response in (api.http.get(f"/v1/games/{table.id}"), api.play(table, 0, 1, headers=key)):
            assert_problem(response, 503, "unavailable")
        waited = time.monotonic() - asked
        assert waited < 2 * 1.5 * (ratelimit.TIMEOUT_S + REDIS_SOCKET_TIMEOUT_S), "each request waited its timeouts"
    finally:
        own_redis.process.send_signal(signal.SIGCONT)
    # The move was sent before the silence was noticed, so it may have landed: the retry says which, once.
    retried = api.play(table, 0, 1, headers=key)
    assert retried.status_code == 200, retried.json
    assert api.version(table) == retried.json["version"] == before + 1


def test_a_redis_that_answers_makes_the_service_ready(api: ApiClient) -> None:
    response = api.http.get("/readyz")
    assert response.status_code == 200
    assert response.json == {"status": "ok", "redis": "ok", "queue": "ok"}


def test_liveness_touches_neither_redis_nor_the_rate_limit(config: Config) -> None:
    dead = dataclasses.replace(config, redis_url=f"redis://127.0.0.1:{free_port()}/0", rate_limit="1 per minute")
    http = create_app(dead, TESTING=True).test_client()
    for _ in range(3):
        response = http.get("/livez")
        assert response.status_code == 200
        assert response.json == {"status": "ok"}
