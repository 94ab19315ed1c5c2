"""Real worker processes (`syndicate worker`) against the test's real Redis."""

from __future__ import annotations

import os
import signal

import pytest

from tests.client import ApiClient
from tests.waiting import wait_for
from tests.workers.conftest import tallied


@pytest.mark.parametrize("players", [3, 6])
def test_an_all_bot_game_plays_to_its_end_and_is_tallied(api: ApiClient, start_worker, players: int) -> None:
    start_worker()
    table = api.create(seats=[{"bot": "random"}] * players)
    wait_for(lambda: tallied(api, table), what="the tally")
    events = api.events(table)
    assert events[-1]["type"] == "game_tallied"
    assert events[-1]["payload"]["result"]["scores"] == api.result(table).json["scores"]
    assert api.http.get(f"/v1/games/{table.id}/audit").json["ok"]
    board = api.http.get("/v1/leaderboard?ruleset=twelve-gangsters").json["players"]
    assert board == [{**board[0], "rank": 1, "bot": "random", "games": 1}]  # one game, however many seats


def test_a_human_seat_that_misses_a_short_deadline_is_played_for(api: ApiClient, start_worker) -> None:
    start_worker()
    table = api.create(seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}], options={"move_deadline_s": 1})
    wait_for(lambda: api.game(table)["state"]["round"] >= 3, what="two rounds played for Ann")
    ann = [e for e in api.events(table, seat=0) if e["type"] == "twelve_gangsters.gangster_played" and e["seat"] == 0]
    assert len(ann) >= 2 and all(e["command"]["by"] == "deadline" for e in ann)
    assert api.game(table, 0)["you"]["legal_moves"] or api.game(table)["status"] == "finished"


def test_a_human_who_moves_in_time_is_not_played_for(api: ApiClient, start_worker) -> None:
    start_worker()
    table = api.create(seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}], options={"move_deadline_s": 3})
    assert api.play(table, 0, 12).status_code == 200
    wait_for(lambda: api.game(table)["state"]["round"] == 2, what="the bots to finish round 1")
    ann = [e for e in api.events(table, seat=0) if e["type"] == "twelve_gangsters.gangster_played" and e["seat"] == 0]
    assert [e["payload"]["card"] for e in ann] == [12] and "by" not in ann[0]["command"]


def test_a_worker_killed_mid_game_does_not_stall_it(api: ApiClient, start_worker) -> None:
    first = start_worker()
    # Mobsters: hundreds of turns of the house, one move each, so the kill falls mid-game.
    table = api.create("mobsters", seats=[{"bot": "smart"}, {"bot": "random"}, {"bot": "random"}])
    wait_for(lambda: api.game(table)["version"] > 15, what="the game to get going")
    os.killpg(first.pid, signal.SIGKILL)  # the worker and its scheduler die mid-job, as in a crash
    first.wait(timeout=10)
    stopped_at = api.game(table)["version"]
    start_worker()
    wait_for(lambda: tallied(api, table), what="the game to finish after the kill")
    assert api.game(table)["version"] > stopped_at
    assert api.http.get(f"/v1/games/{table.id}/audit").json["ok"]


@pytest.mark.parametrize(("ruleset", "players"), [("cash-n-guns", 5), ("mobsters", 3)])
def test_an_all_bot_game_of_every_ruleset_is_played_tallied_and_audited(
    api: ApiClient, start_worker, ruleset: str, players: int
) -> None:
    start_worker()
    table = api.create(ruleset, seats=[{"bot": "random"}] * players, options={})
    wait_for(lambda: tallied(api, table), timeout_s=120, what="the tally")
    assert api.events(table)[-1]["type"] == "game_tallied"
    assert api.http.get(f"/v1/games/{table.id}/audit").json["ok"]
