"""What the lobby lists: a finished game with its winners and scores; not a waiting game nobody sits at any more
once it is an hour old (its people left it, or nobody came), nor a game in progress without a move deadline an hour
after its last event (its people stopped playing)."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from datetime import UTC, datetime

import redis
from flask import Flask

from games import table as tables
from projections.lobby import game_key
from service.application import queries
from service.application.services import Services
from service.http import context
from tests.client import ApiClient


def listed(services: Services, game_id: str, status: str | None, now: float | None = None) -> bool:
    _, page = queries.lobby(services, status, "twelve-gangsters", 0, 100, now)
    return game_id in {e["game_id"] for e in page}


def test_a_finished_game_is_listed_with_its_winners_and_scores(api: ApiClient, drain: Callable[[], None]) -> None:
    table = api.create(seats=[{"bot": "random"}, {"bot": "smart"}, {"bot": "random"}])
    drain()
    result = api.result(table).json
    [entry] = [g for g in api.http.get("/v1/games?status=finished").json if g["game_id"] == table.id]
    assert entry["winners"] == result["winners"] and entry["scores"] == result["scores"]


def test_a_waiting_game_nobody_sits_at_leaves_the_lobby_after_an_hour(api: ApiClient, services: Services) -> None:
    empty = api.create(seats=[{"open": True}, {"open": True}, {"bot": "smart"}])
    left = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    assert api.http.post(f"/v1/games/{left.id}/leave", headers=api.auth(left, 0)).status_code == 200
    seated = api.create(seats=[{"name": "Bob"}, {"open": True}, {"open": True}])
    later = time.time() + queries.ABANDONED_AFTER_S + 60
    for table in (empty, left, seated):
        assert listed(services, table.id, "waiting")  # young: listed, whoever sits there
    assert not listed(services, empty.id, "waiting", later) and not listed(services, left.id, "waiting", later)
    assert listed(services, seated.id, "waiting", later)  # Bob still waits there
    assert api.game(empty)["status"] == "waiting"  # its link still opens it


def clock_at(app: Flask, moment: float) -> None:
    """The service records every event from now on at `moment`."""
    at = tables.utc_iso(datetime.fromtimestamp(moment, UTC))
    context.attach(app, dataclasses.replace(context.services_of(app), clock=lambda: at))


def test_a_game_in_progress_nobody_moves_in_leaves_the_lobby_an_hour_after_its_last_event(
    app: Flask, api: ApiClient, services: Services
) -> None:
    idle = api.create(options={"first_boss": 0})
    timed = api.create(options={"first_boss": 0, "move_deadline_s": 86_400})  # its deadline moves it on by itself
    later = time.time() + queries.ABANDONED_AFTER_S + 120
    assert listed(services, idle.id, "in_progress") and listed(services, timed.id, "in_progress")
    assert not listed(services, idle.id, "in_progress", later) and not listed(services, idle.id, None, later)
    assert listed(services, timed.id, "in_progress", later)
    total, _ = queries.lobby(services, "in_progress", "twelve-gangsters", 0, 100, later)
    assert total == 1  # the idle game is not counted either

    # The lobby rebuilt from the logs alone knows as much: the time is the events'.
    services.projections.rebuild()
    assert listed(services, idle.id, "in_progress") and not listed(services, idle.id, "in_progress", later)
    assert listed(services, timed.id, "in_progress", later)

    # Its link still opens it, its seats can still play, and a move brings it back, until it is idle again.
    assert api.game(idle)["status"] == "in_progress"
    clock_at(app, later)
    assert api.play(idle, 0, 5).status_code == 200
    [entry] = services.projections.lobby.entries([idle.id])
    assert entry["moved_at"] == tables.utc_iso(datetime.fromtimestamp(later, UTC))[:16] + ":00.000Z"
    assert listed(services, idle.id, "in_progress", later + 60)
    assert not listed(services, idle.id, "in_progress", later + queries.ABANDONED_AFTER_S + 120)


def test_the_lobby_learns_of_moves_once_a_minute_and_never_goes_back(app: Flask, api: ApiClient) -> None:
    start = time.time()
    clock_at(app, start)
    table = api.create(options={"first_boss": 0})
    lobby = context.services_of(app).projections.lobby
    [before] = lobby.entries([table.id])
    assert api.play(table, 0, 5).status_code == 200  # the same minute: nothing new to show
    assert lobby.entries([table.id]) == [before]
    clock_at(app, start + 60)
    assert api.play(table, 1, 5).status_code == 200
    [after] = lobby.entries([table.id])
    assert after["moved_at"] > before["moved_at"] and after["version"] == before["version"]
    old = context.services_of(app).repository.at(context.services_of(app).repository.get(table.id), 3)
    lobby.project(old)  # a late copy of an earlier decision
    assert lobby.entries([table.id]) == [after]


def test_an_entry_an_older_service_wrote_without_moved_at_is_written_again(
    api: ApiClient, services: Services, redis_client: redis.Redis
) -> None:
    table = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    written = json.loads(redis_client.get(game_key(table.id)))
    del written["moved_at"]
    redis_client.set(game_key(table.id), json.dumps(written))
    [entry] = services.projections.lobby.entries([table.id])
    assert entry["moved_at"] and json.loads(redis_client.get(game_key(table.id)))["moved_at"] == entry["moved_at"]


def test_a_seats_auto_pass_shows_in_the_lobby_as_soon_as_it_is_set(app: Flask, api: ApiClient) -> None:
    clock_at(app, time.time())  # every event in one minute: only what the lobby shows feeds it
    table = api.create("mobsters")
    answer = api.http.post(f"/v1/games/{table.id}/auto-pass", json={"decisions": ["law"]}, headers=api.auth(table, 1))
    assert answer.status_code == 200
    [entry] = context.services_of(app).projections.lobby.entries([table.id])
    assert entry["seats"][1]["auto_pass"] == ["law"]
