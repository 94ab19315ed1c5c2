"""/docs in a real browser (Debian's Chromium, driven by Playwright) with every other host cut off: Swagger UI
renders the operations, "Authorize" keeps a seat token across a reload, "Try it out" asks the service itself,
nothing is asked of another host and nothing is logged as an error."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Request, Route, sync_playwright
from werkzeug.serving import make_server

from service.ops.redis_server import free_port

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's package (.ci/run installs it): Playwright cannot download a browser of its own here."""

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HOME = "127.0.0.1"
TIMEOUT_MS = 20_000


@pytest.fixture
def live_url(app: Flask) -> Iterator[str]:
    """The test app (on the test Redis) served over real HTTP by a threaded werkzeug server."""
    server = make_server(HOME, free_port(), app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{HOME}:{server.port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


@pytest.fixture
def context(tmp_path: Path) -> Iterator[BrowserContext]:
    """A headless Chromium with a fresh profile."""
    if not CHROMIUM.exists():
        message = f"no browser at {CHROMIUM}: `apt-get install chromium` to run the /docs browser test"
        if os.environ.get("CI"):
            pytest.fail(message + " (.ci/run installs it; in CI its absence is a failure, not a skip)")
        pytest.skip(message)
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield context
        finally:
            context.close()


RACED = re.compile(r"^Failed to load resource: the server responded with a status of (409|412)\b")
"""How the browser logs a move the API refused as a conflict: what a click on a table drawn just before a bot or a
deadline moved gets, by the rules' or the version's check (the page then draws the table anew)."""


@dataclass
class Watch:
    """What a page asked of other hosts (each request refused), what it logged as an error, and the moves refused
    as conflicts (`RACED`), which are the API's answer to a stale click, not an error of the page."""

    elsewhere: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    raced: list[str] = field(default_factory=list)

    def route(self, route: Route) -> None:
        if urlsplit(route.request.url).hostname == HOME:
            route.continue_()
        else:
            self.elsewhere.append(route.request.url)
            route.abort("blockedbyclient")

    def request(self, request: Request) -> None:
        if urlsplit(request.url).scheme in ("http", "https", "ws", "wss") and urlsplit(request.url).hostname != HOME:
            self.elsewhere.append(request.url)

    def console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        if RACED.match(message.text) and urlsplit(message.location.get("url", "")).path.endswith("/moves"):
            self.raced.append(message.text)
        else:
            self.errors.append(message.text)


def watched(context: BrowserContext) -> tuple[Page, Watch]:
    watch = Watch()
    context.route("**/*", watch.route)
    page = context.new_page()
    page.on("request", watch.request)
    page.on("console", watch.console)
    page.on("pageerror", lambda error: watch.errors.append(str(error)))
    page.set_default_timeout(TIMEOUT_MS)
    return page, watch


def test_docs_render_every_operation_offline_and_keep_the_seat_token(context: BrowserContext, live_url: str) -> None:
    page, watch = watched(context)

    page.goto(f"{live_url}/docs", wait_until="networkidle")
    assert watch.elsewhere == [], f"/docs asked another host: {watch.elsewhere}"

    create = page.locator(".opblock-summary", has_text="Create a game; anonymous human seats get their tokens, once")
    create.wait_for(state="visible")
    assert page.locator(".opblock-summary-path", has_text="/v1/games/{game_id}/moves").count() == 1
    assert page.locator(".opblock").count() >= 15, "every operation of the document"

    page.locator(".auth-wrapper button.authorize").click()
    seat_form = page.locator(".modal-ux form").filter(has_text="seatToken")  # the player token has a form too
    seat_form.locator("input").fill("a-seat-token")
    seat_form.locator("button.authorize").click()
    page.locator(".modal-ux button.btn-done").first.click()
    page.reload(wait_until="networkidle")
    page.locator(".opblock").first.wait_for(state="visible")
    kept = page.evaluate("localStorage.getItem('authorized')") or ""
    assert "seatToken" in kept and "a-seat-token" in kept, "persistAuthorization keeps the token"
    assert page.locator(".auth-wrapper button.authorize.locked").count() == 1, "shown as authorized after a reload"

    assert watch.elsewhere == [], f"/docs asked another host: {watch.elsewhere}"
    assert watch.errors == [], f"the console logged errors: {watch.errors}"


def test_try_it_out_asks_the_service_itself(context: BrowserContext, live_url: str) -> None:
    page, watch = watched(context)
    page.goto(f"{live_url}/docs", wait_until="networkidle")

    cards = page.locator(
        ".opblock", has=page.locator(".opblock-summary-path", has_text="/v1/rulesets/{ruleset_id}/cards")
    )
    cards.locator(".opblock-summary").click()
    cards.locator("button.try-out__btn").click()
    cards.locator(".parameters select").select_option("mobsters")
    cards.locator("button.execute").click()

    answer = cards.locator(".live-responses-table tr.response .response-col_status").first
    answer.wait_for(state="visible")
    assert answer.inner_text().strip() == "200"
    assert "mobster:the-worm" in cards.locator(".live-responses-table .microlight").first.inner_text()
    assert watch.elsewhere == [], f"/docs asked another host: {watch.elsewhere}"
    assert watch.errors == [], f"the console logged errors: {watch.errors}"


def logged(text: str, url: str) -> Any:
    """A console error as the browser reports a request's answer (only what `Watch.console` reads)."""
    return SimpleNamespace(type="error", text=text, location={"url": url, "lineNumber": 0, "columnNumber": 0})


def test_a_move_refused_as_a_conflict_is_set_aside_and_every_other_error_kept() -> None:
    watch = Watch()
    conflict = "Failed to load resource: the server responded with a status of 409 (Conflict)"
    stale = "Failed to load resource: the server responded with a status of 412 (Precondition Failed)"
    game = f"http://{HOME}:8000/v1/games/abc"
    watch.console(logged(conflict, f"{game}/moves"))
    watch.console(logged(stale, f"{game}/moves"))
    unfit = "Failed to load resource: the server responded with a status of 422 ()"
    failed = "Failed to load resource: the server responded with a status of 500 ()"
    thrown = "Uncaught TypeError: view.state is undefined"
    watch.console(logged(conflict, f"{game}/join"))  # a refused join is the page's to show, and its test's to expect
    watch.console(logged(unfit, f"{game}/moves"))
    watch.console(logged(failed, f"{game}/moves"))
    watch.console(logged(thrown, f"http://{HOME}:8000/play/static/table.js"))
    assert watch.raced == [conflict, stale]
    assert watch.errors == [conflict, unfit, failed, thrown]
