"""Revoking a credential ends everything it opened: within a second, every live feed opened with a revoked
player token (or with a ticket it minted) closes, a ticket it minted opens nothing, and a seat's feed ends when
its seat is left (tests/http/test_live_feed.py). The attack: rotate a stolen token away, and the thief's feeds
kept streaming the seat's face-down cards and where the player sits."""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

import requests

from tests.client import ApiClient, assert_problem
from tests.http.test_live_feed import live_url, messages
from tests.players.helpers import bearer, create

__all__ = ["live_url"]  # the fixture: the test app served over real HTTP

REVOKED_WITHIN_S = 1.0
"""A feed looks whether its token still lives this often (service/http/live.py CHECK_S)."""
SLACK_S = 3.0
"""Time for the feed's last blocking read to return, and for the client to see the connection end."""


class Follower:
    """A live feed read in a thread: what it got, and when it ended."""

    def __init__(self, url: str, **kwargs: Any) -> None:
        self.got: list[dict[str, str]] = []
        self.ended_at: float | None = None
        opened = threading.Event()

        def run() -> None:
            with requests.get(url, stream=True, timeout=30, **kwargs) as response:
                assert response.status_code == 200, response.text
                opened.set()
                with contextlib.suppress(requests.exceptions.ChunkedEncodingError):
                    self.got.extend(messages(response))
            self.ended_at = time.monotonic()

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()
        assert opened.wait(timeout=10)

    def ends_within(self, since: float, seconds: float) -> float:
        self.thread.join(timeout=seconds + 5)
        assert self.ended_at is not None, "the feed is still open"
        took = self.ended_at - since
        assert took <= seconds, f"the feed ended {took:.2f} s after the revocation"
        return took


def revoke(api: ApiClient, token: str) -> float:
    """Rotate: a new token revokes `token`; the moment it was revoked."""
    fresh = api.http.post("/v1/players/me/tokens", headers=bearer(token)).json["token"]
    token_id = token.split(".")[1]
    assert api.http.delete(f"/v1/players/me/tokens/{token_id}", headers=bearer(fresh)).status_code == 204
    return time.monotonic()


def test_feeds_and_tickets_of_a_revoked_player_token_end_within_a_second(api: ApiClient, live_url: str) -> None:
    ann = api.register("Ann")
    table = create(api, ann, [{"player": "me"}, {"name": "Bob"}, {"name": "Cat"}], ruleset="mobsters")
    seat_feed = Follower(f"{live_url}/v1/games/{table.id}/events/stream", headers=bearer(ann))
    player_feed = Follower(f"{live_url}/v1/players/me/events/stream", headers=bearer(ann))
    seat_ticket = api.http.post(f"/v1/games/{table.id}/stream-tickets", headers=bearer(ann)).json
    ticket_feed = Follower(f"{live_url}{seat_ticket['stream']}")
    unused_seat_ticket = api.http.post(f"/v1/games/{table.id}/stream-tickets", headers=bearer(ann)).json
    player_ticket = api.http.post("/v1/players/me/stream-tickets", headers=bearer(ann)).json
    player_ticket_feed = Follower(f"{live_url}{player_ticket['stream']}")
    unused_player_ticket = api.http.post("/v1/players/me/stream-tickets", headers=bearer(ann)).json

    revoked_at = revoke(api, ann)
    for feed in (seat_feed, player_feed, ticket_feed, player_ticket_feed):
        feed.ends_within(revoked_at, REVOKED_WITHIN_S + SLACK_S)
    assert any(m.get("event") == "mobsters.cards_drawn" for m in seat_feed.got)  # it did stream the seat's feed
    assert_problem(api.http.get(unused_seat_ticket["stream"]), 401, "invalid_ticket")
    assert_problem(api.http.get(unused_player_ticket["stream"]), 401, "invalid_ticket")
    assert_problem(api.http.get(f"/v1/games/{table.id}/events/stream", headers=bearer(ann)), 401, "invalid_token")


def test_a_feed_of_another_live_token_of_the_player_goes_on(api: ApiClient, live_url: str) -> None:
    ann = api.register("Ann")
    table = create(api, ann, [{"player": "me"}, {"name": "Bob"}, {"name": "Cat"}], ruleset="mobsters")
    other = api.http.post("/v1/players/me/tokens", headers=bearer(ann)).json
    kept = Follower(f"{live_url}/v1/games/{table.id}/events/stream", headers=bearer(other["token"]))
    gone = Follower(f"{live_url}/v1/games/{table.id}/events/stream", headers=bearer(ann))
    token_id = ann.split(".")[1]
    assert api.http.delete(f"/v1/players/me/tokens/{token_id}", headers=bearer(other["token"])).status_code == 204
    gone.ends_within(time.monotonic(), REVOKED_WITHIN_S + SLACK_S)
    time.sleep(REVOKED_WITHIN_S + SLACK_S)
    assert kept.ended_at is None, "only what the revoked token opened ends"
