"""A rematch takes every human of the old game along: two people in two browsers play a game to its end, one asks
for the rematch, and the other, invited, joins it from the finished table and keeps the seat it had."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator

import pytest
import requests
from playwright.sync_api import BrowserContext, Page

from tests.test_docs_browser import Watch, watched
from tests.web.conftest import click_first_move, create_game, finished, settle


@pytest.fixture
def bob(open_context: Callable[..., BrowserContext], live_url: str) -> Iterator[Page]:
    """A second person, in a browser of their own, on the lobby."""
    page, watch = watched(open_context("bob"))
    page.goto(f"{live_url}/play", wait_until="networkidle")
    page.locator("#create-game").wait_for()
    yield page
    assert watch.errors == [], f"the console logged errors: {watch.errors}"


def register(page: Page, name: str) -> None:
    page.locator("#my-name").fill(f"{name}-{uuid.uuid4().hex[:6]}")
    page.locator("#register").click()
    page.locator("#token-kept").click()


def play_together(pages: list[Page], timeout_s: float = 90) -> None:
    deadline = time.monotonic() + timeout_s
    while not all(finished(page) for page in pages):
        assert time.monotonic() < deadline, "the game did not end"
        for page in pages:
            try:
                if click_first_move(page):
                    settle(page)
            except Exception:  # the feed redrew the table under the click: look again
                pass
        pages[0].wait_for_timeout(50)


def played_and_rematched(ann: Page, bob: Page) -> tuple[str, str]:
    """Ann opens a game, Bob joins it from its link, they play it to its end and Ann asks for the rematch: the two
    games' ids."""
    game_id = create_game(ann, "twelve-gangsters", ["me", "open", "smart"])
    bob.evaluate(f"location.hash = '#/game/{game_id}'")
    bob.locator("#join").click()
    bob.locator('.board[data-status="in_progress"]').wait_for()
    play_together([ann, bob])
    ann.locator("#rematch").click()
    ann.locator('.board[data-status="waiting"]').wait_for()
    return game_id, ann.evaluate("location.hash.split('/')[2]")


def test_a_rematch_two_humans_both_join(client: tuple[Page, Watch], bob: Page, live_url: str, worker) -> None:
    ann, _ = client
    register(ann, "Ann")
    register(bob, "Bob")
    game_id, rematch = played_and_rematched(ann, bob)
    seats = requests.get(f"{live_url}/v1/games/{rematch}", timeout=10).json()["seats"]
    assert seats[1]["open"] and seats[1]["invited"]  # kept for Bob, whoever else comes
    bob.locator("#to-rematch").click()
    bob.locator("#join").click()
    bob.locator('.board[data-status="in_progress"]').wait_for()
    ann.locator('.board[data-status="in_progress"]').wait_for()
    view = requests.get(f"{live_url}/v1/games/{rematch}", timeout=10).json()
    old = requests.get(f"{live_url}/v1/games/{game_id}", timeout=10).json()
    assert [s.get("player") for s in view["seats"]] == [s.get("player") for s in old["seats"]]
    assert view["rematch_of"] == game_id and old["rematch"] == rematch


def guest(page: Page, name: str) -> None:
    page.locator("#my-name").fill(name)
    page.locator("#play-as-guest").click()
    page.locator("#account-title", has_text=f"Playing as {name}").wait_for()


def test_a_guest_keeps_its_seat_in_a_rematch_a_stranger_cannot_take(
    client: tuple[Page, Watch], bob: Page, live_url: str, worker
) -> None:
    ann, _ = client
    guest(ann, "Ann")
    guest(bob, "Bob")
    _, rematch = played_and_rematched(ann, bob)
    view = requests.get(f"{live_url}/v1/games/{rematch}", timeout=10).json()
    assert view["seats"][1] == {"seat": 1, "open": True, "kept_for": 1}
    assert view["options"]["bots_after_s"] == 120  # the window to accept, then the house's bots
    stranger = requests.post(f"{live_url}/v1/games/{rematch}/join", json={"name": "Eve"}, timeout=10)
    assert stranger.status_code == 409 and stranger.json()["code"] == "seat_reserved"
    bob.locator("#to-rematch").click()
    bob.locator("#join").click()
    bob.locator('.board[data-status="in_progress"]').wait_for()
    assert bob.locator("#playing-as").inner_text() == "You are Bob"
    seats = requests.get(f"{live_url}/v1/games/{rematch}", timeout=10).json()["seats"]
    assert [s.get("name") or s.get("bot") for s in seats] == ["Ann", "Bob", "smart"]
