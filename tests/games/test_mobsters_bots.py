"""The `smart` bot of Mobsters: a legal move in every situation, decided from its seat's view alone, a few of
its heuristics in chosen situations (as the likelier choice, where a card may be held back), and better than
random seats by a margin."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import pytest

from games import table as tables
from games.base import Event
from games.bots import random_bot
from games.mobsters import RULESET
from games.mobsters import events as ev
from games.mobsters.bots import HOLD_BACK, smart_bot, smart_policy
from games.mobsters.cards import CARDS, Kind
from games.mobsters.state import has_mobster
from games.selfplay import simulate
from tests.games.helpers import Spy, apply, created, given
from tests.games.mobsters_helpers import game, mobster, of_kind, operation

FINGERS, TONY, LUCKY, LEFTY = mobster("Fingers"), mobster("Tony"), mobster("Lucky"), mobster("Lefty")
SAFECRACKING, KIDNAPPING, SMALL_BANK = "crime:safecracking", "crime:kidnapping", "robbery:small-bank"
CASINO, CHOP_SHOP = operation("Casino"), operation("Chop Shop")


def move_of(body: dict[str, Any]) -> Any:
    move_type = RULESET.move_type(body["type"])
    assert move_type is not None, body
    return msgspec.convert(body, move_type)


def random_course(seed: int, seats: int) -> tuple[list[Event], list[tuple[tables.Table[Any], int]]]:
    """A whole game, each awaited seat moving at random or as the smart bot would; its events, and every table it
    went through with the seat awaited there."""
    rng = random.Random(seed)
    options = {"attendance": rng.random() < 0.3}
    events = created(RULESET, seats, options, seed=rng.randrange(2**32))
    table = given(RULESET, events)
    stops = []
    while table.status is not tables.Status.FINISHED:
        seat = rng.choice(sorted(RULESET.awaiting(table.rules)))
        stops.append((table, seat))
        view = tables.plain_view(RULESET, table, seat)
        body = smart_bot(view, random.Random(rng.random())) if rng.random() < 0.5 else random_bot(view, rng)
        new = tables.play(RULESET, table, seat, move_of(body))
        events += new
        table = apply(RULESET, table, new)
    return events, stops


# --- legal moves -----------------------------------------------------------------------------------------------


def test_the_smart_bot_answers_a_legal_move_in_every_situation() -> None:
    decisions: Counter[str] = Counter()
    answers: Counter[str] = Counter()
    for seats in range(2, 7):
        for seed in range(4):
            _, stops = random_course(100 * seats + seed, seats)
            for table, seat in stops[::2]:
                view = tables.plain_view(RULESET, table, seat)

                body = smart_bot(view, random.Random(seed))

                assert body in view["you"]["legal_moves"]
                tables.play(RULESET, table, seat, move_of(body))  # the rules take it
                decisions[RULESET.awaiting(table.rules)[seat]] += 1
                answers[body["type"]] += 1

    assert set(decisions) == {"setup", "reassign", "draw", "discard", "hit", "crime", "collection", "recruit", "law"}
    assert {"redeal", "reassign", "discard", "hit", "commit_crime", "petty_crime", "double_income", "charge"} <= set(
        answers
    )
    assert {"recruit", "attach", "arrest", "escape", "end_phase"} <= set(answers)


# --- nothing hidden ------------------------------------------------------------------------------------------


OWN = {"you", "you.seat", "you.hand", "you.legal_moves"}
PUBLIC = {
    "state",
    "state.turn",
    "state.phase",
    "state.active_seat",
    "state.deck_count",
    "state.discard",
    "state.seats",
    "state.seats.*.money",
    "state.seats.*.mobsters",
    "state.seats.*.mobsters.*.card",
    "state.seats.*.mobsters.*.operations",
    "state.seats.*.mobsters.*.law",
    "state.seats.*.mobsters.*.has_action",
    "state.seats.*.mobsters.*.deed",
    "state.seats.*.mobsters.*.deed.action",
}


def test_the_smart_bot_reads_only_its_own_hand_and_the_public_table() -> None:
    reads: set[str] = set()
    for seats in (2, 4, 6):
        _, stops = random_course(seats, seats)
        for table, seat in stops[::7]:
            view = tables.plain_view(RULESET, table, seat)
            assert all("hand" not in s for s in view["state"]["seats"]) and "deck" not in view["state"]

            assert smart_bot(Spy(view, reads), random.Random(1)) == smart_bot(view, random.Random(1))

    moves_read = {r for r in reads if r.startswith("you.legal_moves.*.")}
    assert reads - moves_read <= OWN | PUBLIC
    assert {"you.hand", "state.deck_count", "state.seats.*.mobsters.*.operations"} <= reads


def twin(events: list[Event], other: int) -> list[Event] | None:
    """The same game, but for one card in `other`'s hand since the deal, swapped with a card still in the deck:
    the tables differ only in that seat's hand and the deck's order, both hidden from the other seats."""
    table = given(RULESET, events)
    state = table.rules
    dealt = next(e for e in events if isinstance(e, ev.CardsDrawn) and e.seat == other and e.reason == "deal")
    kept = [c for c in dealt.cards if c in state.bosses[other].hand]
    if not kept or not state.deck:
        return None
    mine, hidden = kept[0], state.deck[-1]
    swap = {mine: hidden, hidden: mine}
    changed: list[Event] = []
    for event in events:
        if isinstance(event, ev.DeckShuffled):
            event = ev.DeckShuffled(cards=tuple(swap.get(c, c) for c in event.cards))
        elif event is dealt:
            event = msgspec.structs.replace(event, cards=tuple(swap.get(c, c) for c in event.cards))
        changed.append(event)
    return changed


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
def test_the_smart_bot_decides_the_same_whatever_another_seat_holds_in_secret(seats: int) -> None:
    events, stops = random_course(seats * 7, seats)
    checked = 0
    for table, me in stops[::5]:
        prefix = events[: table.version]
        other = (me + 1) % seats
        changed = twin(prefix, other)
        if changed is None or table.rules.phase == "over":
            continue
        one, two = given(RULESET, prefix), given(RULESET, changed)
        assert one.rules.bosses[other].hand != two.rules.bosses[other].hand  # the tables differ in that hand
        assert one.rules.bosses[me] == two.rules.bosses[me]

        views = [tables.plain_view(RULESET, t, me) for t in (one, two)]
        distributions = [smart_policy(v, random.Random(f"bot:{seats}")) for v in views]

        assert distributions[0] == distributions[1]
        checked += 1
    assert checked >= 10


# --- heuristics ----------------------------------------------------------------------------------------------


def bot_move(table: tables.Table[Any], seat: int = 0, seed: int = 0) -> dict[str, Any]:
    view = tables.plain_view(RULESET, table, seat)
    body = smart_bot(view, random.Random(seed))
    assert body in view["you"]["legal_moves"]
    return body


def chances(table: tables.Table[Any], seat: int = 0) -> dict[str, float]:
    """The smart bot's distribution: each move it may make (as JSON), with its chance."""
    view = tables.plain_view(RULESET, table, seat)
    choices = smart_policy(view, random.Random(0))
    assert all(move in view["you"]["legal_moves"] for move, _ in choices)
    return {msgspec.json.encode(move).decode(): p for move, p in choices}


def chance_of(table: tables.Table[Any], move: dict[str, Any], seat: int = 0) -> float:
    return chances(table, seat).get(msgspec.json.encode(move).decode(), 0.0)


def test_fingers_keeps_the_safecracking_while_another_mobster_takes_the_kidnapping() -> None:
    table = game(2, hands={0: [KIDNAPPING, SAFECRACKING]}, crews={0: {FINGERS: [], TONY: []}}, phase="crime")

    crimes = chance_of(table, {"type": "commit_crime", "mobster": TONY, "card": KIDNAPPING}) + chance_of(
        table, {"type": "commit_crime", "mobster": FINGERS, "card": SAFECRACKING}
    )

    assert crimes == pytest.approx(1 - HOLD_BACK)  # else both are held back, and Tony commits a petty crime
    assert chance_of(table, {"type": "petty_crime", "mobster": TONY}) == pytest.approx(HOLD_BACK)


def test_an_operation_goes_to_the_mobster_with_the_bonus_on_it() -> None:
    table = game(2, hands={0: [CASINO]}, crews={0: {TONY: [], LUCKY: []}}, phase="recruit")

    assert bot_move(table) == {"type": "attach", "mobster": LUCKY, "operation": CASINO}


def test_a_mobster_holding_an_operation_doubles_it_rather_than_end_the_phase() -> None:
    table = game(2, crews={0: {LUCKY: [CASINO]}}, phase="collection")

    assert bot_move(table) == {"type": "double_income", "mobster": LUCKY, "operation": CASINO}


def test_an_idle_mobster_without_operation_commits_a_petty_crime() -> None:
    table = game(2, crews={0: {LEFTY: []}}, phase="crime")

    assert bot_move(table) == {"type": "petty_crime", "mobster": LEFTY}


def test_costs_go_to_the_richest_opponent_unless_held_back() -> None:
    cost = of_kind(Kind.COST)[0]
    table = game(4, hands={0: [cost]}, money={1: 500, 2: 9000, 3: 3000}, phase="collection")

    assert chances(table) == pytest.approx(
        {f'{{"type":"charge","card":"{cost}","target":2}}': 1 - HOLD_BACK, '{"type":"end_phase"}': HOLD_BACK}
    )


def test_the_law_goes_on_the_best_earner_of_the_strongest_opponent_unless_held_back() -> None:
    law = of_kind(Kind.LAW)[0]
    crews = {0: {LEFTY: []}, 1: {TONY: [], LUCKY: [CASINO, CHOP_SHOP]}}
    table = game(2, hands={0: [law]}, crews=crews, phase="law")

    assert chance_of(table, {"type": "arrest", "card": law, "mobster": LUCKY}) == pytest.approx(1 - HOLD_BACK)
    assert chance_of(table, {"type": "end_phase"}) == pytest.approx(HOLD_BACK)


def test_a_mobster_in_hand_is_mostly_recruited_but_sometimes_held_back() -> None:
    table = game(2, hands={0: [TONY]}, crews={0: {LEFTY: []}}, phase="recruit")

    assert chance_of(table, {"type": "recruit", "card": TONY}) == pytest.approx(1 - HOLD_BACK)
    assert chance_of(table, {"type": "end_phase"}) == pytest.approx(HOLD_BACK)


def test_the_last_card_is_drawn_only_by_the_richest() -> None:
    ahead = game(2, crews={0: {LEFTY: []}}, money={0: 9000, 1: 2000}, deck_size=1)
    behind = game(2, crews={0: {LEFTY: []}}, money={0: 3000, 1: 5000}, deck_size=1)

    assert bot_move(ahead) == {"type": "draw_extra", "mobster": LEFTY}
    assert bot_move(behind) == {"type": "end_phase"}


def test_a_hand_with_no_mobster_is_mostly_redealt_but_kept_often_enough_to_prove_nothing() -> None:
    for seed in range(40):
        table = given(RULESET, created(RULESET, 3, seed=seed))
        without = [s for s, boss in enumerate(table.rules.bosses) if not has_mobster(boss.hand)]
        if without:
            assert chances(table, without[0]) == pytest.approx(
                {'{"type":"redeal"}': 0.65, '{"type":"keep_hand"}': 0.35}
            )
            assert all(bot_move(table, s) == {"type": "keep_hand"} for s in range(3) if s not in without)
            return
    pytest.fail("no seed dealt a hand without a mobster")


def test_a_discard_keeps_the_mobsters_and_the_big_crimes() -> None:
    hand = [KIDNAPPING, FINGERS, *of_kind(Kind.HIT)[:7], SMALL_BANK]
    table = game(2, hands={0: hand}, crews={0: {LEFTY: []}})
    assert len(table.rules.bosses[0].hand) == 12
    table = apply(RULESET, table, tables.play(RULESET, table, 0, move_of({"type": "end_phase"})))

    body = bot_move(table)

    assert body["type"] == "discard"
    assert CARDS[body["cards"][0]].kind not in (Kind.MOBSTER, Kind.MAJOR_CRIME, Kind.ARMED_ROBBERY)


# --- better than random --------------------------------------------------------------------------------------


def test_the_smart_bot_beats_random_seats_by_a_margin() -> None:
    two = simulate(RULESET, ["smart", "random"], games=40, seed=1)
    four = simulate(RULESET, ["smart", "random", "random", "random"], games=60, seed=1)

    assert two["kinds"]["smart"]["win_rate"] > 0.75  # fair share 1/2; measured about 0.96 over 1000 games
    assert four["kinds"]["smart"]["win_rate"] > 0.5  # fair share 1/4; measured about 0.86
    smart, *randoms = four["seats"]
    assert all(smart["mean_score"] > other["mean_score"] + 2000 for other in randoms)


def test_the_smart_bot_beats_its_fair_share_at_six_seats() -> None:
    report = simulate(RULESET, ["smart", *["random"] * 5], games=60, seed=1)

    assert report["kinds"]["smart"]["win_rate"] > 2 * report["fair_share"]  # measured about 4 times
