"""Auto-pass: a seat asks the house to pass Mobsters phases for it. The house then ends each such phase as soon as it
begins, by the same command whatever the hand holds: twin games alike but for one seat's hand (a mobster it could
recruit, or none) look the same to every other seat and to a spectator, event for event and command for command."""

from __future__ import annotations

from typing import Any

from games.mobsters.cards import CARDS, Kind
from service.application.house import House
from service.application.services import Services
from tests.client import ApiClient, Table, assert_problem
from tests.http.test_hidden_information_mobsters import HIDER, seen, stacked_game

PHASES = ["draw", "hit", "crime", "collection", "recruit", "law"]


def auto_pass(api: ApiClient, table: Table, seat: int, decisions: list[str]) -> Any:
    return api.http.post(
        f"/v1/games/{table.id}/auto-pass", json={"decisions": decisions}, headers=api.auth(table, seat)
    )


def started(api: ApiClient, services: Services, dealt_a_mobster: bool) -> Table:
    """A three-seat game past its setup, seat 0 to play; seat 1 holds a mobster it could recruit, or none."""
    table = stacked_game(services, 3, dealt_a_mobster)
    for seat in [2, HIDER, 0]:
        assert api.send(table, seat, {"type": "keep_hand"}).status_code == 200
    return table


def house_turns(house: House, table: Table, api: ApiClient) -> None:
    """The house's jobs run until it owes nothing more (as the worker runs them, at once)."""
    for _ in range(20):
        if str(house.play_bots(table.id)) == "moved on":
            return


def test_the_house_passes_the_phases_a_seat_chose_whatever_its_hand(
    api: ApiClient, services: Services, house: House
) -> None:
    twins = [started(api, services, dealt_a_mobster=False), started(api, services, dealt_a_mobster=True)]
    hands = [api.game(t, HIDER)["you"]["hand"] for t in twins]
    assert [any(CARDS[c].kind is Kind.MOBSTER for c in hand) for hand in hands] == [False, True]

    for table in twins:
        answer = auto_pass(api, table, HIDER, ["law", *PHASES])
        assert answer.status_code == 200, answer.json
        assert answer.json["seats"][HIDER]["auto_pass"] == PHASES  # in the game's order, each once
        for _ in PHASES:  # seat 0 plays its turn by hand
            assert api.send(table, 0, {"type": "end_phase"}).status_code == 200
        house_turns(house, table, api)

    # Seat 1 clicked nothing: its whole turn passed, and seat 2 is to play, in both games.
    commands = []
    for table in twins:
        assert api.game(table)["awaiting"] == [{"seat": 2, "decision": "draw", "simultaneous": False}]
        own = [(e["version"], e["type"], e["command"]) for e in api.events(table, HIDER) if "command" in e]
        assert [c for _, _, c in own[-6:]] == [
            {"name": "move", "seat": HIDER, "move": {"type": "end_phase"}, "by": "auto_pass"}
        ] * 6
        commands.append(own)
    assert commands[0] == commands[1]  # the same commands, at the same versions
    # What the others and a spectator see, events and commands in their order included, is the same.
    for viewer in [None, 0, 2]:
        a, b = (seen(api, t, viewer) for t in twins)
        assert a == b, viewer
    assert [api.game(t, HIDER)["you"]["hand"] for t in twins] != [hands[0], hands[0]]  # the hands still differ


def test_a_seat_may_stop_auto_pass_and_choose_only_what_its_game_passes(
    api: ApiClient, services: Services, house: House
) -> None:
    table = started(api, services, dealt_a_mobster=True)
    assert_problem(auto_pass(api, table, HIDER, ["setup"]), 422, "invalid_request")
    assert auto_pass(api, table, HIDER, ["hit"]).status_code == 200
    assert auto_pass(api, table, HIDER, []).status_code == 200
    assert "auto_pass" not in api.game(table)["seats"][HIDER]
    assert auto_pass(api, Table(table.id), None, ["hit"]).status_code == 401
    changes = [e for e in api.events(table) if e["type"] == "auto_pass_set"]
    assert [e["payload"] for e in changes] == [{"seat": HIDER, "decisions": ["hit"]}, {"seat": HIDER, "decisions": []}]

    for _ in PHASES:
        api.send(table, 0, {"type": "end_phase"})
    house_turns(house, table, api)
    assert api.game(table)["awaiting"] == [{"seat": HIDER, "decision": "draw", "simultaneous": False}]


def test_the_house_passes_a_phase_owed_when_the_seat_asks_and_the_log_audits(api: ApiClient, house: House) -> None:
    table = api.create("mobsters", options={"first_player": 0})
    for seat in range(3):  # every seat keeps its hand: no redeal
        assert api.send(table, seat, {"type": "keep_hand"}).status_code == 200
    assert api.game(table)["awaiting"] == [{"seat": 0, "decision": "draw", "simultaneous": False}]
    auto_pass(api, table, 0, ["draw", "hit"])
    house_turns(house, table, api)
    assert api.game(table)["awaiting"] == [{"seat": 0, "decision": "crime", "simultaneous": False}]
    audit = api.http.get(f"/v1/games/{table.id}/audit").json
    assert audit["ok"], audit["problems"]
