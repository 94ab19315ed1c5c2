"""Mobsters properties over whole random games: 2-6 seats, any seed, first player and attendance option, random
legal moves by random awaited seats (some games eager to act, others quick to end their phases)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import EVERYONE, SPECTATOR, Event, IllegalMoveError, Move, legal
from games.mobsters import RULESET
from games.mobsters import events as ev
from games.mobsters.cards import CARDS, DECK
from games.mobsters.legality import _candidates, problem
from games.mobsters.moves import EndPhase
from games.mobsters.state import Phase, State
from games.table import Status, Table, evolve
from tests.games import helpers
from tests.games.mobsters_helpers import mobster, operation

games_settings = settings(max_examples=25, deadline=None)
MAX_STEPS = 20_000


@dataclass(frozen=True)
class Game:
    """A finished game: `steps[i]` is (event, rules before it, rules after it), from the shuffle on."""

    seats: int
    table: Table[Any]
    steps: list[tuple[Event, State, State]]
    played: list[tuple[State, int, Move]]
    """Each move made: the state it was made in, the seat, the move."""

    @property
    def events(self) -> list[Event]:
        return [event for event, _, _ in self.steps]


@st.composite
def whole_games(draw: st.DrawFn) -> Game:
    """Random legal moves by random awaited seats; an eager game prefers any move to ending a phase."""
    seats = draw(st.integers(2, 6))
    first = draw(st.none() | st.integers(0, seats - 1))
    options: dict[str, Any] = {"attendance": draw(st.booleans())}
    if first is not None:
        options["first_player"] = first
    events = helpers.created(RULESET, seats, options, seed=draw(st.integers(0, 2**32 - 1)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    eagerness = draw(st.sampled_from([0.0, 0.7, 0.95]))
    table = helpers.given(RULESET, events[:2])
    steps: list[tuple[Event, State, State]] = []
    played: list[tuple[State, int, Move]] = []
    new = events[2:]
    while True:
        for event in new:
            before = table.rules
            table = evolve(RULESET, table, event)
            steps.append((event, before, table.rules))
        if table.status is Status.FINISHED:
            return Game(seats, table, steps, played)
        assert len(steps) < MAX_STEPS, "the game does not end"
        seat, move = _next_move(table.rules, rng, eagerness)
        played.append((table.rules, seat, move))
        new = RULESET.decide(table.rules, seat, move, rng)


def _next_move(state: State, rng: random.Random, eagerness: float) -> tuple[int, Move]:
    seat = rng.choice(sorted(RULESET.awaiting(state)))
    legal = RULESET.legal_moves(state, seat)
    assert legal, "an awaited seat has a legal move"
    acts = [m for m in legal if m != EndPhase()]
    return seat, rng.choice(acts if acts and rng.random() < eagerness else legal)


# --- an independent account of the money ------------------------------------------------------------------

BONUSES: dict[str, tuple[int, set[str]]] = {
    mobster("Lucky"): (100, {operation(n) for n in ("Gambling House", "Gambling Boat", "Casino", "Slot Machines")}),
    mobster("Knuckles"): (100, {operation("Loansharking"), operation("Usury")}),
    mobster("Malone"): (100, {operation("Brothel"), operation("Prostitution Ring")}),
    mobster("Tony"): (100, {operation("Protection Racket"), operation("Union Racket")}),
    mobster("Numbers"): (100, {operation("Numbers Game")}),
    mobster("Tiny"): (100, {operation("Extortion")}),
    mobster("Bugsy"): (
        100,
        {operation(n) for n in ("Speakeasy Dive", "Speakeasy Bar", "Speakeasy Nightclub", "Brewery")}
        | {operation("Smuggling Bootleg")},
    ),
    mobster("Uncle Lou"): (100, {operation("Fencing"), operation("Pawn Shop")}),
    mobster("Jimmy"): (500, {"crime:fixed-race", "crime:fixed-match", "crime:election-fraud"}),
    mobster("Fingers"): (1000, {"crime:safecracking"}),
    mobster("The Worm"): (500, {"crime:real-estate-scam", "crime:investment-scam", "crime:pyramid-scheme"}),
    mobster("Rocco"): (200, {c for c in DECK if c.startswith("robbery:")}),
}
BONUSES[mobster("Lucky")][1].add(operation("Bookkeeping"))
PETTY = {1: 200, 2: 50, 3: 50, 4: 100, 5: 100, 6: 200}


def earned(holder: str, card: str) -> int:
    amount, cards = BONUSES.get(holder, (0, set()))
    return CARDS[card].amount + (amount if card in cards else 0)


def income(state: State, seat: int) -> int:
    return sum(earned(m.card, op) for m in state.bosses[seat].crew if not m.law for op in m.operations)


def money_changes(event: Event, before: State) -> dict[int, int]:
    """What each seat's money changes by, by the rules, for this event."""
    match event:
        case ev.CrimeCommitted(seat=seat, mobster=holder, card=card):
            return {seat: earned(holder, card)}
        case ev.PettyCrimeCommitted(seat=seat, roll=roll):
            return {seat: PETTY[roll]}
        case ev.IncomeCollected(seat=seat):
            return {seat: income(before, seat)}
        case ev.IncomeDoubled(seat=seat, mobster=holder, operation=op):
            return {seat: earned(holder, op)}
        case ev.CostCharged(target=target, card=card):
            return {target: -CARDS[card].amount}
        case ev.ExtraCardBought(seat=seat):
            return {seat: -1000}
        case ev.LawBribed(seat=seat):
            return {seat: -3000}
    return {}


# --- properties --------------------------------------------------------------------------------------------


def _located_cards(state: State) -> list[str]:
    in_play = [c for b in state.bosses for m in b.crew for c in (m.card, *m.operations, *m.law)]
    hands = [c for b in state.bosses for c in b.hand]
    return [*state.deck, *hands, *in_play, *state.discard, *state.orphans]


@games_settings
@given(whole_games())
def test_every_card_is_in_exactly_one_place_at_every_version(game: Game) -> None:
    for _, _, state in game.steps:
        assert Counter(_located_cards(state)) == Counter(DECK)


@games_settings
@given(whole_games())
def test_money_changes_only_by_the_rules(game: Game) -> None:
    for event, before, after in game.steps:
        changes = money_changes(event, before)
        for seat in range(game.seats):
            assert after.bosses[seat].money - before.bosses[seat].money == changes.get(seat, 0), event
        if isinstance(event, ev.ExtraCardBought | ev.LawBribed):
            assert before.bosses[event.seat].money >= event.price


@games_settings
@given(whole_games())
def test_each_mobster_acts_at_most_once_a_turn_and_never_under_law(game: Game) -> None:
    acts = (
        ev.ExtraCardBought,
        ev.HitAttempted,
        ev.OperationDestroyed,
        ev.CrimeCommitted,
        ev.PettyCrimeCommitted,
        ev.IncomeDoubled,
        ev.OperationAttached,
        ev.LawBribed,
    )
    acted: Counter[tuple[int, str]] = Counter()
    for event, before, _ in game.steps:
        if isinstance(event, acts):
            actor = next(m for m in before.bosses[event.seat].crew if m.card == event.mobster)
            assert actor.deed is None and not actor.law
            assert event.seat == before.active
            acted[(before.turn, event.mobster)] += 1
    assert all(n == 1 for n in acted.values())


@games_settings
@given(whole_games())
def test_the_game_ends_the_moment_the_last_card_is_drawn_and_ranks_by_money(game: Game) -> None:
    last, _, state = game.steps[-1]
    emptied = next(i for i, (_, _, s) in enumerate(game.steps) if not s.deck)

    assert last == ev.GameEnded(reason="last_card_drawn")
    assert emptied == len(game.steps) - 2
    assert isinstance(game.steps[emptied][0], ev.CardsDrawn | ev.ExtraCardBought)
    assert state.phase is Phase.OVER and RULESET.awaiting(state) == {}
    result = RULESET.result(state)
    money = [b.money for b in state.bosses]
    assert result.scores == tuple(money)
    assert result.winners == tuple(s for s in range(game.seats) if money[s] == max(money))
    assert all(r == 1 + sum(m > money[s] for m in money) for s, r in enumerate(result.ranks))


@games_settings
@given(whole_games())
def test_turns_go_clockwise_and_every_turn_draws_cards(game: Game) -> None:
    turns = [e for e in game.events if isinstance(e, ev.TurnStarted)]
    draws = [e for e in game.events if isinstance(e, ev.CardsDrawn) and e.reason == "draw"]

    assert [t.turn for t in turns] == list(range(1, len(turns) + 1))
    assert all(b.seat == (a.seat + 1) % game.seats for a, b in itertools.pairwise(turns))
    assert len(draws) == len(turns)
    assert all(d.count == 2 for d in draws[:-1])


@games_settings
@given(whole_games())
def test_no_viewer_sees_a_card_that_is_hidden_from_it(game: Game) -> None:
    """A viewer's events and views show only cards face up on the table or in the discard pile, and its own
    hand: never the deck, never another seat's hand. EVERYONE sees every card."""
    sample = max(1, len(game.steps) // 60)
    for index, (event, _, state) in enumerate(game.steps):
        hands = [set(boss.hand) for boss in state.bosses]
        public = set(_located_cards(state)) - set(state.deck) - set().union(*hands)
        for viewer in [*range(game.seats), SPECTATOR]:
            visible = public | (hands[viewer] if isinstance(viewer, int) else set())
            assert _card_ids(RULESET.event_view(event, viewer)) <= visible, (viewer, event)
            if index % sample == 0:
                own = [RULESET.you(state, viewer)] if isinstance(viewer, int) else []
                assert _card_ids([RULESET.view(state, viewer), *own]) <= visible, (viewer, state)
        if index % sample == 0:
            assert _card_ids(RULESET.view(state, EVERYONE)) == set(DECK)


def _card_ids(body: Any) -> set[str]:
    """The card ids a JSON body shows."""
    text = msgspec.json.encode(body).decode()
    return {c for c in DECK if f'"{c}"' in text}


@games_settings
@given(whole_games())
def test_legal_moves_agree_with_decide(game: Game) -> None:
    """Every legal move is accepted; a move played elsewhere in the game and not legal here is refused."""
    pool = list(dict.fromkeys(move for _, _, move in game.played))
    rng = random.Random(len(game.steps))
    for state, _, _ in game.played[:: max(1, len(game.played) // 60)]:
        for seat in range(game.seats):
            legal = RULESET.legal_moves(state, seat)
            assert len(set(legal)) == len(legal)
            for move in rng.sample(legal, min(5, len(legal))):
                assert RULESET.decide(state, seat, move, random.Random(0))
            for move in [m for m in rng.sample(pool, min(10, len(pool))) if m not in legal]:
                try:
                    RULESET.decide(state, seat, move, random.Random(0))
                except IllegalMoveError:
                    continue
                raise AssertionError(f"seat {seat} may not {move}, yet it was accepted")


@games_settings
@given(whole_games())
def test_legal_moves_are_the_candidates_in_which_problem_finds_nothing(game: Game) -> None:
    """The shortcut `legal_moves` takes in a turn asks only each move's own check: it answers as the definition."""
    for state, _, _ in game.played:
        for seat in range(game.seats):
            assert RULESET.legal_moves(state, seat) == legal(_candidates, problem)(state, seat)


@games_settings
@given(whole_games())
def test_events_and_states_round_trip_through_json_and_replay(game: Game) -> None:
    state = None
    for event, before, after in game.steps:
        stored = msgspec.json.decode(msgspec.json.encode(event), type=type(event))
        assert stored == event
        state = RULESET.evolve(before if state is None else state, stored)
        assert state == after
    assert msgspec.json.decode(msgspec.json.encode(game.table.rules), type=State) == game.table.rules
