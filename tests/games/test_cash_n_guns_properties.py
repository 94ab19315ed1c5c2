"""Ca$h 'n Guns properties over whole random games: 4-8 seats, any seed and first Godfather, random legal moves
and aiming windows that time out at random."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import EVERYONE, SPECTATOR, Event
from games.cash_n_guns import RULESET
from games.cash_n_guns.events import (
    Aimed,
    BulletLoaded,
    CourageChosen,
    GameEnded,
    LootDealt,
    LootRevealed,
    LootTaken,
    ShotsResolved,
    TokenTaken,
)
from games.cash_n_guns.loot import DECK, DIAMOND_BONUS, kind, loot_value
from games.cash_n_guns.moves import Courage, Load
from games.cash_n_guns.state import Phase, State
from games.table import Status, Table, evolve
from tests.games import helpers

games_settings = settings(max_examples=50, deadline=None)
MAX_STEPS = 2_000


@dataclass(frozen=True)
class Game:
    """A finished game: `steps[i]` is (event, rules before it, rules after it), from the deal on."""

    seats: int
    table: Table[Any]
    steps: list[tuple[Event, State, State]]

    @property
    def events(self) -> list[Event]:
        return [event for event, _, _ in self.steps]


@st.composite
def whole_games(draw: st.DrawFn) -> Game:
    """Random legal moves by random awaited seats; during a hold-up the window may time out at any moment."""
    seats = draw(st.integers(4, 8))
    first = draw(st.none() | st.integers(0, seats - 1))
    options = {} if first is None else {"first_godfather": first}
    events = helpers.created(RULESET, seats, options, seed=draw(st.integers(0, 2**32 - 1)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    lateness = draw(st.sampled_from([0.0, 0.1, 0.5]))
    bloodthirst = draw(st.sampled_from([0.0, 0.95]))
    table = helpers.given(RULESET, events[:2])
    steps: list[tuple[Event, State, State]] = []
    new = events[2:]
    while True:
        for event in new:
            before = table.rules
            table = evolve(RULESET, table, event)
            steps.append((event, before, table.rules))
        if table.status is Status.FINISHED:
            return Game(seats, table, steps)
        assert len(steps) < MAX_STEPS, "the game does not end"
        new = _next_events(table, rng, lateness, bloodthirst)


def _next_events(table: Table[Any], rng: random.Random, lateness: float, bloodthirst: float) -> list[Event]:
    """A timeout or a random awaited seat's random legal move; bloodthirsty seats load Bang!s and stand."""
    state = table.rules
    if state.phase is Phase.AIM and rng.random() < lateness:
        late = RULESET.timeout(state, rng)
        assert late is not None
        return late
    seat = rng.choice(sorted(RULESET.awaiting(state)))
    legal = RULESET.legal_moves(state, seat)
    brave = [m for m in legal if m in (Load(card="bang"), Courage(stand=True))]
    move = rng.choice(brave if brave and rng.random() < bloodthirst else legal)
    return RULESET.decide(state, seat, move, rng)


def _dealt(state: State) -> bool:
    return state.turn > 0


@games_settings
@given(whole_games())
def test_all_64_loot_cards_are_accounted_for_at_every_version(game: Game) -> None:
    for _, _, state in game.steps:
        if not _dealt(state):
            continue
        held = [card for g in state.gangsters for card in g.loot]  # the dead keep theirs, out of the game
        future = [card for pile in state.piles for card in pile]
        assert Counter([*state.table_loot, *future, *held, *state.lost]) == Counter(DECK)


@games_settings
@given(whole_games())
def test_every_bullet_card_is_used_once_and_loaded_cards_come_from_the_hand(game: Game) -> None:
    spent = [0] * game.seats
    clips = [0] * game.seats
    for event, before, after in game.steps:
        if isinstance(event, BulletLoaded):
            gangster = before.gangsters[event.seat]
            assert gangster.loaded is None
            assert (gangster.bangs if event.card == "bang" else gangster.clicks) > 0
        if isinstance(event, ShotsResolved):
            spent = [n + (card is not None) for n, card in zip(spent, event.cards, strict=True)]
        if isinstance(event, LootTaken) and kind(event.card) == "clip":
            clips[event.seat] += 1
        for s, g in enumerate(after.gangsters):
            assert g.bangs >= 0 and g.clicks >= 0
            assert g.bangs + g.clicks + (g.loaded is not None) + spent[s] == 8 + clips[s]
            assert g.bangs + (g.loaded == "bang") <= 3 + clips[s]


@games_settings
@given(whole_games())
def test_wounds_never_decrease_except_by_a_first_aid_kit(game: Game) -> None:
    for event, before, after in game.steps:
        for s, (was, now) in enumerate(zip(before.gangsters, after.gangsters, strict=True)):
            if now.wounds < was.wounds:
                assert isinstance(event, LootTaken) and event.seat == s and kind(event.card) == "first-aid"
                assert now.wounds == was.wounds - 1
            assert now.alive or not was.alive or was.wounds < 3 <= now.wounds


@games_settings
@given(whole_games())
def test_the_game_always_ends_for_the_reason_its_survivors_give(game: Game) -> None:
    state = game.table.rules
    survivors = [s for s, g in enumerate(state.gangsters) if g.alive]
    ended = game.events[-1]

    assert isinstance(ended, GameEnded)
    expected = {0: "no_survivor", 1: "one_survivor"}.get(len(survivors), "eighth_turn")
    assert ended.reason == expected
    assert (state.turn == 8) if expected == "eighth_turn" else (state.turn <= 8)
    assert [e.turn for e in game.events if isinstance(e, LootRevealed)] == list(range(1, state.turn + 1))
    assert RULESET.awaiting(state) == {}
    assert state.table_loot == ()  # whatever was left on the table left the game


@games_settings
@given(whole_games())
def test_only_the_living_rank_and_the_winners_have_the_best_score_then_wounds(game: Game) -> None:
    state = game.table.rules
    result = RULESET.result(state)
    alive = [g.alive for g in state.gangsters]
    living = [s for s in range(game.seats) if alive[s]]

    assert all((rank is None) == (not alive[s]) for s, rank in enumerate(result.ranks))
    assert set(result.winners) <= set(living)
    bonus = result.details["diamond_bonus"]
    for s, g in enumerate(state.gangsters):
        expected = loot_value(g.loot) + (DIAMOND_BONUS if s == bonus else 0) if g.alive else 0
        assert result.scores[s] == expected
    if len(living) <= 1:
        assert result.winners == tuple(living)
        assert bonus is None  # a lone survivor scores only what it holds
    else:
        best = max((result.scores[s], state.gangsters[s].wounds) for s in living)
        assert result.winners == tuple(s for s in living if (result.scores[s], state.gangsters[s].wounds) == best)


@games_settings
@given(whole_games())
def test_every_pick_is_by_the_standing_seat_whose_turn_it_is(game: Game) -> None:
    for event, before, _ in game.steps:
        if isinstance(event, LootTaken | TokenTaken):
            assert event.seat == before.sharer
            assert before.gangsters[event.seat].standing
        if isinstance(event, TokenTaken):
            assert before.token_available


@games_settings
@given(whole_games())
def test_secrets_reach_no_other_viewer_before_their_reveal(game: Game) -> None:
    secrets = {LootDealt: "piles", BulletLoaded: "card", Aimed: "target", CourageChosen: "stand"}
    for event in game.events:
        secret = secrets.get(type(event))
        if secret is None:
            continue
        owner = getattr(event, "seat", None)
        for viewer in [*range(game.seats), SPECTATOR]:
            assert (secret in RULESET.event_view(event, viewer)) is (viewer == owner)
        assert secret in RULESET.event_view(event, EVERYONE)
    for _, _, state in game.steps:
        public = msgspec.to_builtins(RULESET.view(state, SPECTATOR))
        assert "piles" not in public
        assert all("loaded_card" not in seat and "courage" not in seat for seat in public["seats"])
