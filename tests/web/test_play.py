"""Games played by clicking in the browser against bots a real worker plays: whole games of 12 Gangsters and
Ca$h 'n Guns, and Mobsters' first turns (a whole Mobsters game is played in tests/web/test_mobsters_learn.py); only
what `legal_moves` allows is ever a button; a spectator's table follows the game live and offers nothing to click."""

from __future__ import annotations

import json
import random

from playwright.sync_api import Page

from tests.test_docs_browser import Watch
from tests.web.conftest import (
    canonical,
    click_first_move,
    create_game,
    legal_moves,
    play_to_the_end,
    play_until,
    shown_moves,
)


def test_twelve_gangsters_is_played_to_the_end_by_clicking_and_watched_live(client: tuple[Page, Watch], worker) -> None:
    page, _ = client
    # Every bot kind the ruleset lists is offered, weakest first, with how it plays; a hard bot takes a seat.
    page.locator('[data-ruleset="twelve-gangsters"]').click()
    page.locator('[data-ruleset="twelve-gangsters"][aria-pressed="true"]').wait_for()
    offered = page.locator('select[data-seat="1"] option').evaluate_all("os => os.map(o => [o.value, o.title])")
    assert [kind for kind, _ in offered] == ["me", "open", "random", "smart", "hard"]
    assert all(about for kind, about in offered if kind not in ("me", "open"))
    game_id = create_game(page, "twelve-gangsters", ["me", "hard", "smart"])
    page.locator("[data-move]").first.wait_for()
    seated = page.evaluate("async (id) => (await (await fetch(`/v1/games/${id}`)).json()).seats", game_id)
    assert [seat.get("bot") for seat in seated] == [None, "hard", "smart"]

    # Exactly the API's legal moves are buttons: the twelve gangsters of the hand, and nothing else.
    assert canonical(shown_moves(page)) == canonical(legal_moves(page, game_id))
    assert len(shown_moves(page)) == 12
    assert page.locator(".hand .gcard").count() == 12

    spectator = page.context.new_page()
    spectator.goto(page.url.replace("#/game/", "#/watch/"))
    spectator.locator(".board").wait_for()
    assert spectator.locator("[data-move]").count() == 0, "a spectator has nothing to click"
    watched_from = int(spectator.locator(".board").get_attribute("data-version"))
    page.bring_to_front()  # a background tab draws no animation frames, and Playwright waits for them to click

    def play(page: Page) -> bool:
        if page.locator("[data-move]").count() == 0:
            return False
        assert canonical(shown_moves(page)) == canonical(legal_moves(page, game_id))
        return click_first_move(page)

    clicks = play_to_the_end(page, play, shot="twelve-gangsters")
    assert clicks == 12, "one gangster a round, twelve rounds with three players"
    assert page.locator(".hand .card-button").count() == 0, "a finished game offers nothing to click"
    scores = page.locator("#result tbody tr").all_inner_texts()
    assert len(scores) == 3

    # The spectator's table followed the game from the feed alone, to the end, without a reload: in front again, it
    # plays back at a readable pace what it was behind (a background tab's timers are slowed).
    spectator.bring_to_front()
    spectator.locator('.board[data-status="finished"]').wait_for(timeout=90_000)
    assert int(spectator.locator(".board").get_attribute("data-version")) > watched_from
    assert spectator.locator("[data-move]").count() == 0
    spectator.close()


def test_cash_n_guns_is_played_to_the_end_by_clicking(client: tuple[Page, Watch], worker) -> None:
    page, _ = client
    game_id = create_game(page, "cash-n-guns", ["me", "smart", "random", "random"], {"aim_window_s": 5})
    chooser = random.Random(7)
    seen_phases: set[str] = set()
    countdowns: list[str] = []

    def play(page: Page) -> bool:
        moves = page.locator("[data-move]")
        if moves.count() == 0:
            return False
        shown = shown_moves(page)
        assert canonical(shown) == canonical(legal_moves(page, game_id))
        seen_phases.update(move["type"] for move in shown)
        if any(move["type"] == "aim" for move in shown):
            countdowns.append(page.locator("#awaiting .countdown").inner_text())
        moves.nth(chooser.randrange(len(shown))).click(timeout=2000)
        return True

    play_to_the_end(page, play, timeout_s=150, shot="cash-n-guns", shot_after=6)
    assert {"load", "aim", "courage"} <= seen_phases
    assert countdowns and all(text.endswith(" s left") for text in countdowns), "the hold-up window counts down"
    assert page.locator(".ring .tile").count() == 4
    assert page.locator("#result").is_visible()


PREFERRED = ("keep_hand", "discard", "recruit")
END_PHASE = {"type": "end_phase"}
"""The moves the test player makes when it can; the rest of each turn it ends the phase."""

TURNS_CLICKED = 60
"""Clicks enough for several turns of every phase: a card picked, then a move it offers, and phases ended from the
keyboard."""


def test_mobsters_is_played_by_clicking_cards_moves_and_keys(client: tuple[Page, Watch], worker) -> None:
    page, _ = client
    game_id = create_game(page, "mobsters", ["me", "smart"])
    counts = {"picked": 0, "checked": 0, "keyboard": 0}

    def click(move: dict) -> None:
        page.locator(f"[data-move='{json.dumps(move, separators=(',', ':'))}']").click(timeout=2000)

    def play(page: Page) -> bool:
        shown = shown_moves(page)
        if counts["checked"] % 10 == 0 and shown:
            assert canonical(shown) <= canonical(legal_moves(page, game_id)), "every button is a legal move"
        counts["checked"] += 1
        if preferred := [m for m in shown if m["type"] in PREFERRED]:
            click(preferred[0])
            return True
        # A move that names cards is offered once one of them is picked: pick the first card it names.
        wanted = [m for m in legal_moves(page, game_id) if m["type"] in PREFERRED]
        if wanted:
            move = wanted[0]
            page.locator(f'[data-subject="{move.get("card") or move["cards"][0]}"]').first.click(timeout=2000)
            click(move)
            counts["picked"] += 1
            return True
        if shown == [END_PHASE] and page.evaluate("document.activeElement.dataset.move") == json.dumps(
            END_PHASE, separators=(",", ":")
        ):
            page.keyboard.press("Enter")  # the focus is back on the moves after each one: play on from the keyboard
            counts["keyboard"] += 1
            return True
        return bool(shown) and click_first_move(page)

    def enough() -> bool:
        return counts["checked"] >= TURNS_CLICKED and counts["picked"] > 0 and counts["keyboard"] > 0

    play_until(page, play, enough, timeout_s=150, shot="mobsters", shot_after=TURNS_CLICKED)
    assert counts["picked"] > 0, "moves were made by picking a card, then one of the moves it offers"
    assert counts["keyboard"] > 0, "and phases ended with the keyboard"
    assert page.locator(".seats .seat").count() == 2
