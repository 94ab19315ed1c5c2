"""The live feed as clients live with it: `retry:` with the first event, the end of the game as an event, the
feed open until the tally, 204 once there is nothing left, keep-alives, and stream tickets for browsers."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests
from flask import Flask
from werkzeug.serving import make_server

from service.application.house import House
from service.http import context, live
from service.ops.redis_server import free_port
from tests.client import ApiClient, Table, assert_problem
from tests.service.read_models import SHARED_VICTORY_CARDS, play_shared_victory


@pytest.fixture
def live_url(app: Flask) -> Iterator[str]:
    server = make_server("127.0.0.1", free_port(), app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def messages(response: requests.Response) -> Iterator[dict[str, str]]:
    """Each SSE message as its fields; a comment block as {"comment": ...}."""
    fields: dict[str, str] = {}
    for line in response.iter_lines(decode_unicode=True):
        if line == "":
            if fields:
                yield fields
            fields = {}
        elif line.startswith(":"):
            fields["comment"] = line[1:].strip()
        else:
            name, _, value = line.partition(": ")
            fields[name] = value


def listen(url: str, into: list[dict[str, str]], **kwargs: Any) -> threading.Thread:
    connected = threading.Event()

    def run() -> None:
        with requests.get(url, stream=True, timeout=30, **kwargs) as response:
            assert response.headers["Content-Type"].startswith("text/event-stream")
            connected.set()
            try:
                for message in messages(response):
                    into.append(message)
            except requests.exceptions.ChunkedEncodingError:
                pass  # the test's server stopped under an open feed

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert connected.wait(timeout=10)
    return thread


def wait_until(condition: Callable[[], Any], timeout_s: float = 10) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_the_feed_follows_the_game_announces_its_end_and_closes_after_the_tally(
    api: ApiClient, house: House, live_url: str
) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    received: list[dict[str, str]] = []
    listener = listen(f"{live_url}/v1/games/{table.id}/events/stream", received)
    for card in SHARED_VICTORY_CARDS:
        for seat in range(3):
            assert api.play(table, seat, card).status_code == 200
    end = api.game(table)["version"]
    wait_until(lambda: any(m.get("event") == "game_finished" for m in received))
    time.sleep(0.3)
    assert listener.is_alive(), "the feed closed before the tally was sent"
    assert str(house.tally(table.id)) == "tallied"
    listener.join(timeout=20)
    assert not listener.is_alive(), "the feed did not end after the tally"
    events = [m for m in received if m.get("event", "view") != "view"]
    assert [m["event"] for m in events[-3:]] == ["twelve_gangsters.round_revealed", "game_finished", "game_tallied"]
    assert [int(m["id"]) for m in events if m["event"] != "game_finished"] == list(range(1, end + 2))
    finished = json.loads(events[-2]["data"])
    assert int(events[-2]["id"]) == end == finished["version"]
    assert finished["result"]["winners"] == api.result(table).json["winners"]
    played = [json.loads(m["data"]) for m in events if m["event"] == "twelve_gangsters.gangster_played"]
    assert all("card" not in e["payload"] for e in played[:-3])  # hidden while the game ran


def test_retry_rides_on_the_first_event_never_alone(api: ApiClient, house: House, live_url: str) -> None:
    table = play_shared_victory(api)
    house.tally(table.id)
    with requests.get(f"{live_url}/v1/games/{table.id}/events/stream", stream=True, timeout=30) as response:
        received = list(messages(response))
    assert received[0]["retry"] == str(live.RETRY_MS) and received[0]["id"] == "1" and "data" in received[0]
    assert all("data" in m for m in received)
    assert sum("retry" in m for m in received) == 1


def test_a_feed_resumed_after_the_end_says_the_game_finished_then_sends_the_tally(
    api: ApiClient, house: House, live_url: str
) -> None:
    table = play_shared_victory(api)
    end = api.game(table)["version"]
    house.tally(table.id)
    url = f"{live_url}/v1/games/{table.id}/events/stream"
    finished = []
    with requests.get(url, headers={"Last-Event-ID": str(end - 2)}, stream=True, timeout=30) as response:
        received = list(messages(response))
        assert [(m["id"], m["event"]) for m in received] == [
            (str(end - 1), "twelve_gangsters.gangster_played"),
            (str(end), "twelve_gangsters.round_revealed"),
            (str(end), "game_finished"),
            (str(end + 1), "game_tallied"),
            (str(end + 1), "view"),
        ]
        finished.append(json.loads(received[2]["data"]))
    with requests.get(url, headers={"Last-Event-ID": str(end)}, stream=True, timeout=30) as response:
        received = list(messages(response))
        assert [(m["id"], m["event"]) for m in received] == [
            (str(end), "game_finished"),
            (str(end + 1), "game_tallied"),
            (str(end + 1), "view"),
        ]
        finished.append(json.loads(received[0]["data"]))
    # Whenever it is read, the message says what it said live: the result as of the event that ended the game.
    tallied = api.result(table).json
    for data in finished:
        assert data["version"] == data["result"]["version"] == end and data["result"]["tallied"] is False
        assert {**data["result"], "version": tallied["version"], "tallied": True} == tallied


def test_a_tallied_game_read_to_its_end_answers_204_so_event_source_stops(api: ApiClient, house: House) -> None:
    table = play_shared_victory(api)
    house.tally(table.id)
    last = api.game(table)["version"]
    response = api.http.get(f"/v1/games/{table.id}/events/stream", headers={"Last-Event-ID": str(last)})
    assert response.status_code == 204 and response.data == b""
    assert api.http.get(f"/v1/games/{table.id}/events/stream?after={last}").status_code == 204


def test_a_silent_feed_sends_keep_alive_comments(
    api: ApiClient, live_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "KEEPALIVE_S", 0.2)
    table = api.create(players=3)
    received: list[dict[str, str]] = []
    listen(f"{live_url}/v1/games/{table.id}/events/stream?after={api.version(table)}", received)
    wait_until(lambda: sum(m.get("comment") == "keep-alive" for m in received) >= 2)


# -- stream tickets -------------------------------------------------------------------------------


def ticket_for(api: ApiClient, table: Table, seat: int) -> dict[str, Any]:
    response = api.http.post(f"/v1/games/{table.id}/stream-tickets", headers=api.auth(table, seat))
    assert response.status_code == 201, response.json
    return response.json


def test_a_ticket_opens_the_seats_own_feed_once(api: ApiClient, house: House, live_url: str) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    assert api.play(table, 1, 7).status_code == 200
    issued = ticket_for(api, table, 1)
    assert issued["seat"] == 1 and issued["expires_in_s"] == 60
    assert issued["stream"] == f"/v1/games/{table.id}/events/stream?ticket={issued['ticket']}"
    received: list[dict[str, str]] = []
    listen(f"{live_url}{issued['stream']}", received)
    wait_until(lambda: any(m.get("event") == "twelve_gangsters.gangster_played" for m in received))
    [own] = [json.loads(m["data"]) for m in received if m.get("event") == "twelve_gangsters.gangster_played"]
    assert own["payload"] == {"seat": 1, "card": 7}  # what only seat 1 may see
    again = requests.get(f"{live_url}{issued['stream']}", timeout=10)
    assert again.status_code == 401 and again.json()["code"] == "invalid_ticket"


def test_an_eventsource_back_with_its_spent_ticket_after_the_end_gets_204(
    api: ApiClient, house: House, live_url: str
) -> None:
    table = play_shared_victory(api)
    house.tally(table.id)
    issued = ticket_for(api, table, 1)
    with requests.get(f"{live_url}{issued['stream']}", stream=True, timeout=30) as response:
        last = [m["id"] for m in messages(response) if "id" in m][-1]
    # The feed closed after the tally; EventSource reconnects at once, with the same URL and the last id.
    again = requests.get(f"{live_url}{issued['stream']}", headers={"Last-Event-ID": last}, timeout=10)
    assert again.status_code == 204, again.text
    resumed_early = requests.get(f"{live_url}{issued['stream']}", headers={"Last-Event-ID": "1"}, timeout=10)
    assert resumed_early.status_code == 401 and resumed_early.json()["code"] == "invalid_ticket"


def test_a_ticket_is_refused_when_expired_for_another_game_or_beside_a_token(
    api: ApiClient, app: Flask, live_url: str
) -> None:
    table, other = api.create(players=3), api.create(players=3)
    store = context.services_of(app).tickets
    assert store is not None
    expired = store.issue(table.id, 0, "", ttl_s=1)
    time.sleep(1.5)
    assert_problem(api.http.get(f"/v1/games/{table.id}/events/stream?ticket={expired}"), 401, "invalid_ticket")
    elsewhere = ticket_for(api, table, 0)["ticket"]
    assert_problem(api.http.get(f"/v1/games/{other.id}/events/stream?ticket={elsewhere}"), 401, "invalid_ticket")
    both = ticket_for(api, table, 0)["ticket"]
    response = api.http.get(f"/v1/games/{table.id}/events/stream?ticket={both}", headers=api.auth(table, 0))
    assert_problem(response, 422, "invalid_request")


def test_only_a_seat_may_ask_for_a_ticket(api: ApiClient) -> None:
    table = api.create(players=3)
    assert_problem(api.http.post(f"/v1/games/{table.id}/stream-tickets"), 401, "invalid_token")
    bad = {"Authorization": "Bearer not-a-seat"}
    assert_problem(api.http.post(f"/v1/games/{table.id}/stream-tickets", headers=bad), 401, "invalid_token")


def seat_left_and_taken_again(api: ApiClient) -> tuple[Table, dict[str, Any]]:
    """A Mobsters seat held by Bob, who takes a ticket and leaves; Cat takes the seat, Dan the last one: the
    game starts and deals Cat a hand."""
    table = api.create("mobsters", seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    assert api.join(table, "Bob").json["seat"] == 1
    bob = dict(api.auth(table, 1))
    issued = ticket_for(api, table, 1)
    assert api.http.post(f"/v1/games/{table.id}/leave", headers=bob).status_code == 200
    return table, {"ticket": issued, "bob": bob}


def test_a_ticket_taken_before_its_seat_was_left_opens_nothing_after(api: ApiClient, live_url: str) -> None:
    table, bob = seat_left_and_taken_again(api)
    assert api.join(table, "Cat").json["seat"] == 1 and api.join(table, "Dan").status_code == 201
    with requests.get(f"{live_url}{bob['ticket']['stream']}", timeout=10, stream=True) as opened:
        assert opened.status_code == 401 and opened.json()["code"] == "invalid_ticket"


def test_a_feed_open_when_its_seat_is_left_ends_and_shows_the_next_holder_nothing(
    api: ApiClient, live_url: str
) -> None:
    seat_one: list[dict[str, str]] = []
    # Bob's feed, opened as seat 1 while he holds it; then he leaves, and Cat takes the seat.
    again = api.create("mobsters", seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    assert api.join(again, "Bob").json["seat"] == 1
    bob = listen(f"{live_url}{ticket_for(api, again, 1)['stream']}", seat_one)
    assert api.http.post(f"/v1/games/{again.id}/leave", headers=api.auth(again, 1)).status_code == 200
    bob.join(timeout=5)
    assert not bob.is_alive(), "the feed ends when the seat it was opened for is left"
    assert api.join(again, "Cat").json["seat"] == 1 and api.join(again, "Dan").status_code == 201
    assert not any(m.get("event") in ("seat_left", "mobsters.cards_drawn") for m in seat_one)


# -- the view on the feed -------------------------------------------------------------------------


def views_of(received: list[dict[str, str]]) -> list[dict[str, Any]]:
    return [json.loads(m["data"]) for m in received if m.get("event") == "view"]


def test_a_feed_sends_its_viewers_view_after_the_backlog_and_after_each_batch(api: ApiClient, live_url: str) -> None:
    """What the seat needs to act comes on the feed: after what it missed, and after each batch of events, the
    game as `GET /v1/games/{id}` shows that seat, with the `id` of the batch's last event."""
    table = api.create(players=3, options={"first_boss": 0})
    seat: list[dict[str, str]] = []
    spectator: list[dict[str, str]] = []
    listen(f"{live_url}/v1/games/{table.id}/events/stream", seat, headers=api.auth(table, 0))
    listen(f"{live_url}/v1/games/{table.id}/events/stream", spectator)
    wait_until(lambda: len(views_of(seat)) == 1 and len(views_of(spectator)) == 1)
    [opening] = [m for m in seat if m.get("event") == "view"]
    start = api.version(table)
    assert opening["id"] == str(start) and json.loads(opening["data"]) == api.game(table, 0)
    assert [m.get("event") for m in seat][-1] == "view"  # after the backlog
    for played in range(1, 4):
        assert api.play(table, played - 1, 1).status_code == 200
        version = api.version(table)
        wait_until(lambda v=version: views_of(seat)[-1]["version"] == v == views_of(spectator)[-1]["version"])
        assert views_of(seat)[-1] == api.game(table, 0)
        assert views_of(spectator)[-1] == api.game(table)
    shown = views_of(seat)
    assert [v["version"] for v in shown] == sorted({v["version"] for v in shown})  # one a batch, in order
    assert shown[-1]["you"]["legal_moves"] and "you" not in views_of(spectator)[-1]
    ids = [m["id"] for m in seat if m.get("event") == "view"]
    assert ids == [str(v["version"]) for v in shown]


def test_each_awaited_decision_says_whether_it_is_simultaneous(api: ApiClient) -> None:
    gangsters = api.create(players=3)
    assert {a["simultaneous"] for a in api.game(gangsters)["awaiting"]} == {True}
    mobsters = api.create("mobsters", seats=[{"name": "Ann"}, {"name": "Bob"}])
    while (setup := api.game(mobsters)["awaiting"])[0]["decision"] == "setup":
        assert {a["simultaneous"] for a in setup} == {True}
        seat = setup[0]["seat"]
        legal = api.game(mobsters, seat)["you"]["legal_moves"]
        move = {"type": "keep_hand"} if {"type": "keep_hand"} in legal else legal[0]
        moved = api.http.post(f"/v1/games/{mobsters.id}/moves", json=move, headers=api.auth(mobsters, seat))
        assert moved.status_code == 200, moved.json
    turn = api.game(mobsters)["awaiting"]
    assert len(turn) == 1 and turn[0]["simultaneous"] is False, turn
