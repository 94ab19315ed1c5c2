"""The differential test of the Mobsters setup: twin games alike in everything but whether seat 1 was dealt a
mobster look the same, byte for byte, to every other seat and to a spectator, until seat 1's decision is
revealed: in views, time travel, the event feed, the export, the live feed, move answers and errors."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

import pytest

from events.repository import seal
from games import table as tables
from games.commands import CreateGame
from games.mobsters import RULESET
from games.mobsters.cards import CARDS, DECK, Kind
from service.application.execute import save
from service.application.house import House
from service.application.services import Services
from tests.client import ApiClient, Table, assert_problem
from tests.games.helpers import given
from tests.games.mobsters_helpers import Dice
from tests.http.test_hidden_information import public_feed, public_view
from tests.http.test_hidden_information_history import read_live

HIDER = 1
MOBSTERS = [c for c in DECK if CARDS[c].kind is Kind.MOBSTER]
PLAIN = [c for c in DECK if CARDS[c].kind is not Kind.MOBSTER]


def deck(seats: int, dealt_a_mobster: bool) -> list[str]:
    """The stacked deck: seat 0 holds no mobster, the other seats but the hider one each; the hider holds 7
    plain cards, or 6 of them and a mobster that the twin keeps at the bottom of the deck instead."""
    hands = [PLAIN[7 * s : 7 * s + 7] if s == 0 else [MOBSTERS[s], *PLAIN[7 * s : 7 * s + 6]] for s in range(seats)]
    swapped, bottom = PLAIN[7 * HIDER + 6], MOBSTERS[0]
    if dealt_a_mobster:
        swapped, bottom = bottom, swapped
    hands[HIDER] = [*PLAIN[7 * HIDER : 7 * HIDER + 6], swapped]
    dealt = [c for hand in hands for c in hand]
    return [*dealt, *(c for c in DECK if c not in dealt and c != bottom), bottom]


def stacked_game(services: Services, seats: int, dealt_a_mobster: bool, options: dict[str, Any] | None = None) -> Table:
    """A game created as the service creates one, its deck stacked (the rules take the shuffle's generator)."""
    game_id = secrets.token_hex(8)
    seat_list = [tables.Seat(name=f"P{i}") for i in range(seats)]
    options = {"first_player": 0, **(options or {})}
    opening = tables.create(RULESET, game_id, seat_list, options, 7, "", services.clock())[:2]
    start = RULESET.start(given(RULESET, opening).rules, Dice(deck=deck(seats, dealt_a_mobster)))
    acted = save(services, seal(RULESET, None, [*opening, *start], CreateGame(), None, services.clock()))
    return Table(game_id, dict(acted.handed))


def seen(api: ApiClient, table: Table, viewer: int | None) -> dict[str, Any]:
    """Everything a viewer can read of a game: its view, every past view, the feed, the export, the live feed."""
    view = api.game(table, viewer)
    auth = api.auth(table, viewer)
    past = [
        public_view(api.http.get(f"/v1/games/{table.id}/states/{v}", headers=auth).json)
        for v in range(1, view["version"] + 1)
    ]
    export = api.http.get(f"/v1/games/{table.id}/events", headers={"Accept": "application/x-ndjson", **auth})
    lines = [json.loads(line) for line in export.get_data(as_text=True).splitlines()]
    live = read_live(api, table, viewer)
    assert len(live) == len(lines) == view["version"]
    feeds = {"events": api.events(table, viewer), "export": lines, "live": live}
    return {"view": public_view(view), "past": past, **{k: public_feed(v) for k, v in feeds.items()}}


def assert_alike_to_others(api: ApiClient, twins: list[Table], seats: int) -> None:
    for viewer in [None, *(s for s in range(seats) if s != HIDER)]:
        a, b = (seen(api, t, viewer) for t in twins)
        assert a == b, viewer
        for event in api.events(twins[0], viewer):
            if event["seat"] == HIDER:  # the hider's decision: neither its choice, its command nor its nonce
                assert event["payload"] == {"seat": HIDER}
                assert not {"command", "nonce"} & set(event)


def answers(api: ApiClient, twins: list[Table], seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
    """The same move in both twins: the answers, without what differs per game and per event."""
    replies = [api.send(t, seat, move) for t in twins]
    assert [r.status_code for r in replies] == [200, 200], replies[0].json
    return [{"events": public_feed(r.json["events"]), "game": public_view(r.json["game"])} for r in replies]


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_others_cannot_tell_whether_seat_1_was_dealt_a_mobster_until_it_acts(
    api: ApiClient, services: Services, seats: int
) -> None:
    twins = [stacked_game(services, seats, dealt_a_mobster=False), stacked_game(services, seats, True)]
    view = api.game(twins[0])
    assert view["awaiting"] == [{"seat": s, "decision": "setup", "simultaneous": True} for s in range(seats)]
    assert_alike_to_others(api, twins, seats)

    for seat in range(2, seats):  # the others decide, seat 0 last
        a, b = answers(api, twins, seat, {"type": "keep_hand"})
        assert a == b
        assert_alike_to_others(api, twins, seats)
    for seat in [0, *range(2, seats)]:
        for move, code in [({"type": "end_phase"}, "setup_not_over"), ({"type": "keep_hand"}, "already_decided")]:
            if seat == 0 and move["type"] == "keep_hand":
                continue  # seat 0 has not decided
            bodies = [assert_problem(api.send(t, seat, move), 409, code) for t in twins]
            assert bodies[0] == bodies[1]
    assert [api.version(t) for t in twins] == [view["version"] + seats - 2] * 2

    # The hider's own view tells them apart, as it should.
    hider = [api.game(t, HIDER)["you"] for t in twins]
    assert [m["type"] for m in hider[0]["legal_moves"]] == ["redeal", "keep_hand"]
    assert [m["type"] for m in hider[1]["legal_moves"]] == ["keep_hand"]


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_a_redeal_and_a_keep_look_alike_until_every_seat_has_decided(
    api: ApiClient, services: Services, seats: int
) -> None:
    twins = [stacked_game(services, seats, dealt_a_mobster=False), stacked_game(services, seats, True)]
    for seat in range(2, seats):
        answers(api, twins, seat, {"type": "keep_hand"})

    redealt = api.send(twins[0], HIDER, {"type": "redeal"})
    kept = api.send(twins[1], HIDER, {"type": "keep_hand"})

    assert redealt.json["events"][0]["payload"] == {"seat": HIDER, "redeal": True}  # the hider sees its own
    assert kept.json["events"][0]["payload"] == {"seat": HIDER, "redeal": False}
    assert_alike_to_others(api, twins, seats)
    # Seat 0 decides last: the decisions are revealed, and the redeal happens for all to see.
    revealed = [api.send(t, 0, {"type": "keep_hand"}).json["events"] for t in twins]
    assert [e["type"] for e in revealed[0]][1:4] == [
        "mobsters.setup_revealed",
        "mobsters.cards_discarded",
        "mobsters.cards_drawn",
    ]
    assert revealed[0][1]["payload"] == {"kept": [s for s in range(seats) if s != HIDER], "redealing": [HIDER]}
    assert revealed[1][1]["payload"] == {"kept": list(range(seats)), "redealing": []}
    assert api.game(twins[0])["awaiting"] == [{"seat": HIDER, "decision": "setup", "simultaneous": True}]


@pytest.mark.parametrize("seats", [2, 5])
def test_a_seat_that_keeps_reveals_nothing_even_once_the_game_is_under_way(
    api: ApiClient, services: Services, seats: int
) -> None:
    twins = [stacked_game(services, seats, dealt_a_mobster=False), stacked_game(services, seats, True)]
    for seat in [*range(2, seats), HIDER, 0]:
        answers(api, twins, seat, {"type": "keep_hand"})

    assert api.game(twins[0])["awaiting"] == [{"seat": 0, "decision": "draw", "simultaneous": False}]
    assert_alike_to_others(api, twins, seats)


@pytest.mark.parametrize("dealt_a_mobster", [False, True])
def test_a_deadline_makes_the_setup_decision_of_every_seat_still_awaited(
    api: ApiClient, services: Services, house: House, dealt_a_mobster: bool
) -> None:
    table = stacked_game(services, 3, dealt_a_mobster, {"move_deadline_s": 60})
    wait = api.game(table)["waiting_since"]
    api.send(table, 2, {"type": "keep_hand"})

    house.clock = lambda: time.time() + 120  # the minute is up
    assert str(house.expire(table.id, wait)) == "played for 2 seats"

    decided = [e for e in api.events(table, HIDER) if e["type"] == "mobsters.setup_decided"]
    assert [e["seat"] for e in decided] == [2, 0, 1]
    assert [e["command"]["by"] for e in decided if e["seat"] == HIDER] == ["deadline"]
    if dealt_a_mobster:
        assert decided[-1]["payload"] == {"seat": HIDER, "redeal": False}
    assert [e["type"] for e in api.events(table)].count("mobsters.setup_revealed") == 1
