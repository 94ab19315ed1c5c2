"""A 12 Gangsters reveal drawn as a moment (each seat named, what became of its gangster, who stopped it) and its
breakdown at the end; a watched all-bot game played back at a readable pace, with a speed control and a jump to
live; a replay that jumps by round or turn and, once the game is over, shows every hand."""

from __future__ import annotations

import itertools
import time
from typing import Any

import requests
from playwright.sync_api import Page

from tests.test_docs_browser import Watch
from tests.web.conftest import click_first_move, create_game, picture, play_to_the_end
from tests.web.test_replay_and_access import finished_game


def api(live_url: str, path: str) -> Any:
    return requests.get(f"{live_url}{path}", timeout=10).json()


def all_events(live_url: str, game_id: str) -> list[dict[str, Any]]:
    return api(live_url, f"/v1/games/{game_id}/events?limit=1000")["events"]


def expected_outcome(reveal: dict[str, Any], seat: int) -> str:
    """Who stopped whom, as the rules say: the Boss stops a higher gangster; a match stops the Boss."""
    boss, plays = reveal["boss"], reveal["plays"]
    if seat in reveal["succeeded"]:
        return "succeeded"
    if seat == boss:
        matched = [s for s, card in enumerate(plays) if s != boss and card == plays[boss]]
        return "stopped by " + ",".join(str(s) for s in matched)
    return f"stopped by {boss}"


def test_a_twelve_gangsters_reveal_names_each_seat_and_says_what_became_of_its_gangster(
    client: tuple[Page, Watch], live_url: str, worker
) -> None:
    page, _ = client
    game_id = create_game(page, "twelve-gangsters", ["me", "random", "random"])
    seen: dict[int, list[dict[str, Any]]] = {}

    def choose(page: Page) -> bool:
        reveal = page.locator(".tg-reveal")
        if reveal.count():
            plays = page.locator(".tg-play").evaluate_all(
                """items => items.map(li => ({seat: Number(li.dataset.seat), card: Number(li.dataset.card),
                    outcome: li.dataset.outcome, name: li.querySelector('.tg-name').textContent,
                    said: li.querySelector('.tg-outcome').textContent,
                    mark: li.querySelector('.tg-mark').textContent}))"""
            )
            number = int(reveal.get_attribute("data-round") or 0)
            if number == 3 and number not in seen:
                picture(page, "reveal")  # a round's story, for the README
            seen.setdefault(number, plays)
        return click_first_move(page)

    play_to_the_end(page, choose, timeout_s=60)
    events = all_events(live_url, game_id)
    reveals = {e["payload"]["round"]: e["payload"] for e in events if e["type"] == "twelve_gangsters.round_revealed"}
    names = page.locator(".board .seat header strong").all_inner_texts()
    assert len(seen) >= 6, f"a reveal was drawn after most rounds: {sorted(seen)}"
    for number, plays in seen.items():
        reveal = reveals[number]
        assert [p["card"] for p in plays] == reveal["plays"]
        assert [p["name"] for p in plays] == names, "each gangster stands under its seat's name"
        for play in plays:
            want = expected_outcome(reveal, play["seat"])
            assert play["outcome"] == ("succeeded" if want == "succeeded" else "stopped")
            assert play["mark"] == ("✓" if want == "succeeded" else "✗")
            if want.startswith("stopped by"):
                stoppers = [names[int(s)] for s in want.removeprefix("stopped by ").split(",")]
                assert all(name in play["said"] for name in stoppers), (play, stoppers)
            else:
                assert "stopped" not in play["said"].lower()

    # The log says each reveal in words, with the seats' names.
    first = reveals[1]
    line = page.locator(f'.events li[data-version="{next(e["version"] for e in events if e["payload"] == first)}"]')
    text = line.inner_text()
    for seat, card in enumerate(first["plays"]):
        assert f"{names[seat]} {card}" in text
    assert ("succeeded" in text) and ("stopped" in text or not first["stopped"])

    # The end: every seat's gangster of every round laid open, and the breakdown the result details.
    rows = page.locator("#tg-rounds tbody tr")
    assert rows.count() == 12
    cells = rows.nth(0).locator("td").all_inner_texts()
    assert [int(c.split()[0].strip(" ★")) for c in cells] == first["plays"]
    details = api(live_url, f"/v1/games/{game_id}/result")["details"]["seats"]
    shown = page.locator("#breakdown li").evaluate_all(
        "items => items.map(li => ({seat: Number(li.dataset.seat), succeeded: li.dataset.succeeded}))"
    )
    assert shown == [{"seat": d["seat"], "succeeded": ",".join(map(str, d["succeeded"]))} for d in details]
    cards = page.locator('#breakdown li[data-seat="0"] .gcard .value').all_inner_texts()
    assert [int(c) for c in cards] == details[0]["succeeded"]

    # A seat's Boss badge keeps its score on the name's line.
    page.goto(f"{live_url}/play#/replay/{game_id}")
    page.locator('[data-key="next-moment"]').click()
    page.locator(".seat.boss header .boss-badge").wait_for()
    header = page.locator(".seat.boss header")
    name_box, score_box = header.locator("strong").bounding_box(), header.locator(".score").bounding_box()
    assert name_box and score_box and abs(name_box["y"] - score_box["y"]) < 8


def distinct_versions(page: Page, seconds: float) -> list[int]:
    seen: list[int] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        version = int(page.locator(".board").get_attribute("data-version") or 0)
        if not seen or seen[-1] != version:
            seen.append(version)
        page.wait_for_timeout(50)
    return seen


def reaches(page: Page, version: int, within_s: float) -> bool:
    """Whether the table shows `version` or a later one within `within_s` seconds."""
    deadline = time.monotonic() + within_s
    while int(page.locator(".board").get_attribute("data-version") or 0) < version:
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(50)
    return True


def test_a_watched_bot_game_is_played_back_at_a_readable_pace(
    client: tuple[Page, Watch], live_url: str, worker
) -> None:
    page, _ = client
    body = {"ruleset": "mobsters", "seats": [{"bot": "random"}, {"bot": "smart"}, {"bot": "random"}], "seed": 11}
    game_id = page.evaluate(
        """async (body) => {
            const answer = await fetch("/v1/games", {method: "POST", headers: {"Content-Type": "application/json"},
                body: JSON.stringify(body)});
            const id = (await answer.json()).game_id;
            location.hash = `#/watch/${id}`;
            return id;
        }""",
        body,
    )
    page.locator(".board").wait_for()
    page.locator('#pace [data-speed="1"]').click()
    start = int(page.locator(".board").get_attribute("data-version") or 0)
    # The worker plays the bots as fast as it can: many events reach the page at once.
    deadline = time.monotonic() + 20
    while api(live_url, f"/v1/games/{game_id}")["version"] < 60:
        assert time.monotonic() < deadline, "the bots did not play"
        page.wait_for_timeout(100)
    assert reaches(page, start + 1, within_s=30), "the feed tells the page of the bots' moves"
    slow = distinct_versions(page, 4)
    assert len(slow) >= 3, f"the table moves on gradually: {slow}"
    assert slow[0] <= start + 5, f"from where the page stood: {slow}"
    assert all(b - a < 60 for a, b in itertools.pairwise(slow)), f"no jump of a whole batch: {slow}"
    live = api(live_url, f"/v1/games/{game_id}")["version"]
    assert slow[-1] < live, "the page plays the game back behind the live table"
    assert int(page.locator("#pace-state").get_attribute("data-behind") or 0) > 0
    page.locator(".board .seat.changed").first.wait_for(timeout=5000)  # what an event changed is marked

    page.locator('#pace [data-speed="0.5"]').click()
    page.locator('#pace [data-speed="0.5"][aria-pressed="true"]').wait_for(timeout=5000)  # (redrawn with each event)
    halved = distinct_versions(page, 3)
    page.locator('#pace [data-speed="4"]').click()
    fast = distinct_versions(page, 3)
    assert len(halved) <= 4, f"0.5x: some 2.4 s a meaningful event: {halved}"
    assert len(fast) > len(halved), f"4x goes faster than 0.5x: {len(fast)} versions against {len(halved)}"

    # The live table as the page knows it: where it stands, and how far behind that it is.
    shown = int(page.locator(".board").get_attribute("data-version") or 0)
    known = shown + int(page.locator("#pace-state").get_attribute("data-behind") or 0)
    assert known - shown > 10
    page.locator("#pace-live").click()
    assert reaches(page, known, within_s=1), "jump to live shows the live table at once"

    # Once it is over, its replay goes turn by turn, and shows every hand at each version.
    deadline = time.monotonic() + 40
    while not api(live_url, f"/v1/games/{game_id}/result").get("tallied"):
        assert time.monotonic() < deadline, "the bots did not finish the game"
        page.wait_for_timeout(200)
    events = all_events(live_url, game_id)
    turns = [e["version"] for e in events if e["type"] == "mobsters.turn_started"]
    page.goto(f"{live_url}/play#/replay/{game_id}")
    page.locator('[data-key="next-moment"]').click()
    page.locator(f'.board[data-version="{turns[0]}"]').wait_for()
    page.locator('[data-key="next-moment"]').click()
    page.locator(f'.board[data-version="{turns[1]}"]').wait_for()
    state = api(live_url, f"/v1/games/{game_id}/states/{turns[1]}")["state"]
    for seat in state["seats"]:
        shown = page.locator(f'#hands li[data-seat="{seat["seat"]}"]').inner_text()
        names = [api_card["name"] for api_card in cards(live_url, "mobsters") if api_card["id"] in seat["hand"]]
        assert seat["hand"] and all(name in shown for name in names), (shown, seat["hand"])


def cards(live_url: str, ruleset: str) -> list[dict[str, Any]]:
    return api(live_url, f"/v1/rulesets/{ruleset}/cards")["cards"]


def test_a_replay_jumps_round_by_round_and_shows_every_hand_once_the_game_is_over(
    client: tuple[Page, Watch], live_url: str, worker
) -> None:
    page, _ = client
    game_id = finished_game(live_url)
    events = all_events(live_url, game_id)
    last = events[-1]["version"]
    begins = ("twelve_gangsters.boss_chosen", "twelve_gangsters.boss_passed")
    rounds = [e["version"] for e in events if e["type"] in begins]

    page.goto(f"{live_url}/play#/replay/{game_id}")
    page.locator("#replay-note").wait_for()
    assert page.locator("#replay-note").inner_text() == "The game was created"

    landed: list[int] = []
    while not landed or landed[-1] != last:
        page.locator('[data-key="next-moment"]').click()
        page.locator(f'.board[data-version="{[*rounds, last][len(landed)]}"]').wait_for()
        landed.append(int(page.locator(".board").get_attribute("data-version") or 0))
    assert landed == [*rounds, last], "each jump lands where a round begins, then on the end"
    assert len(landed) == 13, "a round a step, not an event a step"

    page.locator('[data-key="prev-moment"]').click()
    page.locator(f'.board[data-version="{rounds[-1]}"]').wait_for()
    page.locator('[data-key="prev-moment"]').click()
    page.locator(f'.board[data-version="{rounds[-2]}"]').wait_for()

    # The game is over: each seat's hand and its chosen gangster are public at every version.
    middle = rounds[4] + 2  # two seats have chosen in the fifth round
    page.locator(f'.events li[data-version="{middle}"] button').click()
    page.locator(f'.board[data-version="{middle}"]').wait_for()
    state = api(live_url, f"/v1/games/{game_id}/states/{middle}")["state"]
    assert sum(seat["chosen"] is not None for seat in state["seats"]) == 2
    for seat in state["seats"]:
        held = page.locator(f'.board .seat[data-seat="{seat["seat"]}"] .pile.tg_hand .gcard .value').all_inner_texts()
        assert [int(v) for v in held] == seat["hand"] and len(held) >= 7
        if seat["chosen"] is not None:
            chosen = page.locator(f'.board .seat[data-seat="{seat["seat"]}"] .played .gcard.chosen .value').inner_text()
            assert int(chosen) == seat["chosen"]
