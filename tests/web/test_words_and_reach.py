"""Words that are true, and choices within reach: a first visit is asked for a name in one identity box; seats
count from 1; a link to a game one holds no seat of says so and offers Join where there is room; and the panel of
your moves stays in the window at every size."""

from __future__ import annotations

import pytest
import requests
from playwright.sync_api import Page

from tests.test_docs_browser import Watch
from tests.web.conftest import create_game


def test_a_first_visit_asks_for_a_name_in_one_identity_box(client: tuple[Page, Watch]) -> None:
    page, _ = client
    assert page.locator("#account-title").inner_text().startswith("Welcome! Choose the name")
    assert page.locator("#account input:visible").count() == 1  # the name; the token waits behind its summary
    page.locator("#play-as-guest").click()
    assert page.locator("#account [role=alert]").inner_text() == "Choose a name first."
    page.locator("#my-name").fill("Zoé")
    page.locator("#play-as-guest").click()
    page.locator("#account-title", has_text="Playing as Zoé (guest)").wait_for()
    assert page.locator("label[for=seat-0]").inner_text() == "Seat 1"


def test_a_link_to_a_game_without_a_seat_here_says_so_and_offers_join(
    client: tuple[Page, Watch], live_url: str
) -> None:
    page, _ = client
    body = {"ruleset": "twelve-gangsters", "seats": [{"name": "Ann"}, {"open": True}, {"bot": "smart"}]}
    game_id = requests.post(f"{live_url}/v1/games", json=body, timeout=10).json()["game_id"]
    page.evaluate(f"location.hash = '#/game/{game_id}'")
    page.locator("#not-seated").wait_for()
    assert "take an open seat with Join" in page.locator("#not-seated").inner_text()
    assert page.locator("#join").is_visible()
    assert "Seat 2: Open" in page.locator(".waiting-seats").inner_text()


@pytest.mark.parametrize(
    ("ruleset", "seats", "size"),
    [
        ("twelve-gangsters", ["me", "random", "random", "random", "random", "random"], (1280, 720)),
        ("twelve-gangsters", ["me", "random", "random", "random", "random", "random"], (390, 844)),
        ("cash-n-guns", ["me", *["random"] * 7], (1366, 768)),
    ],
)
def test_your_moves_are_in_the_window_without_scrolling(
    client: tuple[Page, Watch], worker, ruleset: str, seats: list[str], size: tuple[int, int]
) -> None:
    page, _ = client
    page.set_viewport_size({"width": size[0], "height": size[1]})
    create_game(page, ruleset, seats)
    page.locator(".board [data-move]").first.wait_for()
    # Read in one go: the live feed may redraw the table between two reads.
    top, bottom = page.evaluate(
        "(() => { const r = document.querySelector('.board [data-move]').getBoundingClientRect();"
        " return [r.top, r.bottom]; })()"
    )
    assert top >= 0 and bottom <= size[1], (top, bottom)


def test_the_lobby_shows_a_finished_game_s_winners_and_scores(
    client: tuple[Page, Watch], live_url: str, worker
) -> None:
    page, _ = client
    body = {"ruleset": "twelve-gangsters", "seats": [{"bot": "random"}, {"bot": "smart"}, {"bot": "random"}]}
    game_id = requests.post(f"{live_url}/v1/games", json=body, timeout=10).json()["game_id"]
    item = page.locator(f'[data-status="finished"] [data-game="{game_id}"] .outcome')
    item.wait_for(timeout=30_000)  # the lists refresh every few seconds
    result = requests.get(f"{live_url}/v1/games/{game_id}/result", timeout=10).json()
    assert item.get_attribute("data-winners") == ",".join(map(str, result["winners"]))
    text = item.inner_text()
    assert text.startswith("Won by ") and all(f" {score}" in text for score in result["scores"])


def test_an_option_naming_a_seat_counts_from_1_as_the_page_does(client: tuple[Page, Watch], live_url: str) -> None:
    page, _ = client
    game_id = create_game(page, "twelve-gangsters", ["me", "open", "open"], {"first_boss": 2})
    options = requests.get(f"{live_url}/v1/games/{game_id}", timeout=10).json()["options"]
    assert options["first_boss"] == 1  # the page's seat 2 is the API's seat 1
