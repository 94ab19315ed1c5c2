"""A finished game replayed step by step beside its event list with the audit's verdict; the language from the
browser and the switch; keyboard play, labels for screen readers and a phone-width table."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page

from tests.test_docs_browser import Watch
from tests.web.conftest import SHOTS, create_game, settle


def finished_game(live_url: str) -> str:
    """A game of three bots, played to the end by the worker, and tallied: its log is whole."""
    body = {"ruleset": "twelve-gangsters", "seats": [{"bot": "random"}, {"bot": "smart"}, {"bot": "random"}], "seed": 7}
    game_id = requests.post(f"{live_url}/v1/games", json=body, timeout=10).json()["game_id"]
    deadline = time.monotonic() + 60
    while not requests.get(f"{live_url}/v1/games/{game_id}/result", timeout=10).json().get("tallied"):
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.2)
    return game_id


def test_a_finished_game_is_replayed_step_by_step_with_its_audit(
    client: tuple[Page, Watch], live_url: str, worker
) -> None:
    page, _ = client
    game_id = finished_game(live_url)
    events = requests.get(f"{live_url}/v1/games/{game_id}/events?limit=1000", timeout=10).json()["events"]
    last = len(events)
    audit = requests.get(f"{live_url}/v1/games/{game_id}/audit", timeout=10).json()

    page.goto(f"{live_url}/play#/replay/{game_id}")
    version = page.locator("#replay-version")
    version.wait_for()
    assert version.inner_text() == f"Version 1 of {last}"
    assert page.locator(".events li").count() == last, "every event is listed beside the table"

    page.locator('[data-key="next"]').click()
    page.locator('.board[data-version="2"]').wait_for()
    assert version.inner_text() == f"Version 2 of {last}"

    # A round's reveal, chosen from the event list, shows the gangsters the log says were played.
    revealed = next(e for e in events if e["type"] == "twelve_gangsters.round_revealed")
    page.locator(f'.events li[data-version="{revealed["version"]}"] button').click()
    page.locator(f'.board[data-version="{revealed["version"]}"]').wait_for()
    shown = page.locator(".reveal .gcard .value").all_inner_texts()
    assert [int(v) for v in shown] == revealed["payload"]["plays"]

    page.locator('[data-key="last"]').click()
    page.locator(f'.board[data-version="{last}"]').wait_for()
    assert page.locator("#result").is_visible()

    # The slider answers the keyboard.
    page.locator("#replay-slider").focus()
    page.keyboard.press("ArrowLeft")
    page.locator(f'.board[data-version="{last - 1}"]').wait_for()

    badge = page.locator('#audit-badge[data-ok="true"]')
    badge.wait_for()
    assert badge.inner_text() == "Audit passed"
    badge.click()
    details = page.locator("#audit dl").inner_text()
    assert audit["head_hash"] in details
    assert "not checked" not in details, "the browser checked the hash links and the seed itself"
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / "replay.png"), full_page=True)


@pytest.mark.parametrize("browser_context", ["fr-FR"], indirect=True)
def test_the_language_follows_the_browser_and_the_switch(client: tuple[Page, Watch], worker) -> None:
    page, _ = client
    assert page.locator("h1").inner_text() == "Salon"
    assert page.evaluate("document.documentElement.lang") == "fr"
    keys = page.evaluate(
        "async () => { const m = await import('/play/static/strings.js');"
        " return [Object.keys(m.STRINGS_EN).sort(), Object.keys(m.STRINGS_FR).sort()]; }"
    )
    assert keys[0] == keys[1], "every text exists in both languages"

    page.locator('[data-lang="en"]').click()
    page.locator("h1", has_text="Lobby").wait_for()
    assert page.evaluate("document.documentElement.lang") == "en"
    page.reload()
    page.locator("h1", has_text="Lobby").wait_for()

    page.locator('[data-lang="fr"]').click()
    page.locator("h1", has_text="Salon").wait_for()
    page.locator('[data-ruleset="cash-n-guns"]').click()
    page.locator(".howto summary").click()
    assert "Huit tours" in page.locator(".howto").inner_text()


def test_a_game_is_played_with_the_keyboard_on_a_phone_width_screen(client: tuple[Page, Watch], worker) -> None:
    page, _ = client
    page.set_viewport_size({"width": 390, "height": 844})
    create_game(page, "twelve-gangsters", ["me", "random", "random"])
    page.locator("[data-move]").first.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "nothing wider than the screen"

    # Every button says what it does, and every drawn card says what it is.
    labels = page.locator("[data-move]").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
    assert labels == [f"Play gangster {n}" for n in range(1, 13)]
    unlabelled = page.locator('[role="img"]:not([aria-label])').count()
    assert unlabelled == 0

    for _ in range(200):  # Tab to the hand, then play gangsters with Enter
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.move !== undefined"):
            break
    page.keyboard.press("Enter")
    settle(page)
    page.locator(".hand .gcard.spent").first.wait_for()
    page.locator(".hand .card-button:focus").wait_for()  # the next round's hand takes the focus back
    page.keyboard.press("Enter")
    settle(page)
    page.locator(".hand .gcard.spent").nth(1).wait_for()


def test_an_open_seat_is_joined_from_the_lobby_and_the_game_starts(
    client: tuple[Page, Watch], live_url: str, worker
) -> None:
    page, _ = client
    body = {"ruleset": "twelve-gangsters", "seats": [{"bot": "random"}, {"open": True}, {"bot": "smart"}]}
    game_id = requests.post(f"{live_url}/v1/games", json=body, timeout=10).json()["game_id"]
    page.locator("#my-name").fill("Zoé")
    page.locator("#my-name").dispatch_event("change")
    page.reload()
    page.locator(f'[data-status="waiting"] [data-join="{game_id}"]').click()
    page.locator('.board[data-status="in_progress"]').wait_for()
    assert page.locator("#playing-as").inner_text() == "You are Zoé"
    page.locator("[data-move]").first.wait_for()
    assert requests.get(f"{live_url}/v1/games/{game_id}", timeout=10).json()["seats"][1]["name"] == "Zoé"


def test_a_game_whose_creator_chose_the_seed_is_marked_and_joined_only_once_confirmed(
    client: tuple[Page, Watch], live_url: str
) -> None:
    page, _ = client
    body = {"ruleset": "twelve-gangsters", "seats": [{"name": "Mallory"}, {"open": True}, {"bot": "random"}], "seed": 9}
    game_id = requests.post(f"{live_url}/v1/games", json=body, timeout=10).json()["game_id"]
    page.reload()
    item = page.locator(f'.game-item[data-game="{game_id}"]')
    assert item.locator('[data-randomness="public"]').inner_text() == "Public seed"
    page.once("dialog", lambda dialog: dialog.dismiss())  # declined: nothing is asked of the API
    item.locator("[data-join]").click()
    assert requests.get(f"{live_url}/v1/games/{game_id}", timeout=10).json()["seats"][1]["open"]
    page.once("dialog", lambda dialog: dialog.accept())
    item.locator("[data-join]").click()
    page.locator('.board[data-status="in_progress"]').wait_for()
    assert page.locator('.table-head [data-randomness="public"]').is_visible()
    assert not requests.get(f"{live_url}/v1/games/{game_id}", timeout=10).json()["seats"][1]["open"]
