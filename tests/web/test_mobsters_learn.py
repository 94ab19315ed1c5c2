"""Mobsters you can learn by playing: auto-pass set from the table page saves clicks (a whole game in far fewer
than the 281 a player needed without it), every card says what it does and fits its name in English and French, the log
names whose cards act on whom, a die lasts as long as its roll, and the result gives each seat's money by source."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.test_docs_browser import Watch
from tests.web.conftest import create_game, legal_moves, play_to_the_end, shown_moves

SEATS = ["me", "smart", "smart"]
PASSED = ["draw", "hit", "crime", "collection", "law"]
"""The phases a player rarely acts in when it plays as the test does (it recruits, and discards when it must)."""
PREFERRED = ("keep_hand", "discard", "recruit")
NAMING = ("card", "cards", "operation", "mobster", "victim", "law")
"""The fields of a move that name cards, in the order the test picks one."""


def move_key(move: dict[str, Any]) -> str:
    return json.dumps(move, separators=(",", ":"))


def step(page: Page, game_id: str) -> bool:
    """One click of the test's player, if it has a move: a preferred one, else the first move offered (ending the
    phase); a move that names cards is offered once one of them is picked, and picking it is a click too. Whether
    it clicked."""
    shown = shown_moves(page)
    if preferred := [m for m in shown if m["type"] in PREFERRED]:
        page.locator(f"[data-move='{move_key(preferred[0])}']").click(timeout=2000)
        return True
    legal = legal_moves(page, game_id) if page.locator("#awaiting.mine").count() else []
    wanted = [m for m in legal if m["type"] in PREFERRED] or ([] if shown else legal)  # e.g. a reassignment
    named = [v for k, v in wanted[0].items() if k in NAMING and v] if wanted else []
    if named:
        subject = named[0][0] if isinstance(named[0], list) else named[0]
        page.locator(f'[data-subject="{subject}"]').first.click(timeout=2000)
        return True
    if shown:
        page.locator("[data-move]").first.click(timeout=2000)
        return True
    return False


def fetched(page: Page, path: str, seat_of: str | None = None) -> Any:
    """What the API answers the page (with the seat token it keeps for the game `seat_of`)."""
    return page.evaluate(
        """async ([path, game]) => {
            const seat = game && JSON.parse(localStorage.getItem("syndicate.seats"))[game];
            return (await fetch(path, { headers: seat ? { Authorization: `Bearer ${seat.token}` } : {} })).json();
        }""",
        [path, seat_of],
    )


def whole_game(page: Page, auto_pass: list[str]) -> tuple[str, int]:
    """A game of SEATS created from the lobby, the phases chosen passed for the test's seat (a click each, on the
    table page), and played to its end: its id and the clicks it took."""
    page.goto(page.url.split("#")[0], wait_until="networkidle")
    game_id = create_game(page, "mobsters", SEATS)
    page.locator("#auto-pass").wait_for()
    clicks = 0
    for count, phase in enumerate(auto_pass, 1):
        box = page.locator(f'#auto-pass input[value="{phase}"]')
        for _ in range(100):
            if len(fetched(page, f"/v1/games/{game_id}")["seats"][0].get("auto_pass", [])) == count:
                break
            if clicks < count or not box.is_checked():
                # The table is drawn anew as the bots move: a click whose press and release fall on two drawings of
                # the box is no click at all (the browser's rule), and a player clicks again, as this does.
                box.click()
                clicks += 1
            page.wait_for_timeout(50)
        else:
            raise AssertionError(f"auto-pass of {phase} not set: {page.locator('#auto-pass').inner_text()}")
    assert page.locator("#auto-pass input:checked").count() == len(auto_pass)
    return game_id, clicks + play_to_the_end(page, lambda page: step(page, game_id), timeout_s=240)


CLICKS_WITHOUT = 281
"""What a whole game took a player clicking through the table before auto-pass (and before one-click discards)."""


def test_auto_pass_plays_a_whole_game_in_far_fewer_clicks(client: tuple[Page, Watch], worker) -> None:
    page, _ = client
    quick, quick_clicks = whole_game(page, PASSED)
    print(f"\nMobsters, seats {SEATS}: {quick_clicks} clicks with auto-pass on {PASSED}")
    assert quick_clicks < CLICKS_WITHOUT / 2, quick_clicks

    # The house passed the chosen phases, each by the command that names it.
    events = fetched(page, f"/v1/games/{quick}/events?limit=1000", seat_of=quick)["events"]
    by_house = [e for e in events if e.get("command", {}).get("by") == "auto_pass"]
    assert by_house and all(e["command"]["move"] == {"type": "end_phase"} for e in by_house)

    # The result says where each seat's money came from, and it sums to the score.
    page.locator("#breakdown table").wait_for()
    assert page.locator("#breakdown tr.total td").count() == 3
    result = fetched(page, f"/v1/games/{quick}/result")
    for seat, ledger in enumerate(result["details"]["money_by_source"]):
        assert sum(ledger.values()) == result["scores"][seat]


FIT = """async (lang) => {
    const i18n = await import("/play/static/i18n.js");
    const { makeUi } = await import("/play/static/table.js");
    const mobsters = await import("/play/static/games/mobsters.js");
    i18n.setLanguage(lang);
    const answer = await (await fetch("/v1/rulesets/mobsters/cards")).json();
    const catalogue = { ...answer, byId: Object.fromEntries(answer.cards.map((c) => [c.id, c])) };
    const ui = makeUi({ seats: [] }, catalogue, [], null);
    const shelf = document.createElement("div");
    shelf.className = "board mobsters";
    const row = document.createElement("div");
    row.className = "cards";
    shelf.append(row);
    document.body.append(shelf);
    row.append(...answer.cards.map((c) => mobsters.mcard(ui, c.id)));
    const found = [...row.querySelectorAll(".mcard")].map((card) => {
      const box = card.getBoundingClientRect();
      const name = card.querySelector(".name");
      const inner = name.getBoundingClientRect();
      return { name: name.textContent, rules: card.querySelector(".rules").textContent, kind: card.classList[1],
        fits: name.scrollWidth <= name.clientWidth && inner.left >= box.left && inner.right <= box.right + 0.5 };
    });
    shelf.remove();
    i18n.setLanguage("en");
    return found;
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_card_says_what_it_does_and_its_name_fits(client: tuple[Page, Watch], lang: str) -> None:
    page, _ = client
    cards = page.evaluate(FIT, lang)
    assert len(cards) == 161
    assert [c["name"] for c in cards if not c["fits"]] == []
    assert all(c["rules"] for c in cards)
    operation = next(c for c in cards if c["kind"] == "operation")
    assert ("spends its action" if lang == "en" else "son action") in operation["rules"]
    names = {c["name"] for c in cards}
    assert (
        {"Federal Investigation", "Nitroglycerine", "Loansharking"} <= names
        if lang == "en"
        else ({"Enquête fédérale", "Nitroglycérine", "Prêt usuraire"} <= names)
    )
    lucky = next(c for c in cards if c["name"] == "Lucky")
    assert "+$100" in lucky["rules"] if lang == "en" else "100" in lucky["rules"]


LOG = """async () => {
    const i18n = await import("/play/static/i18n.js");
    const { makeUi, describe } = await import("/play/static/table.js");
    const mobsters = await import("/play/static/games/mobsters.js");
    const answer = await (await fetch("/v1/rulesets/mobsters/cards")).json();
    const catalogue = { ...answer, byId: Object.fromEntries(answer.cards.map((c) => [c.id, c])) };
    const view = { seats: [{ seat: 0, name: "Ann" }, { seat: 1, name: "Bob" }] };
    const hit = { type: "mobsters.hit_attempted", version: 40, payload: { seat: 0, mobster: "mobster:knuckles",
      card: "hit:sniper", victim: "mobster:lefty", target_seat: 1, roll: 5, killed: true } };
    const phase = { type: "mobsters.phase_started", version: 41, payload: { seat: 0, phase: "crime" } };
    const said = (events) => { const ui = makeUi(view, catalogue, events, null); return describe(events.at(-1), ui); };
    const die = (events) => mobsters.lastRoll(makeUi(view, catalogue, events, null))?.textContent ?? null;
    const en = { hit: said([hit]), die: die([hit]), stale: die([hit, phase]) };
    i18n.setLanguage("fr");
    const fr = { hit: said([hit]) };
    i18n.setLanguage("en");
    return { en, fr };
}"""


def test_the_log_names_whose_card_acts_on_whom_and_a_die_lasts_as_long_as_its_roll(client: tuple[Page, Watch]) -> None:
    page, _ = client
    told = page.evaluate(LOG)
    assert told["en"]["hit"] == "Ann's Knuckles hits Bob's Lefty (Sniper): die 5, killed"
    assert told["fr"]["hit"] == "Knuckles (Ann) vise Lefty (Bob) : Tireur d'élite, dé 5, tué"
    assert told["en"]["die"] == told["en"]["hit"]  # the die says whose roll it is
    assert told["en"]["stale"] is None  # once the phase moved on, no die is left on the table
