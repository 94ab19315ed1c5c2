"""Two moves racing on one version, each from its own HTTP client in its own thread: exactly one lands."""

from __future__ import annotations

import itertools
import threading

import msgspec
import redis
from flask import Flask

from events import keys
from events.store import RedisEventStore
from tests.client import ApiClient, Table, assert_problem

PLAYED = "twelve_gangsters.gangster_played"


def race(app: Flask, table: Table, seat: int, cards: tuple[int, int], if_match: int | None = None) -> list:
    """Both cards sent at once by the same seat, released together by a barrier; the two responses."""
    barrier = threading.Barrier(2)
    responses: list = [None, None]
    headers = {"Authorization": f"Bearer {table.tokens[seat]}"}
    if if_match is not None:
        headers["If-Match"] = f'"{if_match}"'

    def send(i: int) -> None:
        client = app.test_client()
        barrier.wait()
        responses[i] = client.post(
            f"/v1/games/{table.id}/moves", json={"type": "play", "card": cards[i]}, headers=headers
        )

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert all(r is not None for r in responses), "a racing request did not answer"
    return responses


def stream_envelopes(redis_client: redis.Redis, game_id: str) -> list[tuple[bytes, dict]]:
    entry_ids = [entry_id for entry_id, _ in redis_client.xrange(keys.events(game_id))]
    return list(zip(entry_ids, msgspec.to_builtins(RedisEventStore(redis_client).read(game_id)), strict=True))


def assert_log_is_contiguous(redis_client: redis.Redis, api: ApiClient, table: Table) -> None:
    """Stream entry ids and envelope versions run 1..N with no gap, each event chained to the one before."""
    entries = stream_envelopes(redis_client, table.id)
    count = len(entries)
    assert [entry_id for entry_id, _ in entries] == [f"{v}-0".encode() for v in range(1, count + 1)]
    assert [envelope["version"] for _, envelope in entries] == list(range(1, count + 1))
    for (_, before), (_, after) in itertools.pairwise(entries):
        assert after["prev_hash"] == before["hash"]
    assert api.version(table) == count == redis_client.xlen(keys.events(table.id))


def test_two_racing_moves_of_one_seat_land_once_and_the_other_is_already_played(
    app: Flask, api: ApiClient, redis_client: redis.Redis
) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    races = 0
    for card in range(1, 11):
        for seat in (0, 1):  # seat 2 closes each round: a racing loser there would play into the next round
            before = api.version(table)
            hand = api.game(table, seat)["you"]["hand"]
            responses = race(app, table, seat, (hand[0], hand[-1]))
            statuses = sorted(r.status_code for r in responses)
            assert statuses == [200, 409], [r.json for r in responses]
            winner = next(r for r in responses if r.status_code == 200)
            loser = next(r for r in responses if r.status_code == 409)
            assert_problem(loser, 409, "already_played")
            landed = winner.json["events"][0]["payload"]["card"]
            new = api.events(table, seat, after=before)
            assert [(e["type"], e["seat"], e["payload"]["card"]) for e in new] == [(PLAYED, seat, landed)]
            assert api.version(table) == before + 1
            races += 1
        assert api.play(table, 2, card).status_code == 200
        assert [len(api.game(table, seat)["you"]["hand"]) for seat in range(3)] == [12 - card] * 3
    assert races == 20
    assert_log_is_contiguous(redis_client, api, table)


def test_two_racing_moves_with_the_same_if_match_land_once_and_the_other_gets_412(
    app: Flask, api: ApiClient, redis_client: redis.Redis
) -> None:
    table = api.create(players=4, options={"first_boss": 3})
    races = 0
    for _round in range(5):
        for seat in range(4):  # every seat, the one closing the round included
            before = api.version(table)
            hand = api.game(table, seat)["you"]["hand"]
            responses = race(app, table, seat, (hand[0], hand[-1]), if_match=before)
            statuses = sorted(r.status_code for r in responses)
            assert statuses == [200, 412], [r.json for r in responses]
            assert_problem(next(r for r in responses if r.status_code == 412), 412, "version_mismatch")
            winner = next(r for r in responses if r.status_code == 200)
            landed = winner.json["events"][0]["payload"]["card"]
            new = api.events(table, seat, after=before)
            assert [(e["seat"], e["payload"]["card"]) for e in new if e["type"] == PLAYED] == [(seat, landed)]
            assert winner.json["version"] == api.version(table) == before + len(new)
            races += 1
    assert races == 20
    assert_log_is_contiguous(redis_client, api, table)


def test_five_joins_at_once_take_five_distinct_seats_and_keep_the_log_contiguous(
    app: Flask, api: ApiClient, redis_client: redis.Redis
) -> None:
    table = api.create(seats=[{"name": "Host"}] + [{"open": True}] * 5, options={"first_boss": 0})
    barrier = threading.Barrier(5)
    answers: list = []

    def join(name: str) -> None:
        client = app.test_client()
        barrier.wait()
        answers.append(client.post(f"/v1/games/{table.id}/join", json={"name": name}))

    threads = [threading.Thread(target=join, args=(f"J{i}",)) for i in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(r.status_code for r in answers) == [201] * 5
    assert sorted(r.json["seat"] for r in answers) == [1, 2, 3, 4, 5]
    game = api.game(table)
    assert game["status"] == "in_progress"
    assert sorted(s["name"] for s in game["seats"][1:]) == [f"J{i}" for i in range(5)]
    assert_log_is_contiguous(redis_client, api, table)


def test_a_duplicate_of_the_move_that_closes_a_round_never_lands_in_the_next_round(
    app: Flask, api: ApiClient, redis_client: redis.Redis
) -> None:
    """The loser of a true race is refused (409); only a request sent after the first had answered is a
    new move for the new round. Twenty races make at least one true overlap all but certain."""
    overlaps = 0
    for _ in range(20):
        table = api.create(players=3, options={"first_boss": 0})
        api.play(table, 0, 5)
        api.play(table, 1, 6)
        responses = race(app, table, 2, (7, 8))
        codes = sorted(r.status_code for r in responses)
        if codes == [200, 409]:
            overlaps += 1
            assert next(r for r in responses if r.status_code == 409).json["code"] == "game_moved_on"
            assert [s["has_chosen"] for s in api.game(table)["state"]["seats"]] == [False, False, False]
        else:
            assert codes == [200, 200]  # not a race: the second arrived after the first had landed
        assert_log_is_contiguous(redis_client, api, table)
    assert overlaps > 0
