"""Each seat's chance of winning a 12 Gangsters game from a state, cheaply: where a searching bot stops looking.

A seat's final score is guessed as its score now plus what its hand may still score (every hand is deducible
from the piles, so nothing hidden is used): the rounds left say how often it will be Boss; it keeps for those
rounds the gangsters worth most there (a Boss's gangster succeeds unless another seat, playing at random, matches
it) and sends the others in the other rounds, where one succeeds when no higher than the Boss's, itself drawn at
random from the Boss's hand. The guesses become chances by a softmax whose temperature grows with the
rounds left: the further the end, the less a lead is worth.
"""

from __future__ import annotations

import functools
import math

from games.twelve_gangsters.state import State

SPREAD = 2.5
"""The softmax's temperature (in points) per square root of the rounds left."""


def evaluate(state: State) -> list[float]:
    """Each seat's estimated chance of winning (they add up to 1)."""
    return list(_chances(state.hands, state.succeeded, state.boss, state.round, state.rounds))


@functools.lru_cache(maxsize=8192)
def _chances(
    hands: tuple[tuple[int, ...], ...],
    succeeded: tuple[tuple[int, ...], ...],
    boss: int | None,
    round_: int,
    rounds: int,
) -> tuple[float, ...]:
    # A search meets the same states again and again (a round's outcomes are few): each is worked out once.
    n = len(hands)
    left = rounds - round_ + 1
    guesses = [float(sum(pile)) for pile in succeeded]
    if left > 0 and boss is not None:
        bosses = [0] * n
        for k in range(left):
            bosses[(boss + k) % n] += 1
        top_card = max((max(hand) for hand in hands if hand), default=0)
        # at_least[b][c]: how many of seat b's gangsters are c or higher
        at_least = []
        for hand in hands:
            counts = [0] * (top_card + 2)
            for card in hand:
                counts[card] += 1
            for c in range(top_card, -1, -1):
                counts[c] += counts[c + 1]
            at_least.append(counts)
        for seat, hand in enumerate(hands):
            if hand:
                guesses[seat] += _later(seat, hand, hands, bosses, at_least)
    top = max(guesses)
    temperature = SPREAD * math.sqrt(max(left, 1))
    weights = [math.exp((guess - top) / temperature) for guess in guesses]
    total = sum(weights)
    return tuple(weight / total for weight in weights)


def _later(
    seat: int,
    hand: tuple[int, ...],
    hands: tuple[tuple[int, ...], ...],
    bosses: list[int],
    at_least: list[list[int]],
) -> float:
    """What `seat` may score in the rounds left: its gangsters worth most as a Boss kept for the rounds it holds
    the token (succeeding unless matched, the others playing at random), the rest sent at random when others are
    Boss (succeeding when no higher than the Boss's, drawn at random from its hand)."""
    own = bosses[seat]
    others = [(boss, count) for boss, count in enumerate(bosses) if count and boss != seat and hands[boss]]
    sent = sum(count for _, count in others)
    plans = []
    for card in hand:
        unmatched = 1.0
        for other, theirs in enumerate(hands):
            if other != seat and theirs and card in theirs:
                unmatched *= 1 - 1 / len(theirs)
        as_boss = card * unmatched
        as_other = (
            card * sum(count * at_least[boss][card] / len(hands[boss]) for boss, count in others) / sent
            if sent
            else 0.0
        )
        plans.append((as_boss - as_other, as_boss, as_other))
    plans.sort(reverse=True)
    return sum(as_boss if i < own else as_other for i, (_, as_boss, as_other) in enumerate(plans))
