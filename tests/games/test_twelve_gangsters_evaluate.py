"""12 Gangsters' cheap evaluation, as a search uses it: a random bot's seat handicapped."""

from __future__ import annotations

import math

import msgspec

from games.search import handicapped
from games.selfplay import play_out
from games.twelve_gangsters import RULESET
from games.twelve_gangsters.evaluate import HANDICAPPED_ROUNDS, RANDOM_HANDICAP, evaluate, handicap
from games.twelve_gangsters.state import State


def test_a_seat_that_plays_at_random_is_handicapped_the_more_the_more_rounds_it_will_play() -> None:
    start = RULESET.initial_state(3, {})
    assert RULESET.searching.handicap is handicap
    at = [handicap(msgspec.structs.replace(start, round=start.rounds + 1 - left)) for left in (1, 2, 3, 6)]
    assert at == [RANDOM_HANDICAP * min(left, HANDICAPPED_ROUNDS) for left in (1, 2, 3, 6)]
    assert 0 < at[0] < at[1] < at[2] == at[3]


def test_the_handicap_judges_a_random_seat_among_smart_ones_better_than_the_evaluation_alone_or_twice_it() -> None:
    """The evaluation judges every seat as if it played its hand well: beside two smart bots a random bot's seat wins
    less often than it judges, and the handicap brings its chance nearer to what it wins; twice the handicap
    overshoots (the states a search evaluates: a round's choices all to come)."""
    loss = dict.fromkeys((0.0, 1.0, 2.0), 0.0)
    for seed in range(60):
        at_random = seed % 3
        kinds = ["smart"] * 3
        kinds[at_random] = "random"
        states, winners = played(kinds, 800 + seed)
        for state in states:
            if state.boss is None or any(choice is not None for choice in state.chosen):
                continue
            for scale in loss:
                chances = handicapped(evaluate(state), {at_random}, scale * handicap(state))
                loss[scale] -= math.log(sum(chances[w] for w in winners))
    assert loss[1.0] < 0.96 * loss[0.0]
    assert loss[1.0] < loss[2.0]


def played(kinds: list[str], seed: int) -> tuple[list[State], tuple[int, ...]]:
    """Every state a game of these bots asks a decision in, and its winners."""
    states: list[State] = []
    table = play_out(RULESET, kinds, seed, watch=lambda t, s, _: states.append(t.rules))
    return states, RULESET.result(table.rules).winners
