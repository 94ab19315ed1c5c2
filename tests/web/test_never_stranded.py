"""Nobody is stranded at a waiting table in the browser: a quick match's game says when the house's bots will
take its open seats, its player may start with them at once and plays it to the end, and a table whose wait
runs out starts by itself on the page that watches it."""

from __future__ import annotations

import uuid

import requests
from playwright.sync_api import Page

from tests.test_docs_browser import Watch
from tests.web.conftest import click_first_move, play_to_the_end


def register(page: Page) -> str:
    page.locator("#my-name").fill(f"Ann-{uuid.uuid4().hex[:6]}")
    page.locator("#register").click()
    token = page.locator("#new-token").inner_text()
    page.locator("#token-kept").click()
    return token


def test_a_quick_match_starts_with_the_house_s_bots_and_plays_to_its_end(
    client: tuple[Page, Watch], live_url: str, worker
) -> None:
    page, _ = client
    register(page)
    page.locator('[data-ruleset="twelve-gangsters"]').click()
    page.locator("#quick-seats").select_option("3")
    page.locator("#quick-match").click()
    page.locator('.board[data-status="waiting"]').wait_for()
    game_id = page.evaluate("location.hash.split('/')[2]")
    countdown = page.locator('#awaiting [data-says="bots_in"]')
    countdown.wait_for()
    assert "bots take the open seats in" in countdown.inner_text()
    page.locator("#start-with-bots").click()
    page.locator('.board[data-status="in_progress"]').wait_for()
    view = requests.get(f"{live_url}/v1/games/{game_id}", timeout=10).json()
    assert [s.get("bot") for s in view["seats"]] == [None, "smart", "smart"]
    assert view["options"]["move_deadline_s"] == 60
    assert page.locator(".events li", has_text="The house's bots took the open seats").count() == 1
    assert play_to_the_end(page, click_first_move, timeout_s=90) == 12


def test_a_table_whose_wait_runs_out_starts_by_itself(client: tuple[Page, Watch], live_url: str, worker) -> None:
    page, _ = client
    token = register(page)
    body = {"ruleset": "twelve-gangsters", "seat_count": 3, "options": {"bots_after_s": 2}}
    matched = requests.post(
        f"{live_url}/v1/quick-match", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=10
    ).json()
    page.evaluate(f"location.hash = '#/game/{matched['game']['game_id']}'")
    page.locator('.board[data-status="waiting"]').wait_for()
    page.locator('.board[data-status="in_progress"] [data-move]').first.wait_for(timeout=15_000)
