"""The benchmark harness measures what it says: the baseline answers like a move path, the load generator
counts moves and errors, games play to their end from the public views. Real Redis, no timing asserted."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from werkzeug.serving import make_server

from benchmarks import baseline, http_load
from benchmarks.common import own_redis
from benchmarks.inprocess import UseCases
from benchmarks.play import play
from benchmarks.roundtrips import counting
from benchmarks.storage import copy_corpus, game_keys, key_kind
from events.store import RedisEventStore
from service.ops.redis_server import RedisServer, free_port


def test_the_baseline_appends_with_a_version_check(redis_server: RedisServer, redis_client: redis.Redis) -> None:
    http = baseline.create_app(redis_server.url).test_client()
    auth = {"Authorization": "Bearer x"}

    first = http.post("/v1/games/g1/moves", json={"type": "play", "card": 1}, headers={**auth, "If-Match": "0"})
    second = http.post("/v1/games/g1/moves", json={"type": "play", "card": 2}, headers=auth)
    stale = http.post("/v1/games/g1/moves", json={"type": "play", "card": 3}, headers={"If-Match": '"1"'})
    malformed = http.post("/v1/games/g1/moves", data=b"{", content_type="application/json")

    assert (first.status_code, first.json) == (200, {"version": 1})
    assert (second.status_code, second.json) == (200, {"version": 2})
    assert (stale.status_code, stale.json["version"]) == (412, 2)
    assert malformed.status_code == 400
    assert redis_client.xlen(baseline.stream_key("g1")) == 2


@pytest.fixture
def served_baseline(redis_server: RedisServer, redis_client: redis.Redis) -> Iterator[int]:
    """The baseline app on a port of its own (werkzeug, in a thread), for the load generator to drive."""
    port = free_port()
    server = make_server("127.0.0.1", port, baseline.create_app(redis_server.url), threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield port
    server.shutdown()
    thread.join(timeout=10)


def test_the_load_generator_counts_moves_answered_200(served_baseline: int) -> None:
    result = http_load.run_client("baseline", "127.0.0.1", served_baseline, time.time(), 0.3)

    assert result.moves > 0
    assert result.errors == 0
    assert len(result.latencies) == result.moves
    assert result.places[:4] == [1, 2, 3, 4]  # each move's place in its game, beside its latency
    assert set(result.places) <= set(range(1, 37))


def test_the_tail_is_told_by_the_places_of_its_moves() -> None:
    # 100 moves: the last of each game slow, and one first move; the others fast.
    places = [1 + i % 36 for i in range(100)]
    latencies = [0.030 if p == 36 else 0.020 if i == 36 else 0.010 for i, p in enumerate(places)]
    client = http_load.ClientResult(moves=100, latencies=latencies, places=places)

    tail = http_load.RoundResult("service", [client]).tail(97)

    assert tail["last"] == (pytest.approx(2 / 3), pytest.approx(30.0))
    assert tail["first 3"] == (pytest.approx(1 / 3), pytest.approx(10.0))
    assert tail["others"] == (0.0, pytest.approx(10.0))


def test_the_load_generator_counts_every_other_answer_as_an_error(served_baseline: int) -> None:
    # The baseline has no POST /v1/games: a service client's every create is refused.
    result = http_load.run_client("service", "127.0.0.1", served_baseline, time.time(), 0.2)

    assert result.moves == 0
    assert result.errors > 0
    assert result.first_errors[0].startswith("create: 404")
    assert len(result.first_errors) <= http_load.MAX_ERRORS_KEPT


def test_a_broken_connection_is_an_error() -> None:
    conn = http_load.Connection("127.0.0.1", free_port())  # nobody listens there

    status, detail = conn.request("POST", "/v1/games/x/moves", b"{}", {})

    assert status == 0
    assert b"ConnectionRefusedError" in detail


def test_games_play_to_their_end_from_the_public_views(redis_server: RedisServer, redis_client: redis.Redis) -> None:
    service = UseCases(redis_server.url)
    moves: list[int] = []

    played = play(service, "twelve-gangsters", 3, random.Random(1), on_move=lambda v, *_: moves.append(v))
    service.tally([played.game_id])

    assert played.status == "finished"
    assert played.moves == 36 == len(moves)
    assert service.look(played.game_id)["version"] == played.version + 1  # the tally
    assert {"events", "snapshot", "tokens", "views", "result", "lobby"} <= set(game_keys(redis_client, played.game_id))
    assert service.rebuild() == 1


def test_a_key_is_named_by_its_part_after_the_games_hash_tag() -> None:
    assert key_kind("syndicate:game:{abc}:events", "abc") == "events"
    assert key_kind("syndicate:game:{abc}:idempotency:k:1", "abc") == "idempotency"
    assert key_kind("syndicate:{lobby}:game:abc", "abc") == "lobby"


def test_round_trips_are_counted_once_per_request_or_pipeline(redis_client: redis.Redis) -> None:
    with counting() as trips:
        redis_client.ping()
        pipe = redis_client.pipeline(transaction=False)
        pipe.set("a", 1).get("a").delete("a")
        pipe.execute()

    assert trips[0] == 2


def test_another_checkouts_rebuild_gets_the_corpus_written_by_its_own_store(
    redis_server: RedisServer, redis_client: redis.Redis, tmp_path: Path
) -> None:
    service = UseCases(redis_server.url)
    played = [play(service, "twelve-gangsters", 3, random.Random(seed)).game_id for seed in (1, 2)]
    service.tally(played)

    with own_redis("everysec") as other:
        copy_corpus(redis_server.url, other.url, Path.cwd(), tmp_path / "logs.ndjson")  # this tree, as its own other
        copied = redis.Redis.from_url(other.url)

        assert RedisEventStore(copied).read_logs(played) == RedisEventStore(redis_client).read_logs(played)
        assert sorted(copied.scan_iter()) == sorted(redis_client.scan_iter())
        for key in redis_client.scan_iter():
            assert contents(copied, key) == contents(redis_client, key), key


def contents(client: redis.Redis, key: bytes) -> object:
    kind = client.type(key)
    if kind == b"stream":
        return client.xrange(key)
    if kind == b"hash":
        return client.hgetall(key)
    if kind == b"zset":
        return client.zrange(key, 0, -1, withscores=True)
    if kind == b"set":
        return client.smembers(key)
    return client.get(key)


def test_make_bench_ends_with_each_goal_against_what_the_run_measured() -> None:
    from benchmarks.__main__ import goals

    lines = goals(
        {
            "http": {"baseline": {"rate": 300, "p99": 60.0}, "service": {"rate": 200, "p99": 150.0}},
            "long_game": {"long_ms": 3.0, "short_ms": 3.0},
            "players": {"seat tokens": 0.40, "player tokens": 0.52},
            "storage": {
                "rebuild": {"events": 60_000, "seconds": 1.0},
                "memory": {"twelve-gangsters/3": {"kib_per_game": 39.8}},
            },
        }
    )
    verdicts = {line.split("  ")[0].strip(): line.rsplit("  ", 1)[1] for line in lines[1:]}
    assert verdicts == {
        "HTTP throughput, service/baseline": "met",
        "HTTP p99, service/baseline": "NOT met",
        "a move at version ~1,000 against ~10": "met",
        "a player's move against a seat's": "NOT met",
        "projection rebuild, events/s": "met",
        "a finished 12 Gangsters game, KiB": "NOT met",
    }


def test_make_bench_holds_the_guides_bot_to_two_requests_a_move_and_no_429() -> None:
    from benchmarks.__main__ import goals

    bots = {
        "mobsters": {"moves": 290, "requests": 292, "429": 0},
        "cash-n-guns": {"moves": 50, "requests": 52, "429": 0},
    }
    lines = goals({"bot_loop": bots})
    verdicts = {line.split("  ")[0].strip(): line.rsplit("  ", 1)[1] for line in lines[1:]}
    assert verdicts == {"the guide's bot, requests per move": "met", "the guide's bot, 429s": "met"}
    bots["cash-n-guns"]["429"] = 1
    verdicts = {line.split("  ")[0].strip(): line.rsplit("  ", 1)[1] for line in goals({"bot_loop": bots})[1:]}
    assert verdicts["the guide's bot, 429s"] == "NOT met"


def test_the_bot_loop_reads_each_budgets_most_spent_from_the_answers() -> None:
    import httpx

    from benchmarks.bot_loop import note, route

    spent: dict[str, int] = {}
    for remaining in (2990, 2950, 2970):
        told = {"RateLimit-Limit": "3000", "RateLimit-Remaining": str(remaining), "RateLimit-Policy": "3000;w=60"}
        note(spent, httpx.Headers(told))
    note(spent, httpx.Headers({}))
    assert spent == {"3000;w=60": 50}
    request = httpx.Request("POST", "http://127.0.0.1/v1/games/5f0c2a9e8b7d6c41/moves")
    assert route(request) == "POST /v1/games/{id}/moves"
