"""Nobody is stranded at a waiting table: a seated player starts with the house's bots at once, where the game
offers it (`bots_after_s`) or as its creator; and a quick match's game moves on by itself (its deadline, its bots).
The house's timer is in tests/workers/test_workers.py."""

from __future__ import annotations

from collections.abc import Callable

from tests.client import ApiClient, Table, assert_problem
from tests.players.helpers import bearer, create, join

OPEN = {"open": True}


def start(api: ApiClient, table: Table, headers: dict[str, str]):
    return api.http.post(f"/v1/games/{table.id}/start-with-bots", headers=headers)


def test_a_seated_player_starts_a_game_that_offers_it_with_the_house_s_smart_bots(api: ApiClient) -> None:
    ann, bob = api.register("Ann"), api.register("Bob")
    table = create(api, ann, [{"player": "me"}, OPEN, OPEN, OPEN], options={"bots_after_s": 600})
    assert table.body["bots_at"] > table.body["created_at"]
    join(api, table, bob)
    started = start(api, table, bearer(bob))
    assert started.status_code == 200, started.json
    view = started.json
    assert view["status"] == "in_progress" and "bots_at" not in view
    assert [s.get("bot") for s in view["seats"]] == [None, None, "smart", "smart"]
    events = api.events(table)
    assert [e["type"] for e in events][2:4] == ["bots_seated", "game_started"]
    [seated] = [e for e in events if e["type"] == "bots_seated"]
    assert seated["payload"] == {"seats": [2, 3], "bot": "smart"}
    assert api.http.get(f"/v1/games/{table.id}/audit").json["ok"]
    assert_problem(start(api, table, bearer(bob)), 409, "game_already_started")


def test_without_the_option_only_the_creator_starts_with_bots(api: ApiClient) -> None:
    ann, bob, eve = api.register("Ann"), api.register("Bob"), api.register("Eve")
    table = create(api, ann, [{"player": "me"}, OPEN, OPEN])
    assert "bots_at" not in table.body
    join(api, table, bob)
    before = api.game(table)["version"]
    assert_problem(start(api, table, bearer(bob)), 409, "bots_not_offered")  # a joiner may not fill the others'
    assert_problem(start(api, table, bearer(eve)), 409, "bots_not_offered")  # nor anyone not seated
    assert_problem(start(api, table, {}), 401, "invalid_token")
    assert api.game(table)["version"] == before  # refused: nothing changed
    assert start(api, table, bearer(ann)).json["seats"][2]["bot"] == "smart"


def test_a_seat_named_at_creation_may_start_its_game_with_bots(api: ApiClient) -> None:
    table = api.create(seats=[{"name": "Ann"}, OPEN, OPEN])
    assert api.join(table, "Bob").status_code == 201
    assert_problem(start(api, table, api.auth(table, 1)), 409, "bots_not_offered")
    assert start(api, table, api.auth(table, 0)).json["status"] == "in_progress"


def test_a_seat_kept_for_an_invited_player_is_filled_too(api: ApiClient, drain: Callable[[], None]) -> None:
    ann, bob = api.register("Ann"), api.register("Bob")
    first = create(api, ann, [{"player": "me"}, OPEN, {"bot": "random"}], options={"bots_after_s": 600})
    join(api, first, bob)
    while api.game(first)["status"] != "finished":
        for token in (ann, bob):
            view = api.http.get(f"/v1/games/{first.id}", headers=bearer(token)).json
            if view["you"]["legal_moves"]:
                api.http.post(f"/v1/games/{first.id}/moves", json=view["you"]["legal_moves"][0], headers=bearer(token))
        drain()
    rematch = api.http.post(f"/v1/games/{first.id}/rematch", headers=bearer(ann)).json
    assert rematch["seats"][1].get("invited")
    started = start(api, Table(rematch["game_id"]), bearer(ann)).json
    assert [s.get("bot") for s in started["seats"]] == [None, "smart", "random"]


def test_a_quick_match_game_has_a_move_deadline_and_bots_after_a_short_wait(api: ApiClient) -> None:
    ann = api.register("Ann")
    matched = api.http.post("/v1/quick-match", json={"ruleset": "mobsters", "seat_count": 3}, headers=bearer(ann)).json
    game = matched["game"]
    assert game["options"]["move_deadline_s"] == 60 and game["options"]["bots_after_s"] == 30
    assert game["bots_at"] > game["created_at"]
    started = start(api, Table(game["game_id"]), bearer(ann)).json
    assert started["status"] == "in_progress" and started["time_limit_s"] == 60
