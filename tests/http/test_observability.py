"""What operators see: `/metrics` counting what really happened, a request id on every answer and in its log
line, rate limits keyed by the client a trusted proxy saw (and only a trusted one), and readiness that needs
both the games' Redis and the job queue's."""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from collections.abc import Callable

import pytest
import redis
from rq import Queue

from service.application.house import House
from service.application.services import Services
from service.config import Config
from service.http.app import create_app
from service.observability.logs import JsonFormatter
from service.ops.redis_server import free_port
from service.worker import jobs
from service.worker.scheduler import BOT_QUEUE, QUEUE, REVIEW_QUEUE, Scheduler
from tests.client import ApiClient, assert_problem, metric_value

MOVES_ROUTE = "/v1/games/<game_id>/moves"


def metric(api: ApiClient, name: str, **labels: str) -> float:
    return metric_value(api.http.get("/metrics").get_data(as_text=True), name, **labels)


def test_a_move_counts_once_by_ruleset_route_and_latency(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    moves = {"ruleset": "twelve-gangsters", "by": "player"}
    answered = {"route": MOVES_ROUTE, "method": "POST", "status": "200"}
    before = [metric(api, "syndicate_moves_total", **moves), metric(api, "syndicate_http_requests_total", **answered),
              metric(api, "syndicate_move_duration_seconds_count")]  # fmt: skip
    assert api.play(table, 0, 1).status_code == 200
    after = [metric(api, "syndicate_moves_total", **moves), metric(api, "syndicate_http_requests_total", **answered),
             metric(api, "syndicate_move_duration_seconds_count")]  # fmt: skip
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 1]


def test_a_rule_refusal_is_counted_without_its_code_which_may_tell_of_a_hand(api: ApiClient) -> None:
    # /metrics is public: `hand_has_mobster` counted by code would say someone's Mobsters hand holds one.
    table = api.create(players=3, options={"first_boss": 0})
    assert api.play(table, 0, 1).status_code == 200
    code = api.play(table, 0, 1).json["code"]  # a card played already
    before = [metric(api, "syndicate_refusals_total", code=c) for c in ("illegal_move", code)]
    assert code != "illegal_move" and api.play(table, 0, 1).status_code == 409
    after = [metric(api, "syndicate_refusals_total", code=c) for c in ("illegal_move", code)]
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 0]


def test_a_refused_move_counts_as_a_refusal_by_code_and_not_as_a_move(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    moves = metric(api, "syndicate_moves_total", ruleset="twelve-gangsters", by="player")
    refusals = metric(api, "syndicate_refusals_total", code="invalid_token")
    assert_problem(api.http.post(f"/v1/games/{table.id}/moves", json={"type": "play", "card": 1}), 401, "invalid_token")
    assert metric(api, "syndicate_refusals_total", code="invalid_token") == refusals + 1
    assert metric(api, "syndicate_moves_total", ruleset="twelve-gangsters", by="player") == moves


def test_bot_turns_and_deadlines_fired_are_counted_by_the_jobs(
    api: ApiClient, house: House, workshop: jobs.Workshop, drain
) -> None:
    bots = {"ruleset": "twelve-gangsters", "by": "bot"}
    turns, bot_moves = metric(api, "syndicate_bot_turns_total"), metric(api, "syndicate_moves_total", **bots)
    api.create(seats=[{"bot": "random"}] * 3)
    drain()
    played = metric(api, "syndicate_bot_turns_total") - turns
    assert played == 36, "12 rounds of 3 seats"
    assert metric(api, "syndicate_moves_total", **bots) - bot_moves == played

    fired = metric(api, "syndicate_deadlines_fired_total")
    table = api.create(players=3, options={"first_boss": 0, "move_deadline_s": 60})
    wait = api.game(table)["waiting_since"]
    house.clock = lambda: time.time() + 120  # the minute is up
    with jobs.at(workshop):
        assert str(jobs.deadline(table.id, wait)) == "played for 3 seats"
        assert str(jobs.deadline(table.id, wait)) == "moved on"
    assert metric(api, "syndicate_deadlines_fired_total") == fired + 1


def test_the_queue_depth_is_read_from_each_queue(api: ApiClient, redis_client: redis.Redis) -> None:
    api.create(seats=[{"bot": "random"}] * 3)  # an all-bot game's turn: behind people's games
    api.create(seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}])
    for name in (QUEUE, BOT_QUEUE):
        queued = Queue(name, connection=redis_client).count
        assert queued == 1
        assert metric(api, "syndicate_queue_jobs", queue=name, state="queued") == queued
    assert metric(api, "syndicate_queue_jobs", queue=REVIEW_QUEUE, state="queued") == 0, "no game finished"


def test_a_log_line_is_one_json_object_with_its_time_in_utc_to_the_millisecond() -> None:
    record = logging.LogRecord("syndicate.http", logging.INFO, __file__, 1, "%s moved", ("Zoë",), None)
    record.created = 1764895536.9999  # a whole second's last millisecond: never rounded up into the next second
    record.fields = {"game_id": "g1", "at": object}  # type: ignore[attr-defined]
    line = json.loads(JsonFormatter().format(record))
    assert line["time"] == "2025-12-05T00:45:36.999+00:00"
    assert line["level"] == "INFO" and line["logger"] == "syndicate.http" and line["message"] == "Zoë moved"
    assert line["game_id"] == "g1"
    assert line["at"] == str(object), "a value JSON has no form for is written as its string"


def log_lines(caplog: pytest.LogCaptureFixture) -> list[dict]:
    return [json.loads(JsonFormatter().format(r)) for r in caplog.records if r.name == "syndicate.http"]


def test_a_request_id_is_taken_or_made_echoed_and_logged(api: ApiClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="syndicate.http")
    table = api.create(players=3, options={"first_boss": 0})
    given = api.http.get(f"/v1/games/{table.id}", headers={"X-Request-ID": "client-7f3a.1"})
    made = api.http.get(f"/v1/games/{table.id}")
    unfit = api.http.get(f"/v1/games/{table.id}", headers={"X-Request-ID": "two words"})
    assert given.headers["X-Request-ID"] == "client-7f3a.1"
    assert len(made.headers["X-Request-ID"]) == 32 and len(unfit.headers["X-Request-ID"]) == 32
    assert made.headers["X-Request-ID"] != unfit.headers["X-Request-ID"]

    *_, logged_given, logged_made, logged_unfit = log_lines(caplog)
    assert logged_given["request_id"] == "client-7f3a.1"
    assert logged_made["request_id"] == made.headers["X-Request-ID"]
    assert logged_unfit["request_id"] == unfit.headers["X-Request-ID"]
    assert logged_given["level"] == "INFO"
    assert logged_given["game_id"] == table.id
    assert logged_given["route"] == "/v1/games/<game_id>" and logged_given["method"] == "GET"
    assert logged_given["status"] == 200 and logged_given["duration_ms"] >= 0


def test_a_refused_request_is_logged_with_its_id_too(api: ApiClient, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="syndicate.http")
    response = api.http.get("/v1/games/0123456789abcdef", headers={"X-Request-ID": "lost-1"})
    assert_problem(response, 404, "game_not_found")
    assert response.headers["X-Request-ID"] == "lost-1"
    [*_, line] = log_lines(caplog)
    assert (line["request_id"], line["status"], line["game_id"]) == ("lost-1", 404, "0123456789abcdef")


Client = Callable[[str], int]


def behind(config: Config, hops: int) -> Client:
    """GET the rulesets from 10.0.0.9 (the proxy, as the server sees it) for a client it forwards."""
    app = create_app(dataclasses.replace(config, trusted_proxies=hops, rate_limit="2 per minute"), TESTING=True)
    http = app.test_client()

    def get(client: str) -> int:
        headers = {"X-Forwarded-For": client}
        return http.get("/v1/rulesets", headers=headers, environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code

    return get


def test_behind_one_trusted_proxy_each_forwarded_client_has_its_own_limit(config: Config) -> None:
    get = behind(config, hops=1)
    assert [get("203.0.113.1"), get("203.0.113.1"), get("203.0.113.1")] == [200, 200, 429]
    assert get("203.0.113.2") == 200


def test_with_no_trusted_proxy_a_forwarded_for_header_changes_nothing(config: Config) -> None:
    get = behind(config, hops=0)
    assert [get("203.0.113.1"), get("203.0.113.2"), get("203.0.113.3")] == [200, 200, 429]


def test_the_forwarded_client_is_the_one_logged(config: Config, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="syndicate.http")
    behind(config, hops=1)("198.51.100.4, 203.0.113.1")  # a spoofed first hop, then what the proxy saw
    [*_, line] = log_lines(caplog)
    assert line["client"] == "203.0.113.1"


def test_not_ready_while_the_job_queues_redis_is_away(config: Config, services: Services) -> None:
    dead = redis.Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_timeout=1)
    app = create_app(config, dataclasses.replace(services, jobs=Scheduler(dead)), TESTING=True)
    http = app.test_client()
    assert_problem(http.get("/readyz"), 503, "unavailable")
    assert http.get("/livez").status_code == 200
    metrics = http.get("/metrics")
    assert metrics.status_code == 200 and b"syndicate_queue_jobs" not in metrics.data


def test_not_ready_while_redis_is_away(config: Config) -> None:
    dead = dataclasses.replace(config, redis_url=f"redis://127.0.0.1:{free_port()}/0")
    http = create_app(dead, TESTING=True).test_client()
    assert_problem(http.get("/readyz"), 503, "unavailable")
    assert http.get("/livez").status_code == 200


def test_a_job_logs_its_game_outcome_and_the_request_it_came_from(
    api: ApiClient, house: House, drain, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="syndicate.jobs")
    seats = [{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}]
    created = api.http.post(
        "/v1/games", json={"ruleset": "twelve-gangsters", "seats": seats}, headers={"X-Request-ID": "create-9"}
    )
    game = created.json["game_id"]
    token = created.json["tokens"][0]["token"]
    drain()  # the bots play round 1: their jobs were queued by the creation
    moved = api.http.post(f"/v1/games/{game}/moves", json={"type": "play", "card": 1},
                          headers={"Authorization": f"Bearer {token}", "X-Request-ID": "move-1"})  # fmt: skip
    assert moved.status_code == 200
    drain()  # round 2's bot turns, queued by Ann's move

    lines = [json.loads(JsonFormatter().format(r)) for r in caplog.records if r.name == "syndicate.jobs"]
    turns = [line for line in lines if line["job"] == "bots_turn" and line["outcome"] == "played for 2 seats"]
    assert [line["request_id"] for line in turns] == ["create-9", "move-1"]  # one turn plays both bots
    assert all(line["game_id"] == game and line["level"] == "INFO" for line in turns)
    assert all(line["job_id"].startswith(f"bot-{game}-") and line["duration_ms"] >= 0 for line in turns)
