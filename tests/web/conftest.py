"""The web client at /play in a real browser (Debian's Chromium, driven by Playwright) against the test app on
the test Redis, with a real worker playing the bots. Every other host is cut off and counted, and every console
error is kept: each test ends by checking there were none."""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

from service.config import Config
from tests.judges import JUDGE
from tests.test_docs_browser import CHROMIUM, CHROMIUM_ARGS, Watch, live_url, watched
from tests.workers.conftest import start_worker

__all__ = ["live_url", "start_worker"]

SHOTS = os.environ.get("SYNDICATE_SCREENSHOTS")
"""A folder to save a screenshot of each table into (`make screenshots` sets it to docs/screenshots)."""


@pytest.fixture
def open_context(tmp_path: Path) -> Iterator[Callable[..., BrowserContext]]:
    """Open a headless Chromium with a fresh profile of its own (`profile`), as many as a test needs: each is
    another person's browser, with storage of its own."""
    if not CHROMIUM.exists():
        message = f"no browser at {CHROMIUM}: `apt-get install chromium` to run the browser tests"
        if os.environ.get("CI"):
            pytest.fail(message + " (.ci/run installs it; in CI its absence is a failure, not a skip)")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    opened: list[BrowserContext] = []
    with sync_playwright() as playwright:

        def open_one(profile: str = "profile", locale: str = "en-GB") -> BrowserContext:
            context = playwright.chromium.launch_persistent_context(
                str(tmp_path / profile),
                executable_path=str(CHROMIUM),
                args=[*CHROMIUM_ARGS, f"--lang={locale}"],
                headless=True,
                locale=locale,
                viewport={"width": 1280, "height": 900},
            )
            opened.append(context)
            return context

        try:
            yield open_one
        finally:
            for context in opened:
                context.close()


@pytest.fixture
def browser_context(open_context: Callable[..., BrowserContext], request: pytest.FixtureRequest) -> BrowserContext:
    """A headless Chromium with a fresh profile; `@pytest.mark.parametrize("locale", ...)` sets its language."""
    return open_context(locale=getattr(request, "param", "en-GB"))


@pytest.fixture
def config(config: Config) -> Config:
    """The test app reviews finished games with the test judge (tests/judges.py), as the worker does."""
    return dataclasses.replace(config, judge=JUDGE)


@pytest.fixture
def worker(start_worker: Callable[..., Any]) -> None:
    """A real `syndicate worker` on the test Redis: it plays the bots' turns, the deadlines and the tally, and
    reviews finished games with the test judge."""
    start_worker(environ={"SYNDICATE_JUDGE": JUDGE})


@pytest.fixture
def client(browser_context: BrowserContext, live_url: str) -> Iterator[tuple[Page, Watch]]:
    """A page on the client's lobby; after the test, nothing was asked of another host and nothing logged an error."""
    page, watch = watched(browser_context)
    page.goto(f"{live_url}/play", wait_until="networkidle")
    page.locator("#create-game").wait_for()
    yield page, watch
    assert watch.elsewhere == [], f"the client asked another host: {watch.elsewhere}"
    assert watch.errors == [], f"the console logged errors: {watch.errors}"


def create_game(page: Page, ruleset: str, seats: list[str], options: dict[str, Any] | None = None) -> str:
    """Create a game through the lobby's form; the table it opens; the game's id."""
    page.locator(f'[data-ruleset="{ruleset}"]').click()
    page.locator(f'[data-ruleset="{ruleset}"][aria-pressed="true"]').wait_for()
    while page.locator("[data-seat]").count() < len(seats):
        page.get_by_role("button", name="Add a seat").click()
    for index, kind in enumerate(seats):
        page.locator(f'select[data-seat="{index}"]').select_option(kind)
    for name, value in (options or {}).items():
        page.locator(f'[data-option="{name}"]').fill(str(value))
    page.locator("#create-game").click()
    page.locator(".board").wait_for()
    return page.evaluate("location.hash.split('/')[2]")


def picture(page: Page, name: str) -> None:
    """Save the page as docs/screenshots/<name>.png when `make screenshots` asks (SYNDICATE_SCREENSHOTS)."""
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def click_first_move(page: Page) -> bool:
    """Click the first move the table offers; False when it offers none."""
    moves = page.locator("[data-move]")
    if moves.count() == 0:
        return False
    moves.first.click(timeout=2000)
    return True


def shown_moves(page: Page) -> list[dict[str, Any]]:
    return [json.loads(key) for key in page.locator("[data-move]").evaluate_all("bs => bs.map(b => b.dataset.move)")]


def legal_moves(page: Page, game_id: str) -> list[dict[str, Any]]:
    """What the API says this browser's seat may do now, asked with the token the client keeps."""
    return page.evaluate(
        """async (id) => {
            const seat = JSON.parse(localStorage.getItem("syndicate.seats"))[id];
            const headers = {Authorization: `Bearer ${seat.token}`};
            const view = await (await fetch(`/v1/games/${id}`, {headers})).json();
            return view.you ? view.you.legal_moves : [];
        }""",
        game_id,
    )


def canonical(moves: list[dict[str, Any]]) -> set[str]:
    return {json.dumps(move, sort_keys=True) for move in moves}


def settle(page: Page) -> None:
    """Wait until the client has answered the last click (its move posted, the table drawn again)."""
    page.locator('body[data-busy="0"]').wait_for(state="attached")  # a selector: the page's CSP forbids eval


def finished(page: Page) -> bool:
    return page.locator('.board[data-status="finished"]').count() > 0


def play_to_the_end(
    page: Page, choose: Callable[[Page], bool], timeout_s: float = 120, shot: str | None = None, shot_after: int = 5
) -> int:
    """Click what `choose` picks until the game is over; how many clicks it took. Saves a screenshot of the table
    after `shot_after` clicks when SYNDICATE_SCREENSHOTS is set."""
    clicks = play_until(page, choose, lambda: finished(page), timeout_s, shot, shot_after)
    page.locator("#result").wait_for()
    return clicks


def play_until(
    page: Page,
    choose: Callable[[Page], bool],
    done: Callable[[], bool],
    timeout_s: float = 120,
    shot: str | None = None,
    shot_after: int = 5,
) -> int:
    """Click what `choose` picks until `done()`; how many clicks it took (see `play_to_the_end`)."""
    clicks = 0
    deadline = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < deadline, f"not done in {timeout_s} s ({clicks} clicks)"
        try:
            clicked = choose(page)
        except PlaywrightError:  # the feed redrew the table under the click: look again
            clicked = False
        if clicked:
            clicks += 1
            settle(page)
            if SHOTS and shot and clicks == shot_after:
                page.screenshot(path=str(Path(SHOTS) / f"{shot}.png"), full_page=True)
        else:
            page.wait_for_timeout(50)
    return clicks
