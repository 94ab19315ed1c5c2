"""The table's manners: it names its seat once, shows a rematch another seat asked for after the feed has
closed and offers its seat there, keeps every amount on its card in French on a phone, moves the focus with the
skip link without leaving the table, and the lobby shows a refused join beside its game."""

from __future__ import annotations

import json

import pytest
import requests
from playwright.sync_api import Page, Route

from tests.test_docs_browser import Watch
from tests.waiting import wait_for
from tests.web.conftest import click_first_move, create_game, play_to_the_end


def test_the_table_names_its_seat_once_and_shows_the_rematch_another_seat_asked_for(
    client: tuple[Page, Watch], live_url: str, worker
) -> None:
    page, _ = client
    game_id = create_game(page, "twelve-gangsters", ["me", "open", "smart"])
    bob = requests.post(f"{live_url}/v1/games/{game_id}/join", json={"name": "Bob"}, timeout=10).json()["token"]
    headers = {"Authorization": f"Bearer {bob}"}
    assert requests.post(f"{live_url}/v1/games/{game_id}/resign", headers=headers, timeout=10).ok  # a bot plays on
    page.locator('.board[data-status="in_progress"]').wait_for()
    playing_as = page.locator("#playing-as").inner_text()
    assert playing_as.startswith("You are ") and "(you)" not in playing_as
    play_to_the_end(page, click_first_move, timeout_s=60)
    page.locator("#rematch").wait_for()
    rematch = requests.post(f"{live_url}/v1/games/{game_id}/rematch", headers=headers, timeout=10).json()["game_id"]
    page.locator(f'#to-rematch[href="#/game/{rematch}"]').wait_for()  # no feed tells it: the table looks
    assert page.locator("#rematch").count() == 0
    # Bob's rematch seats Bob alone: this seat opens again, and its table offers to take it.
    page.locator("#to-rematch").click()
    page.locator(f'#join[data-join="{rematch}"]').click()
    page.locator('.board[data-status="in_progress"]').wait_for()
    assert page.locator("#playing-as").inner_text().startswith("You are ")


@pytest.mark.parametrize("browser_context", ["fr-FR"], indirect=True)
def test_every_amount_stays_on_its_loot_card_in_french_on_a_phone(client: tuple[Page, Watch], worker) -> None:
    page, _ = client
    page.set_viewport_size({"width": 390, "height": 844})
    create_game(page, "cash-n-guns", ["me", "smart", "random", "random"])
    page.locator(".loot").first.wait_for()
    spilled = page.locator(".loot").evaluate_all(
        "cards => cards.filter(c => c.scrollWidth > c.clientWidth).map(c => c.getAttribute('aria-label'))"
    )
    assert spilled == [], f"amounts wider than their cards: {spilled}"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "nothing wider than the screen"


def test_the_skip_link_moves_the_focus_to_the_table_and_stays_on_it(client: tuple[Page, Watch], worker) -> None:
    page, _ = client
    create_game(page, "twelve-gangsters", ["me", "random", "random"])
    page.locator("[data-move]").first.wait_for()
    table = page.evaluate("location.hash")
    page.locator("#skip-link").focus()
    page.keyboard.press("Enter")
    page.locator("#main:focus").wait_for()
    assert page.evaluate("location.hash") == table
    assert page.locator("[data-move]").count() > 0, "still the table, not the lobby"


def test_a_join_the_api_refuses_is_shown_beside_its_game(client: tuple[Page, Watch], live_url: str) -> None:
    page, watch = client
    body = {"ruleset": "twelve-gangsters", "seats": [{"name": "Ann"}, {"open": True}, {"name": "Cat"}]}
    game_id = requests.post(f"{live_url}/v1/games", json=body, timeout=10).json()["game_id"]
    page.reload()
    join = page.locator(f'[data-join="{game_id}"]')
    join.wait_for()
    assert requests.post(f"{live_url}/v1/games/{game_id}/join", json={"name": "Dan"}, timeout=10).ok  # it filled
    join.click()
    refused = page.locator(f'[data-refused="{game_id}"]:not(:empty)')
    refused.wait_for()
    assert refused.is_visible() and refused.inner_text().strip()
    assert len(watch.errors) == 1 and "409" in watch.errors[0]  # the browser logs the refusal: that one only
    watch.errors.clear()


SHOWN_NOTICES = """() => {
    window.shownNotices = [];
    const look = () => document.querySelectorAll(".notice").forEach((notice) => {
        if (notice.textContent) window.shownNotices.push(notice.textContent);
    });
    new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


@pytest.mark.parametrize(
    ("status", "code", "noticed"),
    [(503, "unavailable", True), (429, "rate_limited", False)],  # a 429 is waited out unnoticed
)
def test_a_table_whose_catch_up_is_refused_tries_again_and_catches_up(
    client: tuple[Page, Watch], live_url: str, worker, status: int, code: str, noticed: bool
) -> None:
    page, watch = client
    game_id = create_game(page, "twelve-gangsters", ["me", "random", "random"])
    page.locator("[data-move]").first.wait_for()
    refused: list[str] = []

    def refused_once(route: Route) -> None:
        if refused:
            route.continue_()
            return
        refused.append(route.request.url)
        problem = {"type": "about:blank", "title": "Refused", "status": status, "code": code,
                   "detail": "try again in 1 s"}  # fmt: skip
        route.fulfill(status=status, headers={"Retry-After": "1"}, content_type="application/problem+json",
                      body=json.dumps(problem))  # fmt: skip

    page.route(f"**/v1/games/{game_id}/events?*", refused_once)
    # Every notice shown is recorded as it is shown: it lasts only until the retry a second later, which a busy
    # machine can let pass before a locator looks.
    page.evaluate(SHOWN_NOTICES)
    click_first_move(page)  # the bots answer on the feed; the table's first catch-up is refused
    while not refused:
        page.wait_for_timeout(50)
    if noticed:
        wait_for(lambda: page.evaluate("window.shownNotices.length") > 0, "the refusal to be noticed", timeout_s=20)

    def caught_up() -> bool:
        # The game's version read afresh each time: the bots may still be moving, and the table then skips ahead.
        version = requests.get(f"{live_url}/v1/games/{game_id}", timeout=10).json()["version"]
        return page.locator(f'.board[data-version="{version}"]').count() == 1

    wait_for(caught_up, "the table to catch up, with no feed message to prompt it", timeout_s=20)
    page.locator(".notice:empty").wait_for(state="attached")  # and its notice is gone, or never came
    assert all(str(status) in error for error in watch.errors)  # the browser logs the refusal: nothing else
    watch.errors.clear()
