"""Every error status of the contract, answered as application/problem+json with its stable code, and
leaving the game exactly as it was."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis
from flask import Flask

from events import keys
from service.config import Config
from service.http.app import create_app
from tests.client import ApiClient, Table, assert_problem

UNKNOWN_ID = "0123456789abcdef"
ODD_IDS = ["{abc}", "%7B0123456789abcdef%7D", "abc%20def", "0123456789ABCDEF", "0123456789abcdef0", "%C3%BC", "a*"]


def game_keys(redis_client: redis.Redis) -> dict[bytes, Any]:
    """Everything the service stores for games: stream entries, snapshots, token hashes, first answers."""
    stored: dict[bytes, Any] = {}
    for key in redis_client.scan_iter(match=f"{keys.PREFIX}:game:*"):
        kind = redis_client.type(key)
        if kind == b"stream":
            stored[key] = redis_client.xrange(key)
        elif kind == b"hash":
            stored[key] = redis_client.hgetall(key)
        else:
            stored[key] = redis_client.get(key)
    return stored


@contextmanager
def changes_nothing(redis_client: redis.Redis, api: ApiClient | None = None, table: Table | None = None) -> Iterator:
    """The block leaves every game key as it was (and the game at the same version)."""
    before = game_keys(redis_client)
    version = api.version(table) if api and table else None
    yield
    assert game_keys(redis_client) == before
    if api and table:
        assert api.version(table) == version


@pytest.fixture
def table(api: ApiClient) -> Table:
    """A three-seat game with round one under way: seat 0 has played its 5."""
    table = api.create(players=3, options={"first_boss": 0})
    assert api.play(table, 0, 5).status_code == 200
    return table


def post_move(api: ApiClient, table: Table, seat: int | None, **kwargs: Any) -> Any:
    headers = {**api.auth(table, seat), **kwargs.pop("headers", {})}
    return api.http.post(f"/v1/games/{table.id}/moves", headers=headers, **kwargs)


# -- 400 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("body", ["{not json", '{"type": "play", "card": 3', "play 3", "{'type': 'play'}"])
def test_a_move_body_that_is_not_json_is_400_malformed_json(
    api: ApiClient, table: Table, redis_client: redis.Redis, body: str
) -> None:
    with changes_nothing(redis_client, api, table):
        response = post_move(api, table, 1, data=body, content_type="application/json")
        assert_problem(response, 400, "malformed_json")


def test_a_create_body_that_is_not_json_is_400_malformed_json(api: ApiClient, redis_client: redis.Redis) -> None:
    with changes_nothing(redis_client):
        response = api.http.post("/v1/games", data='{"ruleset": ', content_type="application/json")
        assert_problem(response, 400, "malformed_json")


# -- 401 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer not-a-token", "Bearer", "Bearer    ", "Token abc", "Basic dXNlcjpwYXNz", "bearer-abc"],
    ids=["missing", "wrong", "empty", "blank", "other-scheme", "basic", "no-space"],
)
def test_a_move_without_a_valid_bearer_token_is_401_invalid_token(
    api: ApiClient, table: Table, redis_client: redis.Redis, authorization: str | None
) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    with changes_nothing(redis_client, api, table):
        response = post_move(api, table, None, json={"type": "play", "card": 3}, headers=headers)
        assert_problem(response, 401, "invalid_token")


def test_a_token_of_another_game_is_401_invalid_token(api: ApiClient, table: Table, redis_client: redis.Redis) -> None:
    other = api.create(players=3)
    headers = {"Authorization": f"Bearer {other.tokens[1]}"}
    with changes_nothing(redis_client, api, table):
        response = post_move(api, table, None, json={"type": "play", "card": 3}, headers=headers)
        assert_problem(response, 401, "invalid_token")


@pytest.mark.parametrize("path", ["", "/events"])
def test_reading_with_a_wrong_or_malformed_token_is_401_not_a_spectator_view(
    api: ApiClient, table: Table, path: str
) -> None:
    for authorization in ("Bearer wrong", "Token abc"):
        response = api.http.get(f"/v1/games/{table.id}{path}", headers={"Authorization": authorization})
        assert_problem(response, 401, "invalid_token")


# -- 404 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", [UNKNOWN_ID, *ODD_IDS])
def test_every_game_route_answers_404_game_not_found_for_an_unknown_or_odd_id(
    api: ApiClient, redis_client: redis.Redis, game_id: str
) -> None:
    with changes_nothing(redis_client):
        for path in ("", "/events", "/result"):
            assert_problem(api.http.get(f"/v1/games/{game_id}{path}"), 404, "game_not_found")
        assert_problem(api.http.post(f"/v1/games/{game_id}/join", json={"name": "X"}), 404, "game_not_found")
        response = api.http.post(
            f"/v1/games/{game_id}/moves", json={"type": "play", "card": 1}, headers={"Authorization": "Bearer x"}
        )
        assert_problem(response, 404, "game_not_found")


@pytest.mark.parametrize("path", ["/nope", "/v1/nope", "/v1/games/0123456789abcdef/nope", "/v2/games"])
def test_an_unknown_route_is_404_not_found(api: ApiClient, path: str) -> None:
    assert_problem(api.http.get(path), 404, "not_found")


def test_a_method_a_route_does_not_take_is_405_as_a_problem(api: ApiClient, table: Table) -> None:
    response = api.http.delete(f"/v1/games/{table.id}")
    assert_problem(response, 405, "method_not_allowed")
    assert allowed(response) == {"GET", "HEAD", "OPTIONS"}


def allowed(response: Any) -> set[str]:
    return {method.strip() for method in response.headers["Allow"].split(",")}


def test_every_405_says_in_allow_which_methods_its_route_takes(app: Flask, api: ApiClient) -> None:
    rules = [r for r in app.url_map.iter_rules() if r.endpoint != "static" and "PUT" not in (r.methods or ())]
    assert len(rules) > 25
    for rule in rules:
        path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: "1" if m[1] == "version" else UNKNOWN_ID, rule.rule)
        response = api.http.put(path)
        assert_problem(response, 405, "method_not_allowed")
        assert allowed(response) == rule.methods, rule.rule


# -- 409 --------------------------------------------------------------------------------------------


def test_choosing_twice_in_a_round_is_409_already_played(api: ApiClient, table: Table, redis_client) -> None:
    with changes_nothing(redis_client, api, table):
        assert_problem(api.play(table, 0, 6), 409, "already_played")
        assert_problem(api.play(table, 0, 5), 409, "already_played")


@pytest.mark.parametrize("card", [0, 13, -1, 99])
def test_a_card_out_of_the_deck_is_409_card_not_in_hand(api: ApiClient, table: Table, redis_client, card: int) -> None:
    with changes_nothing(redis_client, api, table):
        assert_problem(api.play(table, 1, card), 409, "card_not_in_hand")


def test_a_card_already_spent_in_an_earlier_round_is_409_card_not_in_hand(
    api: ApiClient, table: Table, redis_client: redis.Redis
) -> None:
    assert api.play(table, 1, 5).status_code == 200
    assert api.play(table, 2, 5).status_code == 200
    with changes_nothing(redis_client, api, table):
        body = assert_problem(api.play(table, 0, 5), 409, "card_not_in_hand")
        assert "5" in body["detail"]


def test_a_move_before_every_seat_is_taken_is_409_game_not_started(api: ApiClient, redis_client: redis.Redis) -> None:
    waiting = api.create(seats=[{"name": "A"}, {"open": True}, {"name": "C"}])
    with changes_nothing(redis_client, api, waiting):
        assert_problem(api.play(waiting, 0, 1), 409, "game_not_started")
        assert_problem(api.play(waiting, 2, 12), 409, "game_not_started")
        assert_problem(api.result(waiting), 409, "game_not_finished")


def test_joining_a_game_with_no_open_seat_is_409_game_already_started(
    api: ApiClient, table: Table, redis_client: redis.Redis
) -> None:
    with changes_nothing(redis_client, api, table):
        assert_problem(api.join(table, "Late"), 409, "game_already_started")


def test_a_move_in_a_finished_game_is_409_game_finished(api: ApiClient, redis_client: redis.Redis) -> None:
    done = api.create(players=3, options={"first_boss": 0})
    for card in range(1, 13):
        for seat in range(3):
            assert api.play(done, seat, card).status_code == 200
    with changes_nothing(redis_client, api, done):
        for seat in range(3):
            assert_problem(api.play(done, seat, 1), 409, "game_already_finished")
        assert_problem(api.join(done, "Late"), 409, "game_already_started")


def test_the_result_of_a_running_game_is_409_game_not_finished(api: ApiClient, table: Table) -> None:
    assert_problem(api.result(table), 409, "game_not_finished")


# -- 412 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("if_match", ['"1"', '"3"', "3", 'W/"3"', '"5"', '"999"'])
def test_a_stale_if_match_is_412_version_mismatch(
    api: ApiClient, table: Table, redis_client: redis.Redis, if_match: str
) -> None:
    assert api.version(table) == 4
    with changes_nothing(redis_client, api, table):
        assert_problem(api.play(table, 1, 3, headers={"If-Match": if_match}), 412, "version_mismatch")


@pytest.mark.parametrize("if_match", ["abc", '"four"', '"-1"', '"4.0"', '""', '"4", "5"'])
def test_a_malformed_if_match_is_412_version_mismatch(
    api: ApiClient, table: Table, redis_client: redis.Redis, if_match: str
) -> None:
    with changes_nothing(redis_client, api, table):
        assert_problem(api.play(table, 1, 3, headers={"If-Match": if_match}), 412, "version_mismatch")


# -- 422 --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        {"type": "steal", "card": 3},
        {"type": "PLAY", "card": 3},
        {"type": "play", "card": "3"},
        {"type": "play", "card": 3.5},
        {"type": "play", "card": None},
        {"type": "play", "card": [3]},
        {"type": "play"},
        {"card": 3},
        {"type": 3},
        {"type": None},
        [{"type": "play", "card": 3}],
        "play",
    ],
)
def test_a_move_that_does_not_fit_the_schema_is_422_invalid_request(
    api: ApiClient, table: Table, redis_client: redis.Redis, move: Any
) -> None:
    with changes_nothing(redis_client, api, table):
        assert_problem(post_move(api, table, 1, json=move), 422, "invalid_request")


@pytest.mark.parametrize("key", ["", "k" * 101])
def test_an_idempotency_key_of_bad_length_is_422_invalid_request(
    api: ApiClient, table: Table, redis_client: redis.Redis, key: str
) -> None:
    with changes_nothing(redis_client, api, table):
        assert_problem(api.play(table, 1, 3, headers={"Idempotency-Key": key}), 422, "invalid_request")


@pytest.mark.parametrize(
    "body",
    [
        {"seats": [{"name": "A"}] * 3},
        {"ruleset": None, "seats": [{"name": "A"}] * 3},
        {"ruleset": "twelve-gangsters"},
        {"ruleset": "twelve-gangsters", "seats": "three"},
        {"ruleset": "twelve-gangsters", "seats": []},
        {"ruleset": "twelve-gangsters", "seats": [{"name": "A"}, {"name": "B"}, {}]},
        {"ruleset": "twelve-gangsters", "seats": [{"name": "A"}, {"name": "B"}, {"name": "C", "bot": "random"}]},
        {"ruleset": "twelve-gangsters", "seats": [{"name": "A"}, {"name": "B"}, {"bot": "genius"}]},
        {"ruleset": "twelve-gangsters", "seats": [{"name": "A"}, {"name": "B"}, {"open": False}]},
        {"ruleset": "twelve-gangsters", "seats": [{"name": "A"}, {"name": "B"}, {"name": ""}]},
        {"ruleset": "twelve-gangsters", "seats": [{"name": "A"}, {"name": "B"}, {"name": "C" * 41}]},
        {"ruleset": "twelve-gangsters", "seats": [{"name": "A"}, {"name": "B"}, "C"]},
        {"ruleset": "twelve-gangsters", "seats": [{"name": "A"}] * 3, "seed": "seven"},
        {"ruleset": "twelve-gangsters", "seats": [{"name": "A"}] * 3, "seed": -1},
        {"ruleset": "twelve-gangsters", "seats": [{"name": "A"}] * 3, "options": [1]},
    ],
    ids=lambda body: str(body)[:60],
)
def test_a_create_body_that_does_not_fit_the_schema_is_422_invalid_request(
    api: ApiClient, redis_client: redis.Redis, body: dict[str, Any]
) -> None:
    with changes_nothing(redis_client):
        assert_problem(api.http.post("/v1/games", json=body), 422, "invalid_request")


@pytest.mark.parametrize(
    ("seats", "options", "ruleset", "code"),
    [
        (2, {}, "twelve-gangsters", "invalid_seat_count"),
        (7, {}, "twelve-gangsters", "invalid_seat_count"),
        (3, {}, "thirteen-gangsters", "unknown_ruleset"),
        (3, {}, "", "unknown_ruleset"),
        (3, {"first_gangster": 1}, "twelve-gangsters", "invalid_option"),
        (3, {"first_boss": 3}, "twelve-gangsters", "invalid_option"),
        (3, {"first_boss": -1}, "twelve-gangsters", "invalid_option"),
        (3, {"first_boss": "0"}, "twelve-gangsters", "invalid_option"),
        (3, {"first_boss": True}, "twelve-gangsters", "invalid_option"),
        (3, {"first_boss": 1.0}, "twelve-gangsters", "invalid_option"),
        (3, {"move_deadline_s": 0}, "twelve-gangsters", "invalid_option"),
    ],
)
def test_a_game_the_ruleset_cannot_host_is_422_with_its_own_code(
    api: ApiClient, redis_client: redis.Redis, seats: int, options: dict, ruleset: str, code: str
) -> None:
    body = {"ruleset": ruleset, "seats": [{"name": f"P{i}"} for i in range(seats)], "options": options}
    with changes_nothing(redis_client):
        assert_problem(api.http.post("/v1/games", json=body), 422, code)


def test_a_join_without_a_name_is_422_invalid_request(api: ApiClient, redis_client: redis.Redis) -> None:
    waiting = api.create(seats=[{"name": "A"}, {"open": True}, {"open": True}])
    with changes_nothing(redis_client, api, waiting):
        for body in ({}, {"name": ""}, {"name": 7}):
            assert_problem(api.http.post(f"/v1/games/{waiting.id}/join", json=body), 422, "invalid_request")


@pytest.mark.parametrize("query", ["after=-1", "after=abc", "limit=0", "limit=1001"])
def test_an_events_page_out_of_range_is_422_invalid_request(api: ApiClient, table: Table, query: str) -> None:
    assert_problem(api.http.get(f"/v1/games/{table.id}/events?{query}"), 422, "invalid_request")


# -- 429 --------------------------------------------------------------------------------------------


@pytest.fixture
def limited(config: Config) -> Flask:
    return create_app(
        dataclasses.replace(config, rate_limit="3 per minute", rate_limit_token="3 per minute"), TESTING=True
    )


def test_a_caller_over_the_rate_limit_gets_429_rate_limited(limited: Flask) -> None:
    http = limited.test_client()
    for _ in range(3):
        assert http.get("/v1/rulesets").status_code == 200
    for _ in range(2):
        assert_problem(http.get("/v1/rulesets"), 429, "rate_limited")


def test_a_rate_limited_move_changes_nothing(limited: Flask, api: ApiClient, redis_client: redis.Redis) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    seat0 = ApiClient(limited.test_client())
    for card in range(1, 4):
        assert seat0.play(table, 0, card).status_code == 200
        for seat in (1, 2):
            assert api.play(table, seat, card).status_code == 200
    with changes_nothing(redis_client, api, table):
        assert_problem(seat0.play(table, 0, 4), 429, "rate_limited")
    assert api.play(table, 0, 4).status_code == 200
