"""A job is queued in one round trip: RQ's list of queues, the job and its place in the queue are written in one
pipeline. A move that ends a game answers after two: its save, then the lobby's entry and the tally's job with its
pending mark together (no tally can be pending before the game's end, so it needs no claim of its own)."""

from __future__ import annotations

import pytest
import redis

from benchmarks.roundtrips import counting
from events import keys
from service.http import ratelimit
from tests.client import ApiClient


def play_out(api: ApiClient) -> tuple[str, list[int]]:
    """A 3-seat 12 Gangsters game, every seat playing gangster r in round r: its id, and each move's round trips."""
    table = api.create(players=3, options={"first_boss": 0})
    trips = []
    for card in range(1, 13):
        for seat in range(3):
            with counting() as counted:
                response = api.http.post(
                    f"/v1/games/{table.id}/moves", json={"type": "play", "card": card}, headers=api.auth(table, seat)
                )
            assert response.status_code == 200, response.json
            trips.append(counted[0])
    assert response.json["game"]["status"] == "finished"
    return table.id, trips


@pytest.mark.usefixtures("one_minute")  # none of the moves makes the lobby's once-a-minute write
def test_a_move_that_ends_a_game_makes_two_round_trips(
    api: ApiClient, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ratelimit, "SYNC_S", 600.0)  # the tokens' counts stay in the process all game
    play_out(api)  # the first game also loads the scripts and reads the Redis version, once a process
    game_id, trips = play_out(api)
    assert trips[-1] == 2, trips
    queued = [job.decode() for job in redis_client.lrange("rq:queue:syndicate", 0, -1)]
    assert len(queued) == 2, "each game's tally is queued"
    mark = redis_client.get(keys.pending_job("tally", game_id))
    assert mark is not None and mark.decode() in queued, "marked pending: a sweep queues no second one"


def test_a_move_that_ends_a_game_on_a_restarted_redis_writes_its_lobby_entry_and_queues_its_tally(
    api: ApiClient, redis_client: redis.Redis
) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    moves = [(card, seat) for card in range(1, 13) for seat in range(3)]
    for i, (card, seat) in enumerate(moves):
        if i == len(moves) - 1:
            redis_client.script_flush()  # Redis restarted: it holds none of the scripts the last move's writes call
        response = api.http.post(
            f"/v1/games/{table.id}/moves", json={"type": "play", "card": card}, headers=api.auth(table, seat)
        )
        assert response.status_code == 200, response.json
    entry = api.http.get("/v1/games", query_string={"status": "finished"}).json
    assert [game["game_id"] for game in entry] == [table.id]
    assert redis_client.get(keys.pending_job("tally", table.id)) is not None
    assert len(redis_client.lrange("rq:queue:syndicate", 0, -1)) == 1
