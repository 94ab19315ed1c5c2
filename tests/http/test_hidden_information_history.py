"""The differential test over every way to read a game's past: time travel, the NDJSON export, the live
feed. Twin games that differ only in one seat's hidden card look the same to everyone else."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.client import ApiClient, Table
from tests.http.test_hidden_information import HIDDEN, HIDER, public_feed, public_view, twin_game

VIEWERS = [None, 0, 2, 3]
IDS = ["spectator", "seat0", "seat2", "seat3"]


@pytest.fixture
def twins(api: ApiClient) -> dict[str, Table]:
    return {name: twin_game(api, card) for name, card in HIDDEN.items()}


@pytest.mark.parametrize("viewer", VIEWERS, ids=IDS)
def test_time_travel_shows_others_the_same_past_whatever_card_is_hidden(
    api: ApiClient, twins: dict[str, Table], viewer: int | None
) -> None:
    a, b = twins["a"], twins["b"]
    last = api.game(a)["version"]
    for version in range(1, last + 1):
        views = [api.http.get(f"/v1/games/{t.id}/states/{version}", headers=api.auth(t, viewer)).json for t in (a, b)]
        assert public_view(views[0]) == public_view(views[1]), version


@pytest.mark.parametrize("viewer", VIEWERS, ids=IDS)
def test_the_export_of_an_unfinished_game_is_the_same_whatever_card_is_hidden(
    api: ApiClient, twins: dict[str, Table], viewer: int | None
) -> None:
    exports = []
    for table in twins.values():
        headers = {"Accept": "application/x-ndjson", **api.auth(table, viewer)}
        response = api.http.get(f"/v1/games/{table.id}/events", headers=headers)
        exports.append([json.loads(line) for line in response.get_data(as_text=True).splitlines()])
    assert len(exports[0]) == api.game(twins["a"])["version"]
    assert public_feed(exports[0]) == public_feed(exports[1])
    assert all("seed" not in e["payload"] for e in exports[0])


def read_live(api: ApiClient, table: Table, viewer: int | None) -> list[dict[str, Any]]:
    """The live feed's events up to the game's current version, then the stream is closed."""
    version = api.game(table)["version"]
    response = api.http.get(f"/v1/games/{table.id}/events/stream", headers=api.auth(table, viewer))
    events: list[dict[str, Any]] = []
    buffer = ""
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            message, buffer = buffer.split("\n\n", 1)
            data = [line[6:] for line in message.splitlines() if line.startswith("data: ")]
            if data:
                events.append(json.loads(data[0]))
        if len(events) >= version:
            break
    response.close()
    return events


@pytest.mark.parametrize("viewer", VIEWERS, ids=IDS)
def test_the_live_feed_shows_others_the_same_events_whatever_card_is_hidden(
    api: ApiClient, twins: dict[str, Table], viewer: int | None
) -> None:
    feeds = [read_live(api, table, viewer) for table in twins.values()]
    assert len(feeds[0]) == api.game(twins["a"])["version"]
    assert public_feed(feeds[0]) == public_feed(feeds[1])


def test_the_hider_finds_its_card_in_its_own_past_and_feed(api: ApiClient, twins: dict[str, Table]) -> None:
    for name, table in twins.items():
        version = api.game(table)["version"]
        past = api.http.get(f"/v1/games/{table.id}/states/{version}", headers=api.auth(table, HIDER)).json
        assert past["you"]["chosen"] == HIDDEN[name]
        own = [e for e in read_live(api, table, HIDER) if e["seat"] == HIDER]
        assert own[-1]["payload"]["card"] == HIDDEN[name]
