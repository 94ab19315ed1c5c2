"""No text key or placeholder shows through in either language: the lobby of every game (its seat kinds, options
and lists) and a waiting table that counts down to the house's bots."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page

from tests.test_docs_browser import Watch

RAW = re.compile(r"\b(?:ev|option|seat_kind|action|status|bot|decision|howto|ruleset|error)\.[a-z_-]+|\{[a-z_]+\}")


def shown(page: Page) -> str:
    return page.locator("main").inner_text()


@pytest.mark.parametrize("browser_context", ["en-GB", "fr-FR"], indirect=True)
def test_no_key_shows_raw_in_the_lobby_or_a_waiting_table(client: tuple[Page, Watch]) -> None:
    page, _ = client
    page.locator("#my-name").fill("Zoé")
    page.locator("#play-as-guest").click()
    for ruleset in ("twelve-gangsters", "cash-n-guns", "mobsters"):
        page.locator(f'[data-ruleset="{ruleset}"]').click()
        page.locator(f'[data-ruleset="{ruleset}"][aria-pressed="true"]').wait_for()
        page.locator(".lists [aria-busy]").first.wait_for(state="detached")
        assert not RAW.findall(shown(page)), (ruleset, RAW.findall(shown(page)))
    page.locator('select[data-seat="1"]').select_option("open")
    page.locator('[data-option="bots_after_s"]').fill("600")
    page.locator("#create-game").click()
    page.locator('.board[data-status="waiting"]').wait_for()
    page.locator('#awaiting [data-says="bots_in"]').wait_for()
    page.wait_for_timeout(300)  # the countdown has ticked
    assert not RAW.findall(shown(page)), RAW.findall(shown(page))
