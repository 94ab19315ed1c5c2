"""Mobsters' determinize: a state drawn from a seat's view alone shows that seat its view, deals the cards it does
not see (and only those) uniformly into the other hands and the deck, and depends on nothing but the view."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import msgspec
import pytest

from games import table as tables
from games.mobsters import RULESET
from games.mobsters.cards import CARDS, DECK, Kind
from games.mobsters.determinize import determinize
from games.mobsters.state import Phase, Setup, State
from games.selfplay import generator

Decision = tuple[tables.Table[State], int]


def decisions(seats: int, seed: int, options: Mapping[str, Any] | None = None) -> Iterator[Decision]:
    """Every (table, seat) a game of smart bots with these options asks a decision of, in order."""
    table: tables.Table[State] | None = None
    players = [tables.Seat(bot="smart")] * seats
    for event in tables.create(RULESET, f"det-{seed}", players, options or {}, seed, salt=""):
        table = tables.evolve(RULESET, table, event)
    assert table is not None
    while table.status is not tables.Status.FINISHED:
        assert table.rules is not None
        seat = min(RULESET.awaiting(table.rules))
        view = tables.plain_view(RULESET, table, seat)
        yield table, seat
        move = RULESET.parse_move(RULESET.bots["smart"](view, generator(seed, table.version, seat)))
        for event in tables.play(RULESET, table, seat, move):
            table = tables.evolve(RULESET, table, event)


def hidden(state: State, seat: int) -> list[str]:
    """The cards a seat does not see: the other hands and the deck."""
    return [card for s, boss in enumerate(state.bosses) if s != seat for card in boss.hand] + list(state.deck)


def seen(view: dict[str, Any]) -> set[str]:
    """Every card a seat's view shows: its hand, the cards in play, a dead mobster's operations, the discard pile."""
    shown = view["state"]
    cards = {*view["you"]["hand"], *shown["discard"]}
    cards.update((shown["reassigning"] or {}).get("operations", []))
    for seat in shown["seats"]:
        for m in seat["mobsters"]:
            cards.update([m["card"], *m["operations"], *m["law"]])
    return cards


def shows_its_view(table: tables.Table[State], seat: int, rng: random.Random) -> State:
    """A state drawn from the seat's view, checked to show the seat that view and to await the same of it."""
    view = tables.plain_view(RULESET, table, seat)
    drawn = determinize(view, rng)
    where = (table.version, seat)
    assert msgspec.to_builtins(RULESET.view(drawn, seat)) == view["state"], where
    assert msgspec.to_builtins(RULESET.you(drawn, seat))["hand"] == view["you"]["hand"], where
    assert [msgspec.to_builtins(m) for m in RULESET.legal_moves(drawn, seat)] == view["you"]["legal_moves"], where
    awaited = RULESET.awaiting(drawn)
    for wait in view["awaiting"]:
        assert awaited.get(wait["seat"]) == wait["decision"], where
    return drawn


@pytest.mark.parametrize(
    "seats, options",
    [(3, {"attendance": True}), (6, {}), (4, {"open_setup": True}), (5, {"first_player": 2})],
    ids=["attendance", "six", "open-setup", "first-player"],
)
def test_a_state_drawn_with_other_options_and_seats_shows_the_seat_its_view(
    seats: int, options: dict[str, Any]
) -> None:
    for seed in range(3):
        for table, seat in decisions(seats, seed, options):
            shows_its_view(table, seat, random.Random(table.version))


def test_a_redealing_setup_is_drawn_as_its_view_allows() -> None:
    """Games whose setups see redeals, decided face down then revealed (three seats: often one redeals)."""
    setups = 0
    for seed in range(12):
        for table, seat in decisions(3, seed):
            assert table.rules is not None
            if table.rules.phase is not Phase.SETUP:
                break
            drawn = shows_its_view(table, seat, random.Random(seed))
            setups += bool(table.rules.discard)
            if table.rules.discard:  # after a reveal: a seat not awaited is done, and nobody redeals twice
                assert all(drawn.bosses[s].setup is Setup.DONE for s in range(3) if s not in RULESET.awaiting(drawn))
    assert setups > 0  # some setup had a second round


def test_an_open_setup_deals_no_mobster_to_a_seat_it_awaits() -> None:
    for seed in range(6):
        for table, seat in decisions(4, seed, {"open_setup": True}):
            assert table.rules is not None
            if table.rules.phase is not Phase.SETUP:
                break
            for draw in range(20):
                drawn = shows_its_view(table, seat, random.Random(draw))
                for other in RULESET.awaiting(drawn):
                    assert not any(CARDS[c].kind is Kind.MOBSTER for c in drawn.bosses[other].hand)


def sample(seats: int, seed: int) -> list[Decision]:
    """A few decisions spread over one game: the setup, early, middle and late turns, a reassignment if any."""
    met = list(decisions(seats, seed))
    reassigning = [d for d in met if d[0].rules is not None and d[0].rules.orphaned_by is not None][:1]
    return [met[0], *(met[len(met) * k // 5] for k in (1, 2, 4)), *reassigning]


@pytest.mark.parametrize("seats", [2, 4])
def test_the_hidden_cards_are_the_unseen_ones_dealt_uniformly(seats: int) -> None:
    draws = 400
    for table, seat in sample(seats, seed=seats):
        view = tables.plain_view(RULESET, table, seat)
        unseen = sorted(set(DECK) - seen(view))
        sizes = {s["seat"]: s["hand_count"] for s in view["state"]["seats"] if s["seat"] != seat}
        where: dict[int, Counter[str]] = {s: Counter() for s in sizes}
        tops: Counter[str] = Counter()
        different = set()
        for n in range(draws):
            drawn = determinize(view, random.Random(n))
            assert sorted(hidden(drawn, seat)) == unseen  # every unseen card, each once, and no card seen
            assert {s: len(drawn.bosses[s].hand) for s in sizes} == sizes
            assert len(drawn.deck) == view["state"]["deck_count"]
            for s in sizes:
                where[s].update(drawn.bosses[s].hand)
            tops.update(drawn.deck[:1])
            different.add(tuple(hidden(drawn, seat)))
        assert len(different) == draws  # different generators, different deals
        # each unseen card lands in a hand as often as its size says, within a margin far beyond chance
        for s, size in sizes.items():
            expected = draws * size / len(unseen)
            assert all(abs(where[s][card] - expected) < 6 * expected**0.5 + 2 for card in unseen), (table.version, s)
        assert set(tops) <= set(unseen)
        assert len(tops) > min(len(unseen), draws) // 4  # the deck's top is no fixed card


def twin(table: tables.Table[State], seat: int, rng: random.Random) -> tables.Table[State]:
    """The same table with the cards the seat does not see dealt otherwise: the other hands and the deck."""
    state = table.rules
    assert state is not None
    cards = hidden(state, seat)
    rng.shuffle(cards)
    bosses = list(state.bosses)
    for s, boss in enumerate(bosses):
        if s != seat:
            bosses[s], cards = (
                msgspec.structs.replace(boss, hand=tuple(cards[: len(boss.hand)])),
                cards[len(boss.hand) :],
            )
    rules = msgspec.structs.replace(state, bosses=tuple(bosses), deck=tuple(cards))
    return msgspec.structs.replace(table, rules=rules)


@pytest.mark.parametrize("seats", [2, 4])
def test_tables_that_differ_only_in_what_the_seat_does_not_see_give_the_same_draws(seats: int) -> None:
    for table, seat in sample(seats, seed=seats + 10):
        other = twin(table, seat, random.Random(1))
        assert other.rules != table.rules
        view = tables.plain_view(RULESET, table, seat)
        assert tables.plain_view(RULESET, other, seat) == view
        for n in range(5):
            assert determinize(view, random.Random(n)) == determinize(
                tables.plain_view(RULESET, other, seat), random.Random(n)
            )


@pytest.mark.parametrize("seats", [2, 4])
def test_a_state_drawn_plays_out_to_the_end_by_the_rules(seats: int) -> None:
    """What a search does with it: random legal moves of the seats awaited, the choices left unmade included."""
    for table, seat in sample(seats, seed=seats + 20):
        for n in range(3):
            rng = random.Random(n)
            state = determinize(tables.plain_view(RULESET, table, seat), rng)
            while not RULESET.is_over(state):
                mover = rng.choice(sorted(RULESET.awaiting(state)))
                for event in RULESET.decide(state, mover, rng.choice(RULESET.legal_moves(state, mover)), rng):
                    state = RULESET.evolve(state, event)
            assert not state.deck
            assert sorted([*(c for b in state.bosses for c in b.hand), *state.discard, *in_play(state)]) == sorted(DECK)


def in_play(state: State) -> list[str]:
    return [c for b in state.bosses for m in b.crew for c in (m.card, *m.operations, *m.law)]
