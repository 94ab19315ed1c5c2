"""A bot written from docs/api.md alone, over real HTTP: it follows its seat's live feed (through a stream
ticket, as a browser would), reads its view with If-None-Match, and posts one of its legal moves with an
Idempotency-Key (and If-Match when it alone is awaited). Against the house's bots, played by a real worker,
it finishes a game of every ruleset, and meets no 4xx the guide does not tell it to expect."""

from __future__ import annotations

import json
import random
import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests
from flask import Flask
from werkzeug.serving import make_server

from service.ops.redis_server import free_port

EXPECTED = {409: {"game_moved_on"}, 412: {"version_mismatch"}}
"""What the guide says a move may meet when the game moves first: look again."""

GAMES = {
    "twelve-gangsters": [{"name": "Guide"}, {"bot": "random"}, {"bot": "smart"}],
    "cash-n-guns": [{"name": "Guide"}, {"bot": "random"}, {"bot": "smart"}, {"bot": "random"}],
    "mobsters": [{"name": "Guide"}, {"bot": "smart"}],
}


@pytest.fixture
def live_url(app: Flask) -> Iterator[str]:
    server = make_server("127.0.0.1", free_port(), app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


class GuideBot:
    def __init__(self, api: str, game_id: str, token: str, rng: random.Random) -> None:
        self.api, self.game_id, self.rng = api, game_id, rng
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"
        self.etag: str | None = None
        self.view: dict[str, Any] = {}
        self.unexpected: list[tuple[int, str]] = []
        self.finished: dict[str, Any] | None = None

    def look(self) -> dict[str, Any]:
        headers = {"If-None-Match": self.etag} if self.etag else {}
        response = self.http.get(f"{self.api}/v1/games/{self.game_id}", headers=headers, timeout=10)
        if response.status_code == 200:
            self.view, self.etag = response.json(), response.headers["ETag"]
        else:
            assert response.status_code == 304, response.text
        return self.view

    def act(self) -> None:
        view = self.look()
        legal = view.get("you", {}).get("legal_moves", [])
        if not legal:
            return
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        if len(view["awaiting"]) == 1:  # a turn-based decision: guard it
            headers["If-Match"] = f'"{view["version"]}"'
        url = f"{self.api}/v1/games/{self.game_id}/moves"
        response = self.http.post(url, json=self.rng.choice(legal), headers=headers, timeout=10)
        if response.status_code != 200 and response.json()["code"] not in EXPECTED.get(response.status_code, ()):
            self.unexpected.append((response.status_code, response.json()["code"]))

    def feed(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """The seat's own feed, through a ticket; reconnects (with a new ticket) as the guide says."""
        last = 0
        while True:
            ticket = self.http.post(f"{self.api}/v1/games/{self.game_id}/stream-tickets", timeout=10)
            assert ticket.status_code == 201, ticket.text
            stream = requests.get(
                f"{self.api}{ticket.json()['stream']}", headers={"Last-Event-ID": str(last)}, stream=True, timeout=60
            )
            if stream.status_code == 204:
                return
            fields: dict[str, str] = {}
            for line in stream.iter_lines(decode_unicode=True):
                if line == "" and "data" in fields:
                    last = int(fields["id"])
                    yield fields["event"], json.loads(fields["data"])
                    fields = {}
                elif line and not line.startswith(":"):
                    name, _, value = line.partition(": ")
                    fields[name] = value

    def play(self) -> None:
        self.act()
        for kind, data in self.feed():
            if kind == "game_finished":
                self.finished = data
            self.act()


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_bot_written_from_the_guide_finishes_a_game_against_the_house(
    live_url: str, start_worker: Callable[[], Any], ruleset: str
) -> None:
    start_worker()
    created = requests.post(f"{live_url}/v1/games", json={"ruleset": ruleset, "seats": GAMES[ruleset]}, timeout=10)
    assert created.status_code == 201, created.text
    body = created.json()
    bot = GuideBot(live_url, body["game_id"], body["tokens"][0]["token"], random.Random(ruleset))
    bot.play()
    assert bot.unexpected == []
    assert bot.finished is not None and bot.finished["result"]["scores"]
    result = requests.get(f"{live_url}/v1/games/{body['game_id']}/result", timeout=10).json()
    assert result["tallied"] and result["winners"] == bot.finished["result"]["winners"]
