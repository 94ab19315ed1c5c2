"""Your turn is unmissable, and never claimed for you: the page's title and favicon mark a due decision and
clear once it is made; a move the house made for your seat at its deadline is labelled as the house's."""

from __future__ import annotations

import requests
from playwright.sync_api import Page

from tests.test_docs_browser import Watch
from tests.web.conftest import click_first_move, create_game, play_to_the_end


def marked(page: Page) -> tuple[str, str, str]:
    return (
        page.title(),
        page.evaluate("document.querySelector('link[rel=icon]').href"),
        page.evaluate("document.documentElement.dataset.due"),
    )


def test_the_title_and_favicon_mark_a_due_decision(client: tuple[Page, Watch], live_url: str, worker) -> None:
    page, _ = client
    game_id = create_game(page, "twelve-gangsters", ["me", "smart", "smart"])
    page.locator('.board[data-status="in_progress"] [data-move]').first.wait_for()
    title, icon, due = marked(page)
    assert title == "● Your turn · Syndicate" and due == "1"
    assert "circle" in requests.utils.unquote(icon)  # the dot
    assert play_to_the_end(page, click_first_move, timeout_s=60) == 12
    title, icon, due = marked(page)
    assert title == "Syndicate" and due == "0" and "circle" not in requests.utils.unquote(icon)
    assert requests.get(f"{live_url}/v1/games/{game_id}", timeout=10).json()["status"] == "finished"


def test_a_move_made_at_the_deadline_is_labelled_the_house_s(client: tuple[Page, Watch], worker) -> None:
    page, _ = client
    create_game(page, "twelve-gangsters", ["me", "random", "random"], {"move_deadline_s": 1})
    house = page.locator(".events li", has_text="played by the house: the deadline passed")
    house.first.wait_for(timeout=15_000)
    mine = page.locator(".events li", has_text="(you)")
    assert mine.count() >= 1
