"""Ratings: openskill's Plackett-Luce per ruleset, counted once per game by the tally, the same whatever order
the tallies ran in, and rebuilt from the logs byte for byte."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest
import redis

import projections
from events import keys
from games.registry import RULESETS
from games.selfplay import play_out
from games.table import Seat
from projections.ratings import (
    RatedSeat,
    RedisRatings,
    Standing,
    board_key,
    fold,
    games_key,
    order_key,
    rate,
    ratings_key,
    standing_of,
)
from service.application.rebuild import rebuild_read_models
from service.bootstrap import bootstrap
from service.http import context
from service.worker import jobs
from tests.client import ApiClient, assert_problem
from tests.players.helpers import bearer, create, join, play_first_legal, player_id
from tests.service.read_models import REMADE_WHEN_ASKED

GANGSTERS = RULESETS["twelve-gangsters"]


def finished(seats: list[Seat], resigned: tuple[int, ...] = (), seed: int = 3, salt: str = "secret") -> Any:
    """A finished game of these seats; its seed kept secret behind `salt`, as the service draws it ("": chosen by
    its creator)."""
    table = play_out(GANGSTERS, ["random"] * len(seats), seed)
    return msgspec.structs.replace(table, seats=tuple(seats), resigned=resigned, salt=salt)


def test_a_game_whose_creator_chose_the_seed_is_not_rated() -> None:
    seats = [Seat(name="A", player="a"), Seat(name="B", player="b"), Seat(name="C", player="c")]
    assert standing_of(GANGSTERS, finished(seats), "t") is not None
    assert standing_of(GANGSTERS, finished(seats, salt=""), "t") is None


def test_a_resigned_seat_ranks_below_every_seat_that_played_on() -> None:
    seats = [Seat(name="A", player="a"), Seat(name="B", player="b"), Seat(name="C", player="c")]
    table = finished(seats, resigned=(0,))
    winners = GANGSTERS.result(table.rules).winners
    standing = standing_of(GANGSTERS, table, "t")
    assert standing is not None
    ranks = {s.identity: s.rank for s in standing.seats}
    assert ranks["a"] == max(ranks.values()) and all(ranks[o] < ranks["a"] for o in ("b", "c"))
    assert not next(s for s in standing.seats if s.identity == "a").won or 0 not in winners


def test_anonymous_seats_are_not_rated_and_a_lone_rated_seat_rates_nothing() -> None:
    one = finished([Seat(name="A", player="a"), Seat(name="B"), Seat(name="C")])
    assert standing_of(GANGSTERS, one, "t") is None
    two = standing_of(GANGSTERS, finished([Seat(name="A", player="a"), Seat(bot="smart"), Seat(name="C")]), "t")
    assert two is not None and [s.identity for s in two.seats] == ["a", "bot:smart"]


def test_a_shared_victory_moves_the_winners_alike_and_the_loser_down() -> None:
    standing = Standing(
        game_id="g",
        order="1",
        seats=(RatedSeat("a", "A", 1, True), RatedSeat("b", "B", 1, True), RatedSeat("c", "C", 3, False)),
    )
    after = rate({}, standing)
    assert after["a"].mu == after["b"].mu > 25 > after["c"].mu
    assert after["a"].wins == after["b"].wins == 1 and after["c"].wins == 0
    assert all(r.sigma < 25 / 3 for r in after.values())


def test_a_bot_seated_twice_moves_by_the_mean_of_its_seats() -> None:
    standing = Standing(
        game_id="g",
        order="1",
        seats=(RatedSeat("bot:random", "bot:random", 1, True), RatedSeat("bot:random", "bot:random", 2, False)),
    )
    after = rate({}, standing)
    assert after["bot:random"].mu == pytest.approx(25, abs=1e-9) and after["bot:random"].games == 1
    # First and third of three: the mean of its seats' moves, not their sum (which would be 24.283).
    three = Standing(
        game_id="h",
        order="2",
        seats=(
            RatedSeat("bot:random", "bot:random", 1, True),
            RatedSeat("a", "A", 2, False),
            RatedSeat("bot:random", "bot:random", 3, False),
        ),
    )
    mean = rate({}, three)["bot:random"]
    assert mean.mu == pytest.approx(24.6414, abs=1e-3) and mean.wins == 1


def standings() -> list[Standing]:
    return [
        Standing(
            game_id=f"g{i}",
            order=f"2026-12-01T00:00:0{i}.000Z|g{i}",
            seats=(
                RatedSeat("a", "A", 1 + i % 2, i % 2 == 0),
                RatedSeat("bot:smart", "bot:smart", 2 - i % 2, i % 2 == 1),
            ),
        )
        for i in range(5)
    ]


def raw(client: redis.Redis, ruleset: str) -> dict[str, Any]:
    found: dict[str, Any] = {
        "ratings": client.hgetall(ratings_key(ruleset)),
        "games": client.hgetall(games_key(ruleset)),
        "board": client.zrange(board_key(ruleset), 0, -1, withscores=True),
        "order": client.get(order_key(ruleset)),
    }
    return found


def test_ratings_are_the_same_whatever_order_the_tallies_are_counted_in(redis_client: redis.Redis) -> None:
    ratings = RedisRatings(redis_client)
    games = standings()
    for standing in games:
        ratings.count("r", standing)
    in_order = raw(redis_client, "r")
    redis_client.flushdb()
    for standing in reversed(games):
        ratings.count("r", standing)
    assert raw(redis_client, "r") == in_order
    assert ratings.board("r", 0, 10)[1][0]["games"] == 5
    folded = fold(games)
    assert {k: v.mu for k, v in folded.items()} == {
        k.decode(): msgspec.json.decode(v)["mu"] for k, v in in_order["ratings"].items()
    }


def test_a_game_counted_twice_is_counted_once(redis_client: redis.Redis) -> None:
    ratings = RedisRatings(redis_client)
    standing = standings()[0]
    assert len(ratings.count("r", standing)) == 2
    once = raw(redis_client, "r")
    assert ratings.count("r", standing) == []
    assert raw(redis_client, "r") == once


def play_rated_games(api: ApiClient, drain: Callable[[], None]) -> list[str]:
    """Finished games of players, bots and an anonymous seat, one with a resignation; the players' tokens."""
    ann, bob = api.register("Ann"), api.register("Bob")
    for ruleset, extra in (("twelve-gangsters", [{"bot": "smart"}]), ("cash-n-guns", [{"bot": "random"}] * 2)):
        for resign in (False, True):
            table = create(api, ann, [{"player": "me"}, {"open": True}, *extra], ruleset=ruleset, options={})
            join(api, table, bob)
            if resign:
                assert api.http.post(f"/v1/games/{table.id}/resign", headers=bearer(bob)).status_code == 200
            drain()
            while api.game(table)["status"] != "finished":
                play_first_legal(api, table, ann) or play_first_legal(api, table, bob)
                drain()
    drain()
    return [ann, bob]


def dump(client: redis.Redis) -> dict[bytes, Any]:
    """Every read model's raw bytes, with each player's state and the name claims."""
    patterns = [*projections.patterns(), "syndicate:player:{*}:state", keys.player_names(), keys.player_skeletons()]
    found: dict[bytes, Any] = {}
    for pattern in patterns:
        for key in client.scan_iter(match=pattern):
            if key.decode().endswith(REMADE_WHEN_ASKED):
                continue
            kind = client.type(key)
            if kind == b"string":
                found[key] = client.get(key)
            elif kind == b"hash":
                found[key] = client.hgetall(key)
            elif kind == b"zset":
                found[key] = client.zrange(key, 0, -1, withscores=True)
            else:
                found[key] = sorted(client.smembers(key))
    return found


def test_rebuilt_ratings_and_players_equal_the_live_ones_byte_for_byte(
    api: ApiClient, redis_client: redis.Redis, drain: Callable[[], None]
) -> None:
    ann, bob = play_rated_games(api, drain)
    api.http.post("/v1/players/me/tokens", headers=bearer(bob))  # a player's log of more than its registration
    live = dump(redis_client)
    assert any(b"{ratings:cash-n-guns}" in k for k in live) and any(b"{ratings:twelve-gangsters}" in k for k in live)
    assert any(k.endswith(b":games") and k.startswith(b"syndicate:player:") for k in live)
    assert rebuild_read_models(bootstrap(client=redis_client)) == 4
    assert dump(redis_client) == live
    board = api.http.get("/v1/leaderboard?ruleset=twelve-gangsters&page_size=2")
    assert [r["rank"] for r in board.json["players"]] == [1, 2] and '"total": 3' in board.headers["X-Pagination"]
    ratings = [r["rating"] for r in board.json["players"]]
    assert ratings == sorted(ratings, reverse=True)
    profile = api.http.get(f"/v1/players/{player_id(api, ann)}").json
    assert set(profile["ratings"]) == {"twelve-gangsters", "cash-n-guns"}
    assert profile["ratings"]["twelve-gangsters"]["games"] == 2
    unknown = api.http.get("/v1/leaderboard?ruleset=nope")
    assert_problem(unknown, 422, "unknown_ruleset")
    assert unknown.json["title"] == "No such ruleset"  # nothing was being created


def test_the_tally_job_run_twice_changes_no_rating(
    api: ApiClient, redis_client: redis.Redis, workshop: jobs.Workshop, drain
) -> None:
    play_rated_games(api, drain)
    services = context.services_of(api.http.application)
    before = dump(redis_client)
    for game_id in services.projections.lobby.active() + [e["game_id"] for e in api.http.get("/v1/games").json]:
        services.projections.catch_up(services.repository.get(game_id))
        with jobs.at(workshop):
            jobs.tally(game_id)
    assert dump(redis_client) == before


def test_games_counted_at_once_by_racing_tallies_are_each_counted_on_the_others(redis_client: redis.Redis) -> None:
    import threading

    games = standings()
    threads = [threading.Thread(target=RedisRatings(redis_client).count, args=("r", s)) for s in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    raced = raw(redis_client, "r")
    redis_client.flushdb()
    RedisRatings(redis_client).write("r", games)
    assert raw(redis_client, "r") == raced
