"""The catalogue of games and the health check."""

from __future__ import annotations

import dataclasses
from typing import Any

from flask import Flask

from service.config import Config
from service.http.app import create_app
from service.ops.redis_server import free_port
from tests.client import ApiClient


def test_rulesets_list_twelve_gangsters_for_three_to_six_players_with_its_options_and_moves(api: ApiClient) -> None:
    response = api.http.get("/v1/rulesets")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    offered = {r["id"]: r for r in response.json}
    gangsters = offered["twelve-gangsters"]
    assert gangsters["name"] == "12 Gangsters"
    assert (gangsters["min_players"], gangsters["max_players"]) == (3, 6)
    assert gangsters["description"]
    options = {o["name"]: o for o in gangsters["options"]}
    assert set(options) == {"first_boss", "move_deadline_s", "bots_after_s"}
    assert (options["first_boss"]["type"], options["first_boss"]["default"]) == ("integer", None)
    assert all(o["description"] for o in options.values())
    assert gangsters["bots"] == ["hard", "random", "smart"]
    assert set(gangsters["bot_descriptions"]) == set(gangsters["bots"])
    assert all(gangsters["bot_descriptions"].values())
    assert gangsters["move_types"] == ["play"]
    play = gangsters["moves"]["play"]
    assert play["properties"]["card"]["type"] == "integer" and play["required"] == ["type", "card"]
    assert "$ref" not in str(play)


def test_each_bot_kind_is_listed_with_its_rating_as_the_leaderboard_has_it(api: ApiClient, drain) -> None:
    def bot_ratings() -> dict[str, Any]:
        return {r["id"]: r["bot_ratings"] for r in api.http.get("/v1/rulesets").json}["twelve-gangsters"]

    assert bot_ratings() == {"hard": None, "random": None, "smart": None}  # nothing rated yet
    table = api.create(seats=[{"bot": "smart"}, {"bot": "random"}, {"bot": "random"}])  # secret randomness: rated
    drain()
    assert api.game(table)["status"] == "finished"
    board = api.http.get("/v1/leaderboard?ruleset=twelve-gangsters").json["players"]
    rated = {row["bot"]: {k: row[k] for k in ("rating", "mu", "sigma", "games", "wins")} for row in board}
    assert set(rated) == {"random", "smart"} and rated["smart"]["games"] == 1
    assert bot_ratings() == {"hard": None, **rated}


def test_every_integer_option_lists_its_bounds_and_a_bound_is_what_creation_enforces(api: ApiClient) -> None:
    offered = {r["id"]: r for r in api.http.get("/v1/rulesets").json}
    options = {o["name"]: o for o in offered["cash-n-guns"]["options"]}
    assert (options["move_deadline_s"]["minimum"], options["move_deadline_s"]["maximum"]) == (1, 7 * 24 * 3600)
    assert (options["aim_window_s"]["minimum"], options["aim_window_s"]["maximum"]) == (1, 3600)
    seats = [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]
    for name in ("move_deadline_s", "aim_window_s"):
        at_most = api.http.post(
            "/v1/games", json={"ruleset": "cash-n-guns", "seats": seats, "options": {name: options[name]["maximum"]}}
        )
        beyond = api.http.post(
            "/v1/games",
            json={"ruleset": "cash-n-guns", "seats": seats, "options": {name: options[name]["maximum"] + 1}},
        )
        assert (at_most.status_code, beyond.status_code) == (201, 422)
    first_boss = {o["name"]: o for o in offered["twelve-gangsters"]["options"]}["first_boss"]
    assert (first_boss["minimum"], first_boss["maximum"]) == (0, None)  # up to the last seat of the game


def test_every_listed_move_type_is_what_legal_moves_offer(api: ApiClient) -> None:
    offered = {r["id"]: r for r in api.http.get("/v1/rulesets").json}
    table = api.create(players=3, options={"first_boss": 0})
    moves = api.game(table, 0)["you"]["legal_moves"]
    assert {m["type"] for m in moves} == set(offered["twelve-gangsters"]["move_types"])


def test_every_listed_ruleset_can_host_a_game_at_its_smallest_table(api: ApiClient) -> None:
    for ruleset in api.http.get("/v1/rulesets").json:
        seats = [{"name": f"P{i}"} for i in range(ruleset["min_players"])]
        response = api.http.post("/v1/games", json={"ruleset": ruleset["id"], "seats": seats})
        assert response.status_code == 201, response.json
        assert response.json["ruleset"] == ruleset["id"]


def test_health_is_ok_when_redis_answers(api: ApiClient) -> None:
    response = api.http.get("/healthz")
    assert response.status_code == 200
    assert response.json == {"status": "ok", "redis": "ok"}


def test_health_is_never_rate_limited(config: Config) -> None:
    http = create_app(dataclasses.replace(config, rate_limit="1 per minute"), TESTING=True).test_client()
    for _ in range(5):
        assert http.get("/healthz").status_code == 200


def test_health_is_503_degraded_when_redis_does_not_answer(config: Config) -> None:
    dead = dataclasses.replace(config, redis_url=f"redis://127.0.0.1:{free_port()}/0")
    app: Flask = create_app(dead, TESTING=True)
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.json == {"status": "degraded", "redis": "unreachable"}
