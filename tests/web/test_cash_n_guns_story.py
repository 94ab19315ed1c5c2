"""Ca$h 'n Guns' table tells the story of each hold-up: a log in words that names who aims at whom, who was wounded
and what each seat took, the table as it stands this turn, each seat's breakdown at the end, every seat's loot
once the game is over, and a layout where no seat covers another, in English and in French, wide and on a phone."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.test_docs_browser import Watch
from tests.web.conftest import click_first_move, picture, play_to_the_end, shown_moves

RAW = re.compile(r"\b(ev|loot|bullet|worth|ended|act|phase)\.[a-z_]|[{}]|undefined|NaN")
"""A key or a placeholder shown instead of its text."""


def create_game(
    page: Page, ruleset: str, seats: list[str], options: dict[str, Any], add_seat: str = "Add a seat"
) -> str:
    """conftest's `create_game`, in the page's language."""
    page.locator(f'[data-ruleset="{ruleset}"]').click()
    page.locator(f'[data-ruleset="{ruleset}"][aria-pressed="true"]').wait_for()
    while page.locator("select[data-seat]").count() < len(seats):
        page.get_by_role("button", name=add_seat).click()
    for index, kind in enumerate(seats):
        page.locator(f'select[data-seat="{index}"]').select_option(kind)
    for name, value in options.items():
        page.locator(f'[data-option="{name}"]').fill(str(value))
    page.locator("#create-game").click()
    page.locator(".board").wait_for()
    return page.evaluate("location.hash.split('/')[2]")


def api(page: Page, path: str) -> Any:
    """An answer of the API, asked from the page (a finished game's view and log are public)."""
    return page.evaluate("async (path) => (await fetch(path)).json()", path)


def names(page: Page) -> dict[int, str]:
    """Each seat's name as the table shows it."""
    tiles = page.locator(".ring .tile").evaluate_all("ts => ts.map(t => [t.dataset.seat, t.ariaLabel])")
    return {int(seat): name for seat, name in tiles}


def log_line(page: Page, version: int) -> str:
    return page.locator(f'.log li[data-version="{version}"]').inner_text()


def boxes_apart(page: Page) -> list[str]:
    """Every pair of seat tiles that overlap, and every tile over the info line."""
    found = page.evaluate(
        """() => {
            const box = (e) => e.getBoundingClientRect();
            const tiles = [...document.querySelectorAll('.ring .tile')].map((t) => [t.dataset.seat, box(t)]);
            const info = box(document.querySelector('.board .info'));
            const meet = (a, b) =>
                a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
            const found = [];
            tiles.forEach(([s, a], i) => {
                if (meet(a, info)) found.push(`seat ${s} covers the info line`);
                tiles.slice(i + 1).forEach(([t, b]) => { if (meet(a, b)) found.push(`seats ${s} and ${t} overlap`); });
            });
            return found;
        }"""
    )
    return found


def arrows(page: Page) -> list[dict[str, Any]]:
    """Each aim's arrow: where it ends against its target's tile, and its colour against its shooter's."""
    return page.evaluate(
        """() => [...document.querySelectorAll('.ring .arrows .aim')].map((path) => {
            const ring = document.querySelector('.ring').getBoundingClientRect();
            const end = path.getPointAtLength(path.getTotalLength());
            const x = ring.left + end.x, y = ring.top + end.y;
            const tile = document.querySelector(`.ring .tile[data-seat="${path.dataset.to}"]`).getBoundingClientRect();
            const dx = Math.max(tile.left - x, 0, x - tile.right), dy = Math.max(tile.top - y, 0, y - tile.bottom);
            const dot = document.querySelector(`.ring .tile[data-seat="${path.dataset.from}"] .dot`);
            return {from: path.dataset.from, to: path.dataset.to, gap: Math.hypot(dx, dy),
                    stroke: getComputedStyle(path).stroke, colour: getComputedStyle(dot).backgroundColor};
        })"""
    )


def test_a_game_to_its_end_tells_who_aimed_at_whom_who_was_hit_and_what_each_score_is_made_of(
    client: tuple[Page, Watch], worker
) -> None:
    page, _ = client
    game_id = create_game(page, "cash-n-guns", ["me", "smart", "random", "smart"], {"aim_window_s": 3})
    page.locator("[data-move]").first.wait_for()
    chooser = random.Random(11)
    seen = {"wounded": 0, "cleared": 0, "hidden": 0}

    def play(page: Page) -> bool:
        shown = shown_moves(page)
        if not shown:
            return False
        phase = page.locator(".badge.phase").get_attribute("data-phase")
        if page.locator(".ring .shot").count() and not seen.get("pictured"):  # shots on the table, for the README
            picture(page, "shoot-out")
            seen["pictured"] = 1
        if phase == "sharing":  # my pick: the game waits for it, so the view and the table agree
            state = api(page, f"/v1/games/{game_id}")["state"]
            shots = state["last_shots"]
            for seat in state["seats"]:
                if seat["alive"] and shots["turn"] == state["turn"] and shots["hits"][seat["seat"]]:
                    note = page.locator(f'.ring .tile[data-seat="{seat["seat"]}"] .courage').inner_text()
                    assert note == "wounded: out of the sharing", "a seat hit this turn is not standing"
                    seen["wounded"] += 1
        if phase == "load":  # a new turn: the last one's shots are gone from the table
            assert page.locator(".ring .shot").count() == 0
            seen["cleared"] += 1
        if phase == "aim":  # the window is open: only my own aim is named
            aimed = re.findall(r"^\d+\. (.+) aimed at ", "\n".join(page.locator(".log li").all_inner_texts()), re.M)
            assert set(aimed) <= {"Player (you)"}, aimed
            seen["hidden"] += 1
        page.locator("[data-move]").nth(chooser.randrange(len(shown))).click(timeout=2000)
        return True

    play_to_the_end(page, play, timeout_s=100)
    page.locator("#breakdown li[data-seat]").first.wait_for()
    picture(page, "result")
    assert seen["cleared"] > 0 and seen["hidden"] > 0
    who = names(page)
    events = api(page, f"/v1/games/{game_id}/events?limit=1000")["events"]
    shown = {int(v) for v in page.locator(".log li").evaluate_all("ls => ls.map(l => l.dataset.version)")}
    told = [e for e in events if e["version"] in shown]

    # Who aims at whom, once the guns are drawn; who was wounded and who died.
    drawn = [e for e in told if e["type"] == "cash_n_guns.guns_drawn"]
    assert drawn, "the log shows the last hold-up"
    for event in drawn:
        line = log_line(page, event["version"])
        aims = [(seat, target) for seat, target in enumerate(event["payload"]["aims"]) if target is not None]
        assert aims
        for seat, target in aims:
            assert f"{who[seat]} aims at {who[target]}" in line
    for event in (e for e in told if e["type"] == "cash_n_guns.shots_resolved"):
        line = log_line(page, event["version"])
        aimed = targets_before(events, event["version"])
        for seat, card in enumerate(event["payload"]["cards"]):
            if card in ("bang", "click"):  # whom each shot was fired at, as the aims made public said
                assert f"{who[seat]} fired a {'Bang!' if card == 'bang' else 'Click'} at {who[aimed[seat]]}" in line
        hit = [who[seat] for seat, wounds in enumerate(event["payload"]["hits"]) if wounds]
        wounded = line.split("wounded: ", 1)[1].split(";")[0]
        assert [name for name in who.values() if name in wounded] == hit or (not hit and wounded == "nobody")
        for seat in event["payload"]["died"]:
            assert who[seat] in line.split("died: ", 1)[1]
    # Each loot card is named, its amount in the page's money.
    for event in (e for e in told if e["type"] == "cash_n_guns.loot_taken"):
        card = event["payload"]["card"]
        if card.startswith("cash-"):
            amount = int(card.split("-")[1])
            assert f"{who[event['payload']['seat']]} took a ${amount:,} banknote" in log_line(page, event["version"])

    # The breakdown is the result's, seat by seat, field by field.
    details = api(page, f"/v1/games/{game_id}/result")["details"]["seats"]
    for row in details:
        cells = page.locator(f'#breakdown li[data-seat="{row["seat"]}"] [data-field]')
        drawn_row = dict(cells.evaluate_all("cs => cs.map(c => [c.dataset.field, Number(c.dataset.value)])"))
        assert drawn_row == {field: row[field] for field in drawn_row}
        assert set(drawn_row) == {"banknotes", "diamonds", "paintings", "bonus", "wounds", "total"}
        total = page.locator(f'#breakdown li[data-seat="{row["seat"]}"] [data-field="total"]').inner_text()
        assert int(re.sub(r"\D", "", total) or 0) == row["total"]

    # Once the game is over, every seat's loot is on the table.
    state = api(page, f"/v1/games/{game_id}")["state"]
    for seat in state["seats"]:
        held = page.locator(f'.ring .tile[data-seat="{seat["seat"]}"] .held .loot')
        assert held.evaluate_all("ls => ls.map(l => l.getAttribute('aria-label'))") == [
            loot_name(card) for card in seat["loot"]
        ]
    text = page.locator("main").inner_text()
    assert not RAW.search(text), RAW.search(text)

    # The finished game's replay is public: its log says what each seat loaded, and whom it aimed at.
    page.locator("#to-replay").click()
    page.locator(".board .ring").wait_for()
    replayed = "\n".join(page.locator(".log li").all_inner_texts())
    assert re.search(r"loaded a (Bang!|Click)", replayed) and " aimed at " in replayed
    assert not RAW.search(page.locator("main").inner_text())


def targets_before(events: list[dict[str, Any]], version: int) -> list[int | None]:
    """Each seat's target when the shots at `version` were fired: the last guns drawn, then the retargets."""
    earlier = [e for e in events if e["version"] < version]
    drawn = max(i for i, e in enumerate(earlier) if e["type"] == "cash_n_guns.guns_drawn")
    targets = list(earlier[drawn]["payload"]["aims"])
    for event in earlier[drawn + 1 :]:
        if event["type"] == "cash_n_guns.retargeted":
            targets[event["payload"]["seat"]] = event["payload"]["target"]
    return targets


def loot_name(card: str) -> str:
    kind, _, rest = card.partition("-")
    if kind == "cash":
        return f"${int(rest.split('-')[0]):,} banknote"
    if kind == "diamond":
        return f"${int(rest.split('-')[0]):,} diamond"
    return {"painting": "painting", "clip": "clip (one more Bang!)", "first": "first-aid kit (heals a wound)"}[kind]


@pytest.mark.parametrize("browser_context", ["fr-FR"], indirect=True)
def test_eight_seats_sit_apart_with_arrows_in_their_colours_in_french_wide_and_on_a_phone(
    client: tuple[Page, Watch], worker
) -> None:
    page, _ = client
    seats = ["me", "smart", "random", "smart", "random", "smart", "random", "smart"]
    game_id = create_game(page, "cash-n-guns", seats, {"aim_window_s": 3}, add_seat="Ajouter une place")
    page.locator("[data-move]").first.wait_for()
    assert page.locator(".ring .tile").count() == 8
    assert boxes_apart(page) == []
    checked_arrows = 0
    deadline = time.monotonic() + 30
    while not checked_arrows and time.monotonic() < deadline:
        if page.locator('.badge.phase[data-phase="courage"]').count() and page.locator("[data-move]").count():
            # The guns are drawn and the table waits for my courage: every aim is an arrow.
            drawn = arrows(page)
            aims = api(page, f"/v1/games/{game_id}")["state"]["seats"]
            assert {(a["from"], a["to"]) for a in drawn} == {
                (str(s["seat"]), str(s["target"])) for s in aims if s["alive"] and s["target"] is not None
            }
            for arrow in drawn:
                assert 0 < arrow["gap"] < 20, f"the arrow {arrow} ends at its target's edge, not under it"
                assert arrow["stroke"] == arrow["colour"], "an arrow is in its shooter's colour"
            assert boxes_apart(page) == []
            checked_arrows = len(drawn)
        elif page.locator("[data-move]").count():
            page.locator("[data-move]").first.click(timeout=2000)
        page.wait_for_timeout(100)
    assert checked_arrows

    # The log names the loot in French, its amounts in the page's money.
    page.locator(".log li", has_text="le butin révélé est").first.wait_for()
    revealed = page.locator(".log li", has_text="le butin révélé est").first.inner_text()
    assert re.search(r"(billet|diamant) de \d{1,3}(?:[\s\u202f\u00a0]\d{3})*[\s\u00a0]\$US", revealed), revealed

    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(200)
    assert boxes_apart(page) == []
    play_to_the_end(page, click_first_move, timeout_s=60)
    page.locator("#breakdown li[data-seat]").first.wait_for()
    assert boxes_apart(page) == []
    # The shots name whom each seat fired at, in French.
    who = names(page)
    events = api(page, f"/v1/games/{game_id}/events?limit=1000")["events"]
    listed = {int(v) for v in page.locator(".log li").evaluate_all("ls => ls.map(l => l.dataset.version)")}
    for event in (e for e in events if e["type"] == "cash_n_guns.shots_resolved" and e["version"] in listed):
        aimed = targets_before(events, event["version"])
        for seat, card in enumerate(event["payload"]["cards"]):
            if card in ("bang", "click"):
                said = f"{who[seat]} a tiré {'un Bang !' if card == 'bang' else 'un Clic'} sur {who[aimed[seat]]}"
                assert said in log_line(page, event["version"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "nothing wider than the screen"
    text = page.locator("main").inner_text()
    assert not RAW.search(text), RAW.search(text)
    assert "Prime des diamants" in page.locator("#breakdown").inner_text()


DRAW = """async ({ count, finished, version = 1, more = 0 }) => {
    const { makeUi } = await import('/play/static/table.js');
    const game = await import('/play/static/games/cash_n_guns.js');
    const { h } = await import('/play/static/dom.js');
    const answer = await (await fetch('/v1/rulesets/cash-n-guns/cards')).json();
    const catalogue = { ...answer, byId: Object.fromEntries(answer.cards.map((c) => [String(c.id), c])) };
    const loot = answer.cards.filter((c) => c.kind === 'cash').slice(0, 8).map((c) => c.id);
    const seats = Array.from({ length: count }, (_, seat) => ({
        seat, alive: true, wounds: seat === 1 ? more : seat % 3, bullet_cards: 1, has_loaded: !finished,
        has_aimed: true, target: (seat + Math.floor(count / 2)) % count, has_chosen: true, stands: true,
        standing: true, loot_count: seat === 1 ? 8 + more : 8,
        ...(finished ? { loot, loot_value: 80000 } : {}),
    }));
    const state = { turn: 8, turns: 8, phase: finished ? 'over' : 'sharing', godfather: 0,
        table_loot: finished ? [] : loot, godfather_token_available: !finished, godfather_token_taken_by: null,
        piles_left: 0, lost_loot: [], ordered: null, sharer: 0, ended: null, seats,
        last_shots: { turn: 8, cards: seats.map(() => 'bang'), hits: seats.map((s) => s.seat % 2), died: [] } };
    const view = { game_id: `layout-${count}`, version, ruleset: 'cash-n-guns', awaiting: [], state,
        seats: seats.map((s) => ({ seat: s.seat, name: `Gangster number ${s.seat + 1}` })) };
    const ui = makeUi(view, catalogue, [], null);
    document.querySelector('main').replaceChildren(h('div', { class: 'table-grid' }, [
        h('section', { class: 'board cash-n-guns' }, game.render(view, ui)), h('aside', { class: 'side' }, 'log')]));
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}"""


@pytest.mark.parametrize("viewport", [(1280, 900), (390, 844)])
def test_no_seat_covers_another_or_the_info_line_at_any_table_size(
    client: tuple[Page, Watch], viewport: tuple[int, int]
) -> None:
    page, _ = client
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    for count in range(4, 9):
        for finished in (False, True):
            page.evaluate(DRAW, {"count": count, "finished": finished})
            assert page.locator(".ring .tile").count() == count
            assert boxes_apart(page) == [], (count, finished)
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport[0], "nothing cut off"
            if viewport[0] > 760 and not finished:  # a phone lists the aims in words, without arrows
                drawn = arrows(page)
                assert len(drawn) == count
                assert all(0 < arrow["gap"] < 20 for arrow in drawn), drawn
                assert all(arrow["stroke"] == arrow["colour"] for arrow in drawn)


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_what_just_changed_is_marked_briefly_unless_motion_is_reduced(client: tuple[Page, Watch], motion: str) -> None:
    page, _ = client
    page.emulate_media(reduced_motion=motion)
    page.evaluate(DRAW, {"count": 4, "finished": False})
    assert page.locator(".ring .fresh, .ring .fresh-hit").count() == 0, "nothing is new on a table first drawn"
    page.evaluate(DRAW, {"count": 4, "finished": False, "version": 2, "more": 2})
    seat = page.locator('.ring .tile[data-seat="1"]')
    assert seat.locator(".wound.fresh").count() == 2, "the two new wounds"
    assert seat.locator(".loot-count.fresh").count() == 1, "the loot just taken"
    assert page.locator('.ring .tile:not([data-seat="1"]) .fresh').count() == 0
    animation = seat.locator(".wound.fresh").first.evaluate("w => getComputedStyle(w).animationName")
    assert animation == ("none" if motion == "reduce" else "cng-pop")


SHOTS_TOLD = """async ({ lang, last }) => {
    const { setLanguage } = await import('/play/static/i18n.js');
    const { eventList, makeUi } = await import('/play/static/table.js');
    setLanguage(lang);
    const view = { game_id: 'told', version: 9, ruleset: 'cash-n-guns', awaiting: [], state: {},
        seats: ['Ann', 'Bob', 'Cat', 'Dan'].map((name, seat) => ({ seat, name })) };
    const log = [
        { version: 4, type: 'cash_n_guns.aimed', payload: { seat: 1 } },  // its target is Bob's own, not read
        { version: 5, type: 'cash_n_guns.guns_drawn', payload: { aims: [1, 2, 0, null], late: [3] } },
        { version: 6, type: 'cash_n_guns.retargeted', payload: { seat: 2, previous: 0, target: 3 } },
        { version: 7, type: 'cash_n_guns.shots_resolved',
          payload: { turn: 1, cards: ['bang', 'click', 'bang', 'discarded'], hits: [0, 1, 0, 1], died: [3] } },
        { version: 8, type: 'cash_n_guns.guns_drawn', payload: { aims: [2, 0, 1, 1], late: [] } },  // later: not read
    ];
    const ui = makeUi(view, { byId: {} }, log, null);
    const list = eventList(log, ui, null, null, last);
    return list.querySelector('li[data-version="7"]').textContent;
}"""


@pytest.mark.parametrize(
    "lang, said",
    [
        (
            "en",
            "7. Shots: Ann fired a Bang! at Bob, Bob fired a Click at Cat, Cat fired a Bang! at Dan; "
            "wounded: Bob, Dan; died: Dan",
        ),
        (
            "fr",
            "7. Coups de feu : Ann a tiré un Bang ! sur Bob, Bob a tiré un Clic sur Cat, Cat a tiré un Bang ! "
            "sur Dan ; blessés : Bob, Dan ; morts : Dan",
        ),
    ],
)
def test_the_shots_name_whom_each_seat_fired_at_from_the_aims_made_public_before_them(
    client: tuple[Page, Watch], lang: str, said: str
) -> None:
    page, _ = client
    # The log lists its last two lines only: the aims drawn before them still name the targets.
    assert page.evaluate(SHOTS_TOLD, {"lang": lang, "last": 2}) == said
