"""What the lobby lists: a finished game with its winners and scores; not a waiting game nobody sits at any more
once it is an hour old (its people left it, or nobody came)."""

from __future__ import annotations

import time
from collections.abc import Callable

from service.application import queries
from service.application.services import Services
from tests.client import ApiClient


def listed(services: Services, game_id: str, status: str, now: float | None = None) -> bool:
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
