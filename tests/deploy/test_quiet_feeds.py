"""A live feed with nothing to send yet still answers at once: its status and headers do not wait for the first
event or keep-alive (a client would time out, an EventSource would not open)."""

from __future__ import annotations

from collections.abc import Callable

import requests

from tests.deploy.conftest import Served

WITHIN_S = 5.0
"""Far less than the 15 s a quiet feed waits before its first keep-alive."""


def opens_at_once(url: str, headers: dict[str, str]) -> None:
    with requests.get(url, headers=headers, stream=True, timeout=WITHIN_S) as answer:  # raises if no headers come
        assert answer.status_code == 200
        assert answer.headers["Content-Type"].startswith("text/event-stream")


def test_a_quiet_players_feed_answers_its_headers_at_once(serve: Callable[..., Served]) -> None:
    served = serve()
    token = requests.post(f"{served.url}/v1/players", json={"name": "Quiet"}, timeout=5).json()["token"]
    opens_at_once(f"{served.url}/v1/players/me/events/stream", {"Authorization": f"Bearer {token}"})


def test_a_game_feed_resumed_at_its_head_answers_its_headers_at_once(serve: Callable[..., Served]) -> None:
    served = serve()
    seats = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]
    game = requests.post(f"{served.url}/v1/games", json={"ruleset": "twelve-gangsters", "seats": seats}, timeout=5)
    head = str(game.json()["version"])
    opens_at_once(f"{served.url}/v1/games/{game.json()['game_id']}/events/stream", {"Last-Event-ID": head})
