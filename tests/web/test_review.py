"""A finished game's replay draws its review: each seat's chance to win across the game (an SVG with a title and a
text alternative) and the three costliest decisions, marked on it and listed, each jumping the replay to its
version. The worker reviews the game with the test judge (tests/judges.py)."""

from __future__ import annotations

import time
from typing import Any

import requests
from playwright.sync_api import Page

from tests.test_docs_browser import Watch
from tests.web.test_replay_and_access import finished_game


def reviewed(live_url: str, game_id: str) -> dict[str, Any]:
    """The game's review, once the worker made it."""
    deadline = time.monotonic() + 60
    while (answer := requests.get(f"{live_url}/v1/games/{game_id}/review", timeout=10)).status_code == 202:
        assert time.monotonic() < deadline, "the worker did not review the game"
        time.sleep(0.2)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def test_a_finished_games_replay_draws_its_review_and_jumps_to_its_costliest_decisions(
    client: tuple[Page, Watch], live_url: str, worker
) -> None:
    page, _ = client
    game_id = finished_game(live_url)
    review = reviewed(live_url, game_id)
    costly = sorted((d for d in review["decisions"] if d["loss"] > 0), key=lambda d: (-d["loss"], d["version"]))[:3]
    assert len(costly) == 3, "the random bots gave chances away"

    page.goto(f"{live_url}/play#/replay/{game_id}")
    chart = page.locator("#review svg.review-chart")
    chart.wait_for()
    assert chart.get_attribute("role") == "img"
    assert page.locator("#review-chart-title").text_content() == "Each seat's chance to win across the game"
    told = page.locator("#review-chart-desc").text_content() or ""
    names = page.locator("#review .legend li").all_inner_texts()
    assert len(names) == 3 and all(name.strip() in told for name in names), "the text alternative names each seat"
    assert page.locator(".review-chart .line").count() == 3, "a line per seat"

    marks = page.locator(".review-chart .mark")
    assert [int(v) for v in marks.evaluate_all("ms => ms.map(m => m.dataset.version)")] == [
        d["version"] for d in costly
    ]
    listed = page.locator("#review .costly-decision")
    assert listed.count() == 3
    assert listed.nth(0).inner_text().startswith(f"Version {costly[0]['version']}:")

    listed.nth(1).click()
    page.locator(f'.board[data-version="{costly[1]["version"]}"]').wait_for()
    assert page.locator("#replay-version").inner_text().startswith(f"Version {costly[1]['version']} of")

    marks.nth(2).click()
    page.locator(f'.board[data-version="{costly[2]["version"]}"]').wait_for()
