"""Input that once crashed the service or corrupted a game: each is answered 4xx as a problem and changes nothing."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
import redis
from flask import Flask
from marshmallow import Schema, fields

from service.http.parsing import MAX_BODY_BYTES, MAX_DEPTH, MAX_INT, StrictInteger
from tests.client import ApiClient, Table, assert_problem
from tests.http.test_errors import changes_nothing, post_move
from tests.players.helpers import bearer

HUGE = "9" * 4301  # beyond Python's int-from-text limit
BEYOND_REDIS = str(2**64)  # beyond a Redis stream id


@pytest.fixture
def table(api: ApiClient) -> Table:
    """A three-seat 12 Gangsters game with round one under way: seat 0 has played its 5."""
    table = api.create(players=3, options={"first_boss": 0})
    assert api.play(table, 0, 5).status_code == 200
    return table


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# -- options that overflowed a clock once a wait opened -------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("twelve-gangsters", {"move_deadline_s": 10**41}),
        ("twelve-gangsters", {"move_deadline_s": 1e41}),
        ("twelve-gangsters", {"move_deadline_s": 7 * 24 * 3600 + 1}),
        ("cash-n-guns", {"aim_window_s": 10**12}),
        ("cash-n-guns", {"aim_window_s": 3601}),
    ],
)
def test_an_option_beyond_its_bound_is_refused_at_creation(
    api: ApiClient, redis_client: redis.Redis, ruleset: str, options: dict
) -> None:
    seats = [{"name": f"P{i}"} for i in range(4)]
    with changes_nothing(redis_client):
        response = api.http.post("/v1/games", json={"ruleset": ruleset, "seats": seats, "options": options})
        body = assert_problem(response, 422, "invalid_option")
    assert "must be" in body["detail"]


def test_the_longest_deadline_allowed_opens_its_wait_and_answers_200(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0, "move_deadline_s": 7 * 24 * 3600})
    for seat, card in enumerate((5, 6, 7)):
        response = api.play(table, seat, card)
        assert response.status_code == 200, response.json
    game = api.game(table)
    assert game["state"]["round"] == 2 and game["version"] == response.json["version"]


# -- bodies ---------------------------------------------------------------------------------------


def test_deeply_nested_json_is_400_on_every_post(api: ApiClient, table: Table, redis_client: redis.Redis) -> None:
    for depth in (MAX_DEPTH + 1, 30_000):
        body = f'{{"type": "play", "card": {nested(depth)}}}'
        with changes_nothing(redis_client, api, table):
            assert_problem(post_move(api, table, 1, data=body, content_type="application/json"), 400, "malformed_json")
            create = f'{{"ruleset": "twelve-gangsters", "seats": [], "options": {{"x": {nested(depth)}}}}}'
            response = api.http.post("/v1/games", data=create, content_type="application/json")
            assert_problem(response, 400, "malformed_json")
            response = api.http.post(f"/v1/games/{table.id}/join", data=nested(depth), content_type="application/json")
            assert_problem(response, 400, "malformed_json")


@pytest.mark.parametrize("raw", [b'{"name": "\\ud800"}', b'{"name": "\xff"}', b'{"name": "\xed\xa0\x80"}'])
def test_a_lone_surrogate_or_invalid_utf8_is_400(api: ApiClient, redis_client: redis.Redis, raw: bytes) -> None:
    table = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    with changes_nothing(redis_client):
        response = api.http.post(f"/v1/games/{table.id}/join", data=raw, content_type="application/json")
        assert_problem(response, 400, "malformed_json")
        create = raw.replace(b'{"name"', b'{"ruleset": "twelve-gangsters", "seats": [{"name": "A"}], "x"')
        assert_problem(api.http.post("/v1/games", data=create, content_type="application/json"), 400, "malformed_json")


def test_a_body_over_the_size_limit_is_413(api: ApiClient, table: Table, redis_client: redis.Redis) -> None:
    junk = "x" * MAX_BODY_BYTES
    with changes_nothing(redis_client, api, table):
        response = post_move(api, table, 1, json={"type": "play", "card": 1, "junk": junk})
        assert_problem(response, 413, "payload_too_large")
        response = api.http.post("/v1/games", json={"ruleset": "twelve-gangsters", "seats": [{"name": junk}]})
        assert_problem(response, 413, "payload_too_large")


@pytest.mark.parametrize("coding", ["gzip", "deflate", "identity", "gzip, chunked", "bogus"])
def test_a_transfer_coding_other_than_chunked_is_501(
    api: ApiClient, table: Table, redis_client: redis.Redis, coding: str
) -> None:
    # The body would reach the JSON parser still encoded; gunicorn lets `gzip, chunked` through to the app.
    with changes_nothing(redis_client, api, table):
        response = post_move(api, table, 1, json={"type": "play", "card": 3}, headers={"Transfer-Encoding": coding})
        assert_problem(response, 501, "unsupported_transfer_coding")
        response = api.http.get(f"/v1/games/{table.id}", headers={"Transfer-Encoding": coding})
        assert_problem(response, 501, "unsupported_transfer_coding")


def test_a_body_that_is_not_sent_as_json_is_415(api: ApiClient, table: Table, redis_client: redis.Redis) -> None:
    with changes_nothing(redis_client, api, table):
        response = post_move(api, table, 1, data='{"type": "play", "card": 3}', content_type="text/plain")
        assert_problem(response, 415, "unsupported_media_type")


def test_a_field_a_move_does_not_take_is_422_unknown_field(api: ApiClient, table: Table, redis_client) -> None:
    with changes_nothing(redis_client, api, table):
        body = assert_problem(api.move(table, 1, type="play", card=3, x=1), 422, "unknown_field")
    assert "'x'" in body["detail"] and "card" in body["detail"]


def test_the_log_keeps_the_move_as_parsed_not_the_body_as_sent(api: ApiClient, table: Table) -> None:
    assert api.play(table, 1, 3).status_code == 200
    [own] = [e for e in api.events(table, 1) if e.get("command")][-1:]
    assert own["command"]["move"] == {"type": "play", "card": 3}


@pytest.mark.parametrize(
    "name",
    ["bot:smart", "BOT:random", "Bot:anything", "b\u043et:smart", "\u0412\u041eT:random", " Ann", "Ann\n", "A\x00nn"],
)
def test_a_name_that_could_pass_for_a_bot_or_hides_characters_is_422(
    api: ApiClient, redis_client: redis.Redis, name: str
) -> None:
    table = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    with changes_nothing(redis_client):
        response = api.http.post("/v1/games", json={"ruleset": "twelve-gangsters", "seats": [{"name": name}] * 3})
        assert_problem(response, 422, "invalid_request")
        assert_problem(api.join(table, name), 422, "invalid_request")


# -- integers in bodies ---------------------------------------------------------------------------


def lookalikes(n: int) -> list[str]:
    """JSON that is no integer, yet that marshmallow's Integer or int() would read as `n` (or near it): a
    fraction, a float that is whole, an exponent, text, another script's digit, spaces, a boolean."""
    return [
        f"{n}.7",
        f"{n}.0",
        f"{n}e0",
        f'"{n}"',
        f'"\\u{0x660 + n:04x}"',
        f'" {n} "',
        f'"\\u{0xFF10 + n:04x}"',
        "true",
    ]


SEATS = json.dumps([{"name": name} for name in "ABCD"])


@pytest.mark.parametrize("value", lookalikes(7))
def test_a_seed_that_is_no_json_integer_is_422(api: ApiClient, redis_client: redis.Redis, value: str) -> None:
    body = f'{{"ruleset": "twelve-gangsters", "seats": {SEATS}, "seed": {value}}}'
    with changes_nothing(redis_client):
        response = api.http.post("/v1/games", data=body, content_type="application/json")
        assert_problem(response, 422, "invalid_request")


@pytest.mark.parametrize("value", lookalikes(3))
def test_a_quick_match_seat_count_that_is_no_json_integer_is_422(
    api: ApiClient, redis_client: redis.Redis, value: str
) -> None:
    token = api.register("Pat")
    body = f'{{"ruleset": "twelve-gangsters", "seats": {value}}}'
    with changes_nothing(redis_client):
        response = api.http.post("/v1/quick-match", data=body, content_type="application/json", headers=bearer(token))
        assert_problem(response, 422, "invalid_request")


@pytest.mark.parametrize("value", lookalikes(3))
def test_a_move_field_or_an_option_that_is_no_json_integer_is_422(
    api: ApiClient, table: Table, redis_client: redis.Redis, value: str
) -> None:
    with changes_nothing(redis_client, api, table):
        move = f'{{"type": "play", "card": {value}}}'
        assert_problem(post_move(api, table, 1, data=move, content_type="application/json"), 422, "invalid_request")
        create = f'{{"ruleset": "twelve-gangsters", "seats": {SEATS}, "options": {{"first_boss": {value}}}}}'
        response = api.http.post("/v1/games", data=create, content_type="application/json")
        assert_problem(response, 422, "invalid_option")


@pytest.mark.parametrize("seed", [-1, MAX_INT + 1, 2**63 - 1])
def test_a_seed_beyond_what_every_json_client_reads_exactly_is_422(
    api: ApiClient, redis_client: redis.Redis, seed: int
) -> None:
    with changes_nothing(redis_client):
        response = api.http.post(
            "/v1/games", json={"ruleset": "twelve-gangsters", "seats": [{"name": "A"}] * 3, "seed": seed}
        )
        assert "9007199254740991" in assert_problem(response, 422, "invalid_request")["detail"]


def test_the_largest_seed_every_json_client_reads_exactly_is_the_games_seed(api: ApiClient) -> None:
    table = api.create(seed=MAX_INT)
    assert table.body["randomness"] == "public"
    assert table.body["seed_commitment"] == hashlib.sha256(f"{MAX_INT}:".encode()).hexdigest()


def request_schemas(app: Flask) -> Iterator[Schema]:
    """Every schema a route reads its body, query or headers with."""
    for view in app.view_functions.values():
        for method in ("get", "post", "delete"):
            apidoc: dict[str, Any] = getattr(getattr(getattr(view, "view_class", None), method, None), "_apidoc", {})
            yield from (parameter["schema"] for parameter in apidoc.get("arguments", {}).get("parameters", []))


def integer_fields(schema: Schema) -> Iterator[fields.Field]:
    todo: list[fields.Field] = list(schema.fields.values())
    while todo:
        field = todo.pop()
        if isinstance(field, fields.Integer):
            yield field
        todo.extend(field.schema.fields.values() if isinstance(field, fields.Nested) else [])
        todo.extend([field.inner] if isinstance(field, fields.List) else [])


def test_every_integer_a_request_schema_reads_is_the_strict_one(app: Flask) -> None:
    found = {(type(s).__name__, f.name): f for s in request_schemas(app) for f in integer_fields(s)}
    assert {("CreateGameSchema", "seed"), ("QuickMatchSchema", "seats"), ("EventsQuerySchema", "limit")} <= set(found)
    lenient = sorted(where for where, field in found.items() if not isinstance(field, StrictInteger))
    assert not lenient, f"read with marshmallow's own Integer: {lenient}"


# -- integers in headers, queries and paths -------------------------------------------------------


@pytest.mark.parametrize("if_match", ["²", '"²"', HUGE, f'"{HUGE}"', "٣"])
def test_an_if_match_that_is_no_number_is_412(api: ApiClient, table: Table, redis_client, if_match: str) -> None:
    with changes_nothing(redis_client, api, table):
        assert_problem(api.play(table, 1, 3, headers={"If-Match": if_match}), 412, "version_mismatch")


@pytest.mark.parametrize("last", ["²", HUGE, BEYOND_REDIS, "-1", "x"])
def test_a_last_event_id_that_is_no_version_is_422(api: ApiClient, table: Table, last: str) -> None:
    response = api.http.get(f"/v1/games/{table.id}/events/stream", headers={"Last-Event-ID": last})
    assert_problem(response, 422, "invalid_header")


@pytest.mark.parametrize("after", ["99999999999999999999", BEYOND_REDIS, HUGE])
@pytest.mark.parametrize("accept", ["application/json", "application/x-ndjson"])
def test_an_events_cursor_beyond_any_version_is_422(api: ApiClient, table: Table, after: str, accept: str) -> None:
    response = api.http.get(f"/v1/games/{table.id}/events?after={after}", headers={"Accept": accept})
    assert_problem(response, 422, "invalid_request")


@pytest.mark.parametrize("after", [BEYOND_REDIS, HUGE])
def test_a_live_feed_cursor_beyond_any_version_is_422_not_a_broken_stream(
    api: ApiClient, table: Table, after: str
) -> None:
    assert_problem(api.http.get(f"/v1/games/{table.id}/events/stream?after={after}"), 422, "invalid_request")


def test_a_cursor_past_the_last_version_is_an_empty_page(api: ApiClient, table: Table) -> None:
    response = api.http.get(f"/v1/games/{table.id}/events?after=999999999")
    assert response.status_code == 200 and response.json["events"] == []


@pytest.mark.parametrize("page", [str(2**62), str(2**64), BEYOND_REDIS + "0"])
def test_a_lobby_page_past_the_end_is_empty(api: ApiClient, table: Table, page: str) -> None:
    response = api.http.get(f"/v1/games?page={page}")
    assert response.status_code == 200 and response.json == []
    assert json.loads(response.headers["X-Pagination"])["total"] == 1


def test_a_huge_lobby_page_number_is_422(api: ApiClient) -> None:
    assert_problem(api.http.get(f"/v1/games?page={HUGE}"), 422, "invalid_request")


QUERY_INTEGERS = [
    "/v1/games/{game}/events?after={n}",
    "/v1/games/{game}/events?limit={n}",
    "/v1/games/{game}/events/stream?after={n}",
    "/v1/games?page={n}",
    "/v1/games?page_size={n}",
    "/v1/leaderboard?ruleset=twelve-gangsters&page={n}",
]


@pytest.mark.parametrize("number", ["\uff11", "٣", "+1", "1_0", " 1", "1 "])  # int() reads each (\uff11: fullwidth 1)
@pytest.mark.parametrize("url", QUERY_INTEGERS)
def test_an_integer_in_a_query_is_ascii_digits_or_422(api: ApiClient, table: Table, url: str, number: str) -> None:
    response = api.http.get(url.format(game=table.id, n=quote(number)))
    assert "digits" in assert_problem(response, 422, "invalid_request")["detail"]


@pytest.mark.parametrize("version", [HUGE, BEYOND_REDIS, "²"])
def test_a_time_travel_version_that_is_no_version_is_404(api: ApiClient, table: Table, version: str) -> None:
    response = api.http.get(f"/v1/games/{table.id}/states/{version}")
    assert response.status_code == 404 and response.mimetype == "application/problem+json"


@pytest.mark.parametrize(
    "headers", [{"Content-Type": "application/json"}, {"Content-Type": "application/json", "Content-Length": "0"}]
)
def test_an_empty_body_sent_as_json_is_no_body(api: ApiClient, table: Table, headers: dict[str, str]) -> None:
    # Some clients set a JSON content type on every request: a POST that takes no body must not refuse them.
    response = api.http.post(
        f"/v1/games/{table.id}/stream-tickets", data=b"", headers={**api.auth(table, 0), **headers}
    )
    assert response.status_code == 201, response.json
    resigned = api.http.post(f"/v1/games/{table.id}/resign", data=b"", headers={**api.auth(table, 1), **headers})
    assert resigned.status_code == 200, resigned.json
    # A route that needs a body says what is missing, as it does for a request with no body at all.
    assert_problem(api.http.post("/v1/games", data=b"", headers=headers), 422, "invalid_request")
    assert_problem(api.http.post("/v1/games"), 422, "invalid_request")
