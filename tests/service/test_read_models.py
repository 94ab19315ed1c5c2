import json
import random
import threading

import redis

from projections import views
from projections.results import RESULTS
from projections.views import VIEWS
from service.bootstrap import bootstrap
from tests.client import ApiClient
from tests.service.read_models import play_corpus, play_randomly, play_shared_victory, read_models


def test_rebuilt_read_models_equal_the_live_ones_exactly(api: ApiClient, redis_client: redis.Redis, drain) -> None:
    play_corpus(api)
    drain()
    live = read_models(redis_client)
    assert any(":views" in k for k in live) and any(":result" in k for k in live)
    assert bootstrap(client=redis_client).projections.rebuild() == 10
    assert read_models(redis_client) == live
    # Read, folded and written a few games at a time (a batch ends inside the corpus): the same.
    assert bootstrap(client=redis_client).projections.rebuild(batch=3) == 10
    assert read_models(redis_client) == live


def test_a_projection_dropped_and_rebuilt_during_play_converges(api: ApiClient, redis_client: redis.Redis) -> None:
    tables = [api.create(players=4, seed=s) for s in range(3)]
    stop = threading.Event()
    rebuilds = 0

    def rebuild_again_and_again() -> None:
        nonlocal rebuilds
        projections = bootstrap(client=redis_client).projections
        while not stop.is_set():
            projections.rebuild()
            rebuilds += 1

    rebuilder = threading.Thread(target=rebuild_again_and_again)
    rebuilder.start()
    try:
        rng = random.Random(5)
        for table in tables:
            play_randomly(api, table, rng)
    finally:
        stop.set()
        rebuilder.join()
    assert rebuilds > 1
    converged = read_models(redis_client)
    # What the moves projected, with rebuilds racing them, is what the log alone gives.
    bootstrap(client=redis_client).projections.rebuild()
    assert converged == read_models(redis_client)
    assert all(api.http.get(f"/v1/games/{t.id}/result").status_code == 200 for t in tables)


def test_a_result_dropped_after_the_last_commit_comes_back_with_the_next_catch_up(
    api: ApiClient, redis_client: redis.Redis
) -> None:
    # A rebuild drops the views, then the results: a game's last commit landing between the two leaves its
    # views current and its result gone. Writing the read models at that same version must bring it back.
    table = play_shared_victory(api)
    services = bootstrap(client=redis_client)
    result_key = RESULTS.key(table.id)
    expected = redis_client.get(result_key)
    assert expected is not None
    redis_client.delete(result_key)
    assert services.projections is not None
    services.projections.catch_up(services.repository.get(table.id))
    assert redis_client.get(result_key) == expected


def test_lobby_lists_games_newest_first_by_status_and_ruleset_with_pages(api: ApiClient) -> None:
    waiting = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    finished = play_shared_victory(api)
    playing = api.create(players=3)
    listed = api.http.get("/v1/games?page_size=2")
    assert listed.status_code == 200
    assert [g["game_id"] for g in listed.json] == [playing.id, finished.id]
    assert '"total": 3' in listed.headers["X-Pagination"]
    second = api.http.get("/v1/games?page_size=2&page=2").json
    assert [g["game_id"] for g in second] == [waiting.id]
    by_status = {
        s: [g["game_id"] for g in api.http.get(f"/v1/games?status={s}").json]
        for s in ("waiting", "in_progress", "finished")
    }
    assert by_status == {"waiting": [waiting.id], "in_progress": [playing.id], "finished": [finished.id]}
    assert api.http.get("/v1/games?ruleset=cash-n-guns").json == []
    assert api.http.get("/v1/games?status=waiting").json[0]["open_seats"] == 2


def test_a_game_moves_from_waiting_to_in_progress_in_the_lobby(api: ApiClient) -> None:
    table = api.create(seats=[{"name": "Ann"}, {"name": "Bob"}, {"open": True}])
    assert [g["game_id"] for g in api.http.get("/v1/games?status=waiting").json] == [table.id]
    api.join(table, "Cat")
    assert api.http.get("/v1/games?status=waiting").json == []
    assert [g["game_id"] for g in api.http.get("/v1/games?status=in_progress").json] == [table.id]


def test_a_view_behind_the_log_is_brought_up_to_date_when_read(api: ApiClient, redis_client: redis.Redis) -> None:

    table = api.create(players=3, options={"first_boss": 0})
    stale = redis_client.hgetall(VIEWS.key(table.id))
    api.play(table, 0, 4)
    redis_client.delete(VIEWS.key(table.id))
    redis_client.hset(VIEWS.key(table.id), mapping=stale)  # as if the process died before projecting
    view = api.game(table, 0)
    assert view["version"] == api.game(table)["version"]
    assert view["you"]["chosen"] == 4


def test_a_seats_view_is_kept_as_its_own_part_and_read_whole(api: ApiClient, redis_client: redis.Redis) -> None:
    """What only a seat sees is in its `you`: the rest of its view, the spectator's, is not kept again."""
    playing = api.create(players=3, options={"first_boss": 0})
    api.play(playing, 0, 5)
    finished = play_shared_victory(api)

    for table in (playing, finished):
        kept = redis_client.hgetall(VIEWS.key(table.id))
        spectator = api.game(table)
        for seat in range(3):
            assert kept[str(seat).encode()].startswith(b'+{"seat":%d' % seat)
            whole = api.game(table, seat)
            assert whole == {**spectator, "you": whole["you"]} and whole["you"]["seat"] == seat
            assert json.loads(kept[str(seat).encode()][1:]) == whole["you"]
        assert api.http.get(f"/v1/games/{table.id}/audit").json["ok"]
    assert api.game(playing, 0)["you"]["hand"] and "hand" not in json.dumps(api.game(playing))


def test_a_seats_view_that_adds_more_than_its_you_is_kept_whole() -> None:
    spectator = b'{"a":1,"b":[]}'

    assert views.kept(spectator, b'{"a":1,"b":[],"you":{"seat":0}}') == b'+{"seat":0}'
    assert views.kept(spectator, b'{"a":1,"b":[2],"you":{"seat":0}}') == b'{"a":1,"b":[2],"you":{"seat":0}}'
    kept = {"spectator": spectator, "0": b'+{"seat":0}', "1": b'{"a":2,"you":{}}'}
    assert views.view_of(kept, "0") == b'{"a":1,"b":[],"you":{"seat":0}}'
    assert views.view_of(kept, "1") == b'{"a":2,"you":{}}' and views.view_of(kept, "spectator") == spectator
