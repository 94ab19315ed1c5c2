"""Retries with an Idempotency-Key, If-Match and ETags, and seat tokens that never reach Redis in the clear."""

from __future__ import annotations

from typing import Any

import redis

from events import keys
from service.application.tokens import digest
from tests.client import ApiClient, Table, assert_problem


def stream_length(redis_client: redis.Redis, table: Table) -> int:
    return int(redis_client.xlen(keys.events(table.id)))


def test_a_retry_with_the_same_key_and_body_returns_the_first_answer_and_appends_nothing(
    api: ApiClient, redis_client: redis.Redis
) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    first = api.play(table, 1, 7, headers={"Idempotency-Key": "round-1"})
    assert first.status_code == 200
    assert first.json["version"] == 4
    for _ in range(3):
        retry = api.play(table, 1, 7, headers={"Idempotency-Key": "round-1"})
        assert retry.status_code == 200
        assert retry.json == first.json
        assert retry.headers["ETag"] == '"4-1"'  # version 4, seat 1's view
        assert api.version(table) == 4 == stream_length(redis_client, table)
        assert len(api.events(table)) == 4
    plays = [e for e in api.events(table, 1) if e["type"] == "twelve_gangsters.gangster_played"]
    assert [e["payload"]["card"] for e in plays] == [7]


def test_a_retry_returns_the_first_answer_even_after_the_game_moved_on(
    api: ApiClient, redis_client: redis.Redis
) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    first = api.play(table, 0, 12, headers={"Idempotency-Key": "k", "If-Match": '"3"'})
    assert first.status_code == 200
    for seat in (1, 2):
        assert api.play(table, seat, 1).status_code == 200
    moved_on = api.version(table)
    assert moved_on == 8
    retry = api.play(table, 0, 12, headers={"Idempotency-Key": "k", "If-Match": '"3"'})
    assert (retry.status_code, retry.json) == (200, first.json)
    assert api.version(table) == moved_on == stream_length(redis_client, table)
    assert api.game(table, 0)["you"]["hand"] == list(range(1, 12))


def test_the_same_key_with_a_different_body_is_422_idempotency_key_reused(
    api: ApiClient, redis_client: redis.Redis
) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    assert api.play(table, 2, 3, headers={"Idempotency-Key": "once"}).status_code == 200
    for body in ({"type": "play", "card": 4}, {"type": "play", "card": 3, "note": "again"}):
        response = api.move(table, 2, headers={"Idempotency-Key": "once"}, **body)
        assert_problem(response, 422, "idempotency_key_reused")
    assert api.version(table) == 4 == stream_length(redis_client, table)


def test_a_body_with_the_same_fields_in_another_order_is_the_same_request(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    first = api.http.post(
        f"/v1/games/{table.id}/moves",
        data='{"type": "play", "card": 9}',
        content_type="application/json",
        headers={**api.auth(table, 0), "Idempotency-Key": "order"},
    )
    retry = api.http.post(
        f"/v1/games/{table.id}/moves",
        data='{"card": 9, "type": "play"}',
        content_type="application/json",
        headers={**api.auth(table, 0), "Idempotency-Key": "order"},
    )
    assert first.status_code == retry.status_code == 200
    assert retry.json == first.json
    assert api.version(table) == 4


def test_an_idempotency_key_belongs_to_its_seat(api: ApiClient, redis_client: redis.Redis) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    mine = api.play(table, 0, 5, headers={"Idempotency-Key": "shared"})
    theirs = api.play(table, 1, 5, headers={"Idempotency-Key": "shared"})
    assert mine.status_code == theirs.status_code == 200
    assert (mine.json["version"], theirs.json["version"]) == (4, 5)
    assert theirs.json["events"][0]["seat"] == 1
    assert theirs.json["game"]["you"]["seat"] == 1
    # Seat 1's own retry answers seat 1's first answer, not seat 0's.
    again = api.play(table, 1, 5, headers={"Idempotency-Key": "shared"})
    assert again.json == theirs.json
    assert api.version(table) == 5 == stream_length(redis_client, table)


def test_a_move_with_the_current_version_in_if_match_lands_and_answers_the_new_etag(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    for seat, version in ((0, 3), (1, 4), (2, 5)):
        response = api.play(table, seat, 6, headers={"If-Match": f'"{version}"'})
        assert response.status_code == 200
        new = response.json["version"]
        assert response.headers["ETag"] == f'"{new}-{seat}"'  # the new version, the mover's own view
        assert new == api.version(table)
    assert api.version(table) == 8  # the last play also revealed the round and passed the Boss token
    weak = api.play(table, 1, 2, headers={"If-Match": 'W/"8"'})
    assert (weak.status_code, weak.headers["ETag"]) == (200, '"9-1"')
    star = api.play(table, 2, 2, headers={"If-Match": "*"})
    assert (star.status_code, star.headers["ETag"]) == (200, '"10-2"')


def test_every_view_of_a_game_carries_its_version_as_etag(api: ApiClient) -> None:
    seats = [{"name": "A"}, {"open": True}, {"name": "C"}]
    created = api.http.post("/v1/games", json={"ruleset": "twelve-gangsters", "seats": seats})
    assert created.status_code == 201
    assert created.headers["ETag"] == '"1"'
    game_id = created.json["game_id"]
    assert created.headers["Location"].endswith(f"/v1/games/{game_id}")
    table = Table(game_id, {t["seat"]: t["token"] for t in created.json["tokens"]})
    joined = api.join(table, "B")
    assert joined.headers["ETag"] == '"4-1"'  # the joiner's own view
    for seat in range(3):
        assert api.play(table, seat, 1).status_code == 200
    version = 4 + 5
    for path in ("", "/events", "/events?after=3&limit=2"):
        response = api.http.get(f"/v1/games/{game_id}{path}")
        assert response.headers["ETag"] == f'"{version}"'
        assert response.json["version"] == version
    seat_view = api.http.get(f"/v1/games/{game_id}", headers=api.auth(table, 1))
    assert seat_view.headers["ETag"] == f'"{version}-1"'


def stored_strings(redis_client: redis.Redis) -> list[bytes]:
    """Every key name and every value in Redis, of every type."""
    found: list[bytes] = []
    for key in redis_client.scan_iter():
        found.append(key)
        kind = redis_client.type(key)
        values: Any
        if kind == b"string":
            values = [redis_client.get(key)]
        elif kind == b"hash":
            values = [part for pair in redis_client.hgetall(key).items() for part in pair]
        elif kind == b"stream":
            values = [part for _, fields in redis_client.xrange(key) for pair in fields.items() for part in pair]
        elif kind == b"list":
            values = redis_client.lrange(key, 0, -1)
        elif kind == b"set":
            values = list(redis_client.smembers(key))
        elif kind == b"zset":
            values = [member for member, _ in redis_client.zrange(key, 0, -1, withscores=True)]
        else:
            raise AssertionError(f"unexpected Redis type {kind!r} at {key!r}")
        found.extend(v for v in values if v is not None)
    return found


def test_seat_tokens_are_stored_only_as_hashes(api: ApiClient, redis_client: redis.Redis) -> None:
    table = api.create(seats=[{"name": "A"}, {"name": "B"}, {"open": True}], options={"first_boss": 0})
    assert api.join(table, "C").status_code == 201
    for seat in range(3):
        assert api.play(table, seat, 4, headers={"Idempotency-Key": f"k{seat}"}).status_code == 200
        assert api.game(table, seat)["you"]["seat"] == seat
        api.events(table, seat)
    assert len(table.tokens) == 3
    stored = stored_strings(redis_client)
    assert stored
    for token in table.tokens.values():
        assert not any(token.encode() in value for value in stored), "a seat token is stored in the clear"
    hashes = {int(seat): h.decode() for seat, h in redis_client.hgetall(keys.tokens(table.id)).items()}
    assert hashes == {seat: digest(token) for seat, token in table.tokens.items()}


def test_a_token_is_never_echoed_after_it_is_handed_out(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    answers = [
        api.play(table, 0, 3).get_data(as_text=True),
        api.http.get(f"/v1/games/{table.id}", headers=api.auth(table, 0)).get_data(as_text=True),
        api.http.get(f"/v1/games/{table.id}/events", headers=api.auth(table, 0)).get_data(as_text=True),
        api.http.get(f"/v1/games/{table.id}").get_data(as_text=True),
    ]
    for text in answers:
        assert not any(token in text for token in table.tokens.values())
