"""Ca$h 'n Guns' cheap evaluation: each seat's chance of winning from its loot, health and share of the loot to come."""

from __future__ import annotations

import math

import msgspec

from games.cash_n_guns import RULESET
from games.cash_n_guns.evaluate import evaluate
from games.cash_n_guns.state import Gangster, Phase, State
from games.selfplay import play_out
from tests.games.cng_helpers import new_game, stacked


def started(seats: int = 4) -> State:
    state: State = new_game(seats, godfather=0, piles=stacked()).rules
    return state


def with_gangsters(state: State, **changes: Gangster) -> State:
    gangsters = list(state.gangsters)
    for seat, gangster in changes.items():
        gangsters[int(seat.removeprefix("s"))] = gangster
    return msgspec.structs.replace(state, gangsters=tuple(gangsters))


def test_the_chances_add_up_to_one_over_the_living_and_equal_seats_have_equal_chances() -> None:
    chances = evaluate(started())
    assert math.isclose(sum(chances), 1) and max(chances) - min(chances) < 1e-9


def test_the_dead_have_no_chance_and_a_lone_survivor_every_chance() -> None:
    state = with_gangsters(started(), s1=Gangster(alive=False, wounds=3, loot=("painting-01",)))
    chances = evaluate(state)
    assert chances[1] == 0 and math.isclose(sum(chances), 1) and all(0 <= c <= 1 for c in chances)
    dead = Gangster(alive=False, wounds=3)
    assert evaluate(with_gangsters(started(), s0=dead, s1=dead, s3=dead)) == [0.0, 0.0, 1.0, 0.0]


def test_a_rich_seat_near_the_end_is_the_favourite_and_wounds_lower_a_seats_chance() -> None:
    rich = Gangster(loot=("cash-20000-01", "cash-20000-02", "painting-01", "painting-02", "painting-03"))
    late = msgspec.structs.replace(with_gangsters(started(), s2=rich), piles=())
    chances = evaluate(late)
    assert chances[2] > 0.8 and chances[2] == max(chances)
    assert evaluate(with_gangsters(started(), s0=Gangster(wounds=2)))[0] < 0.25


def test_a_lead_is_worth_more_near_the_end() -> None:
    leading = with_gangsters(started(), s0=Gangster(loot=("cash-20000-01", "cash-10000-01")))
    assert evaluate(msgspec.structs.replace(leading, piles=leading.piles[:1]))[0] > evaluate(leading)[0]


def test_a_sharing_splits_the_table_among_the_standing() -> None:
    state = started()
    standing = tuple(msgspec.structs.replace(g, standing=s == 3) for s, g in enumerate(state.gangsters))
    sharing = msgspec.structs.replace(state, phase=Phase.SHARING, gangsters=standing, sharer=3)
    chances = evaluate(sharing)
    assert chances[3] == max(chances) and chances[3] > 0.25


def test_the_favourite_of_a_game_of_smart_bots_wins_more_often_than_chance() -> None:
    """The winners' chance scores better than even chances over the living would, over whole games of smart bots."""
    loss = even = 0.0
    for seats in (4, 6):
        for seed in range(6):
            states, winners = played(seats, 700 + seed)
            if not winners:
                continue
            for state in states[:: max(1, len(states) // 12)]:
                if state.phase is not Phase.OVER:
                    loss -= math.log(sum(evaluate(state)[w] for w in winners))
                    even -= math.log(len(winners) / sum(g.alive for g in state.gangsters))
    assert loss < 0.9 * even


def played(seats: int, seed: int) -> tuple[list[State], tuple[int, ...]]:
    """Every state a game of smart bots asks a decision in, and its winners."""
    states: list[State] = []
    table = play_out(RULESET, ["smart"] * seats, seed, watch=lambda t, s, _: states.append(t.rules))
    return states, RULESET.result(table.rules).winners
