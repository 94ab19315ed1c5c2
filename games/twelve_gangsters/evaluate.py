"""Each seat's chance of winning a 12 Gangsters game from a state, cheaply: where a searching bot stops looking.

A seat's final score is guessed as its score now plus what its hand may still score (every hand is deducible
from the piles, so nothing hidden is used): the rounds left say how often it will be Boss; it keeps for those
rounds the gangsters worth most there (a Boss's gangster succeeds unless another seat, playing at random, matches
it) and sends the others in the other rounds, where one succeeds when no higher than the Boss's, itself drawn at
random from the Boss's hand. The guesses become chances by a softmax whose temperature grows with the
rounds left: the further the end, the less a lead is worth.

Every seat is judged as if it played its hand well. A seat of the house's random bot does not, and a search
handicaps it (`handicap`, through `Searching.handicap`): beside two smart bots it won 14 to 19% of the wins where
this judged it 25 to 26%.
"""

from __future__ import annotations

import functools
import math

from games.twelve_gangsters.state import State

SPREAD = 2.5
"""The softmax's temperature (in points) per square root of the rounds left."""
RANDOM_HANDICAP = 0.3
"""A seat of the house's random bot: how much lower the logit of its chance is than this judges it, per round left, up
to `HANDICAPPED_ROUNDS` (at or near the least log loss of the winners of games of two smart bots and a random one:
BENCHMARKS.md, *A random seat handicapped*; `benchmarks/handicap.py`)."""
HANDICAPPED_ROUNDS = 3
"""The rounds left beyond which a random seat's handicap grows no more."""
PLACED = 0.3
"""The weight of a seat's place in a search's reward (`Searching.placed`): the game ranks every seat, and at five
seats one far behind sees every gangster at about no chance of winning, where the rivals it may still pass tell them
apart (BENCHMARKS.md, *A seat's place in the reward*)."""


def evaluate(state: State) -> list[float]:
    """Each seat's estimated chance of winning (they add up to 1)."""
    hands, n = state.hands, state.seats
    left = state.rounds - state.round + 1
    guesses = [float(sum(pile)) for pile in state.succeeded]
    if left > 0 and state.boss is not None:
        # The others' hands as they were before the last round: the same whichever way that round went, so that
        # a search weighing its outcomes works out each seat's prospects once per hand it may be left with.
        last = state.history[-1] if state.history else None
        before = hands if last is None else tuple(tuple(sorted((*hand, last.plays[s]))) for s, hand in enumerate(hands))
        bosses = tuple(sum(1 for k in range(left) if (state.boss + k) % n == seat) for seat in range(n))
        for seat, hand in enumerate(hands):
            if hand:
                guesses[seat] += _later(seat, hand, before, bosses)
    top = max(guesses)
    temperature = SPREAD * math.sqrt(max(left, 1))
    weights = [math.exp((guess - top) / temperature) for guess in guesses]
    total = sum(weights)
    return [weight / total for weight in weights]


def handicap(state: State) -> float:
    """How much lower a seat that plays at random stands than `evaluate` judges it: the more rounds it will still
    play badly, the lower, up to a point."""
    return RANDOM_HANDICAP * min(state.rounds - state.round + 1, HANDICAPPED_ROUNDS)


@functools.lru_cache(maxsize=4096)
def _reach(hands: tuple[tuple[int, ...], ...]) -> tuple[tuple[float, ...], ...]:
    """reach[b][c]: the chance seat b's gangster, drawn at random from its hand, is c or higher."""
    top = max((max(hand) for hand in hands if hand), default=0)
    found = []
    for hand in hands:
        counts = [0.0] * (top + 2)
        for card in hand:
            counts[card] += 1
        for c in range(top, -1, -1):
            counts[c] += counts[c + 1]
        found.append(tuple(count / len(hand) if hand else 0.0 for count in counts))
    return tuple(found)


@functools.lru_cache(maxsize=16384)
def _later(seat: int, hand: tuple[int, ...], hands: tuple[tuple[int, ...], ...], bosses: tuple[int, ...]) -> float:
    """What `seat` may score in the rounds left with `hand`, the others playing at random from `hands`: its
    gangsters worth most as a Boss kept for the rounds it holds the token (succeeding unless matched), the rest
    sent when others are Boss (succeeding when no higher than the Boss's)."""
    reach = _reach(hands)
    others = [(boss, count) for boss, count in enumerate(bosses) if count and boss != seat and hands[boss]]
    sent = sum(count for _, count in others)
    plans = []
    for card in hand:
        unmatched = 1.0
        for other, theirs in enumerate(hands):
            if other != seat and card in theirs:
                unmatched *= 1 - 1 / len(theirs)
        as_boss = card * unmatched
        as_other = card * sum(count * reach[boss][card] for boss, count in others) / sent if sent else 0.0
        plans.append((as_boss - as_other, as_boss, as_other))
    plans.sort(reverse=True)
    own = bosses[seat]
    return sum(as_boss if i < own else as_other for i, (_, as_boss, as_other) in enumerate(plans))
