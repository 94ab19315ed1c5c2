"""A game waiting for players is never left waiting for good: when its `bots_after_s` passes with no one joining,
the worker seats the house's bots and it starts, or it calls off a game nobody sits at any more."""

from __future__ import annotations

import time

from tests.client import ApiClient
from tests.players.helpers import bearer, create, join
from tests.waiting import wait_for
from tests.workers.conftest import tallied

OPEN = {"open": True}


def test_the_house_seats_its_bots_when_no_one_joins_in_time_and_the_game_plays_out(
    api: ApiClient, start_worker
) -> None:
    start_worker()
    ann = api.register("Ann")
    table = create(api, ann, [{"player": "me"}, OPEN, OPEN], options={"bots_after_s": 1, "move_deadline_s": 1})
    wait_for(lambda: api.game(table)["status"] != "waiting", what="the bots to take the open seats")
    view = api.game(table)
    assert [s.get("bot") for s in view["seats"]] == [None, "smart", "smart"]
    wait_for(lambda: tallied(api, table), timeout_s=90, what="the game to end, Ann's moves made at her deadlines")
    seated = next(e for e in api.events(table) if e["type"] == "bots_seated")
    assert seated["command"] == {"name": "start_with_bots", "wait_since": 1}
    assert api.http.get(f"/v1/games/{table.id}/audit").json["ok"]


def test_a_join_starts_the_wait_again(api: ApiClient, start_worker) -> None:
    ann, bob = api.register("Ann"), api.register("Bob")
    table = create(api, ann, [{"player": "me"}, OPEN, OPEN], options={"bots_after_s": 3})
    start_worker()
    time.sleep(2)
    join(api, table, bob)  # two seconds in: the wait for the last seat starts again
    first = api.game(table)["bots_at"]
    time.sleep(1.5)
    assert api.game(table)["status"] == "waiting"  # the first wait's three seconds passed
    wait_for(lambda: api.game(table)["status"] == "in_progress", what="the bots after the second wait")
    seated = next(e for e in api.events(table) if e["type"] == "bots_seated")
    assert seated["at"] >= first and seated["payload"]["seats"] == [2]


def test_a_game_nobody_sits_at_any_more_is_called_off(api: ApiClient, start_worker) -> None:
    start_worker()
    ann = api.register("Ann")
    table = create(api, ann, [{"player": "me"}, OPEN, OPEN], options={"bots_after_s": 1})
    assert api.http.post(f"/v1/games/{table.id}/leave", headers=bearer(ann)).status_code == 200
    wait_for(lambda: api.game(table)["status"] == "aborted", what="the house to call the empty game off")
    assert api.events(table)[-1]["payload"] == {}  # neither a seat nor a player: the house did
    listed = api.http.get("/v1/games?status=waiting").json
    assert table.id not in {g["game_id"] for g in listed}
