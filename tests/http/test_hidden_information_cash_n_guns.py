"""The differential test for Ca$h 'n Guns: a loaded bullet card and a courage choice stay hidden from every
other viewer until they are revealed — in views, event feeds, time travel and errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.client import ApiClient, Table
from tests.http.test_hidden_information import public_feed, public_view

HIDER = 1
VIEWERS = [None, 0, 2, 3]
IDS = ["spectator", "seat0", "seat2", "seat3"]


def new_game(api: ApiClient) -> Table:
    seats = [{"name": f"P{i}"} for i in range(4)]
    options = {"first_godfather": 0, "aim_window_s": 600}
    return api.create("cash-n-guns", seats=seats, options=options, seed=11)


def move(api: ApiClient, table: Table, seat: int, body: dict[str, Any]) -> None:
    response = api.send(table, seat, body)
    assert response.status_code == 200, response.json


def loaded_twin(api: ApiClient, card: str) -> Table:
    """Seats 0, 1 and 2 have loaded (seat 1 loaded `card`); seat 3 has not, so nothing is revealed."""
    table = new_game(api)
    for seat in (0, HIDER, 2):
        move(api, table, seat, {"type": "load", "card": card if seat == HIDER else "click"})
    return table


def courage_twin(api: ApiClient, stand: bool) -> Table:
    """Everyone loaded a click and aimed at the next seat, the Godfather skipped his privilege; seats 0, 1
    and 2 have chosen (seat 1 `stand`), seat 3 has not."""
    table = new_game(api)
    for seat in range(4):
        move(api, table, seat, {"type": "load", "card": "click"})
    for seat in range(4):
        move(api, table, seat, {"type": "aim", "target": (seat + 1) % 4})
    move(api, table, 0, {"type": "skip_privilege"})
    for seat in (0, HIDER, 2):
        move(api, table, seat, {"type": "courage", "stand": stand if seat == HIDER else True})
    return table


TWINS = {
    "loaded card": (loaded_twin, ("bang", "click")),
    "courage": (courage_twin, (True, False)),
}


@pytest.mark.parametrize("secret", list(TWINS))
@pytest.mark.parametrize("viewer", VIEWERS, ids=IDS)
def test_other_viewers_see_the_same_game_whatever_the_hidden_choice(
    api: ApiClient, secret: str, viewer: int | None
) -> None:
    build, choices = TWINS[secret]
    a, b = (build(api, choice) for choice in choices)
    [awaited] = api.game(a)["awaiting"]
    assert awaited == {
        "seat": 3,
        "decision": awaited["decision"],
        "simultaneous": awaited["decision"] in ("load", "aim", "courage"),
    }
    assert public_view(api.game(a, viewer)) == public_view(api.game(b, viewer))
    assert public_feed(api.events(a, viewer)) == public_feed(api.events(b, viewer))
    for version in range(1, api.game(a)["version"] + 1):
        past = [api.http.get(f"/v1/games/{t.id}/states/{version}", headers=api.auth(t, viewer)).json for t in (a, b)]
        assert public_view(past[0]) == public_view(past[1])
    assert public_feed(export(api, a, viewer)) == public_feed(export(api, b, viewer))


def export(api: ApiClient, table: Table, viewer: int | None) -> list[dict[str, Any]]:
    headers = {"Accept": "application/x-ndjson", **api.auth(table, viewer)}
    response = api.http.get(f"/v1/games/{table.id}/events", headers=headers)
    return [json.loads(line) for line in response.get_data(as_text=True).splitlines()]


@pytest.mark.parametrize("secret", list(TWINS))
def test_the_hider_sees_its_own_choice(api: ApiClient, secret: str) -> None:
    build, choices = TWINS[secret]
    a, b = (build(api, choice) for choice in choices)
    assert public_view(api.game(a, HIDER)) != public_view(api.game(b, HIDER))
    text = json.dumps(api.game(a, HIDER)["you"])
    assert str(choices[0]).lower() in text.lower()


def test_a_loaded_card_is_not_leaked_by_another_seats_error(api: ApiClient) -> None:
    a, b = loaded_twin(api, "bang"), loaded_twin(api, "click")
    bodies = []
    for table in (a, b):
        response = api.send(table, 0, {"type": "load", "card": "bang"})  # seat 0 has loaded already
        assert response.status_code == 409
        bodies.append(response.json)
    assert bodies[0] == bodies[1]
