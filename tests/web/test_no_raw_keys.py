"""No text key or placeholder shows through in either language: the lobby of every game (its seat kinds, options
and lists), a waiting table that counts down to the house's bots, and each game's table from its first version (an
info line names only what there is: no turn 0, no empty field between its dots), the Mobsters discard too."""

from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import Page

from tests.test_docs_browser import Watch

RAW = re.compile(
    r"\b(?:ev|option|seat_kind|action|status|bot|decision|howto|ruleset|error|m?phase)\.[a-z_-]+|\{[a-z_]+\}"
    r"|\b(?:null|undefined|NaN)\b"
)
GAP = re.compile(r"^\s*·|·\s*·|·\s*$|\b(?:Turn|Tour|Round|Manche) 0\b")
"""An info line with a part that says nothing, or a turn before the first."""


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


@pytest.mark.parametrize("browser_context", ["en-GB", "fr-FR"], indirect=True)
def test_each_table_from_its_first_version_names_only_what_there_is(client: tuple[Page, Watch], live_url: str) -> None:
    page, _ = client
    for ruleset, count in (("twelve-gangsters", 3), ("cash-n-guns", 4), ("mobsters", 2)):
        seats = [{"name": f"P{i}"} for i in range(count)]
        game_id = requests.post(f"{live_url}/v1/games", json={"ruleset": ruleset, "seats": seats}, timeout=10).json()[
            "game_id"
        ]
        last = requests.get(f"{live_url}/v1/games/{game_id}", timeout=10).json()["version"]
        page.goto(f"{live_url}/play#/replay/{game_id}")
        for version in range(1, last + 1):  # the start, the cards dealt, the first turn (Mobsters: its setup)
            if version > 1:
                page.locator('[data-key="next"]').click()
            board = page.locator(f'.board[data-version="{version}"]')
            board.wait_for()
            info = board.locator(".info")
            if info.count():
                assert not GAP.search(info.inner_text()), (ruleset, version, info.inner_text())
            assert not RAW.findall(shown(page)), (ruleset, version, RAW.findall(shown(page)))


DISCARD = """async () => {
    const { makeUi, describe } = await import('/play/static/table.js');
    const mobsters = await import('/play/static/games/mobsters.js');
    const { h } = await import('/play/static/dom.js');
    const seats = [0, 1].map((seat) => ({ seat, money: 0, hand_count: seat ? 5 : 12, income: 0, mobsters: [] }));
    const state = { turn: 2, phase: 'discard', active_seat: 0, deck_count: 90, discard: [], seats, reassigning: null };
    const view = { game_id: 'discard', version: 30, ruleset: 'mobsters', status: 'in_progress', awaiting: [], state,
        seats: [{ seat: 0, name: 'Ann' }, { seat: 1, name: 'Bob' }] };
    const started = { version: 30, type: 'mobsters.phase_started', payload: { seat: 0, phase: 'discard' } };
    const ui = makeUi(view, { cards: [], byId: {} }, [started], null);
    document.querySelector('main').replaceChildren(h('section', { class: 'board mobsters' }, mobsters.render(view, ui)),
        h('p', { class: 'told' }, describe(started, ui)));
}"""


@pytest.mark.parametrize(
    "browser_context, phase, told",
    [("en-GB", "Discard", "Ann: Discard phase"), ("fr-FR", "Défausse", "Ann : phase Défausse")],
    indirect=["browser_context"],
)
def test_the_mobsters_discard_is_a_step_of_the_turn_with_its_name(
    client: tuple[Page, Watch], phase: str, told: str
) -> None:
    page, _ = client
    page.evaluate(DISCARD)
    steps = page.locator(".phases li").all_inner_texts()
    assert len(steps) == 7 and steps[1] == phase
    assert page.locator('.phases li[aria-current="step"]').inner_text() == phase
    assert page.locator(".told").inner_text() == told
    assert not RAW.findall(shown(page)) and not GAP.search(page.locator(".board .info").inner_text())


SAID = """async () => {
    const { t } = await import('/play/static/i18n.js');
    const { problem } = await import('/play/static/app.js');
    return {
        missing: t('seat_n', {}), nulled: t('seat_n', { n: null }), undef: t('seat_n', { n: undefined }),
        given: t('seat_n', { n: 2 }), known: problem({ code: 'game_not_found', message: 'no such game' }),
        told: problem(new Error('the network is down')), bare: problem(new Error()), nothing: problem(null),
        odd: problem('refused'),
    };
}"""


def test_no_text_says_null_or_undefined_for_a_value_it_was_not_given(client: tuple[Page, Watch]) -> None:
    page, _ = client
    said = page.evaluate(SAID)
    assert said["given"] == "Seat 2"
    assert said["missing"] == said["nulled"] == said["undef"] == "Seat {n}"  # a gap shows itself, as a placeholder
    assert said["known"] == "There is no such game."
    assert said["told"] == "Error: the network is down"
    assert said["bare"] == said["nothing"] == said["odd"] == "Error"
