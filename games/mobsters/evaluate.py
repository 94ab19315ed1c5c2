"""Each seat's chance of winning a Mobsters game from a state, cheaply: where a searching bot stops looking ahead.

Money is the score, so a seat's final money is guessed as its money now plus what its crew will still earn: each
of its Collection phases to come pays the income of its operations (those of a mobster under Law at a share, as it
may be freed), and each of its turns to come gives every mobster an action worth `ACTION` (a petty crime, a double,
a crime card). The turns to come are the deck's size over the cards a turn draws (`CARDS_A_TURN`: two, and the
extra cards bought), dealt to the seats in turn order from the active one, whose Collection this turn counts until
it has been collected. A card in hand counts for `HAND_CARD` dollars while three rounds or more are to come, less
after (its count is public, though a search's draws guess the others' cards). The guesses become chances by a
softmax whose temperature (`SPREAD` dollars a square root of each seat's turns to come) grows with the turns left:
the further the end, the less a lead is worth.

Held to the winners of 120 games of smart bots (2, 3 and 4 seats, 960 states of their turns): the winner's mean
chance gives a log loss of 0.83 (1.05 for even chances, 0.89 for money alone at its best temperature), and the
favourite wins 59% of the time (53% by money alone). The numbers here were picked on those games; `HAND_CARD` later,
on every fifth state of 40 games of 2 seats and 30 of 4: with 4 seats the log loss drops from 1.31 to 1.25 with it
(1.36 for even chances), with 2 from 0.267 to 0.263.
"""

from __future__ import annotations

import math

from games.mobsters.cards import earnings
from games.mobsters.state import Phase, State

CARDS_A_TURN = 2.5
"""The cards a turn takes from the deck: its draw of two, and extra cards bought now and then."""
ACTION = 150
"""What a free mobster's action earns its seat in a turn, on average (a petty crime pays $117)."""
UNDER_LAW = 0.3
"""The share of its income a mobster under Law is counted for (it may be freed)."""
SPREAD = 2500.0
"""The softmax's temperature, in dollars, per square root of each seat's turns to come."""
HAND_CARD = 800
"""What a card in hand is worth to its seat while three rounds or more are to come (a mobster to recruit, a crime
to commit); less, down to nothing, as the deck runs out."""
COLLECTED = frozenset({Phase.COLLECTION, Phase.RECRUIT, Phase.LAW})
"""The phases of a turn whose Collection is behind it (the income is collected as the Collection phase starts)."""


def projected(state: State) -> list[float]:
    """Each seat's guessed final money."""
    n = state.seats
    turns = len(state.deck) / CARDS_A_TURN
    whole = int(turns)
    rounds = turns / n
    # the active seat's turn now is the first of those to come, unless its Collection is behind it
    start = state.active + 1 if state.phase in COLLECTED else state.active
    collections = [whole // n + (1 if (seat - start) % n < whole % n else 0) for seat in range(n)]
    guesses = []
    for seat, boss in enumerate(state.bosses):
        income = sum(
            (UNDER_LAW if member.law else 1.0) * earnings(member.card, op)
            for member in boss.crew
            for op in member.operations
        )
        free = sum(1 for member in boss.crew if not member.law)
        hand = HAND_CARD * len(boss.hand) * min(1.0, rounds / 3)
        guesses.append(boss.money + collections[seat] * (income + ACTION * free) + hand)
    return guesses


def evaluate(state: State) -> list[float]:
    """Each seat's estimated chance of winning (they add up to 1)."""
    guesses = projected(state)
    top = max(guesses)
    temperature = SPREAD * math.sqrt(max(len(state.deck) / CARDS_A_TURN / state.seats, 1.0))
    weights = [math.exp((guess - top) / temperature) for guess in guesses]
    total = sum(weights)
    return [weight / total for weight in weights]


def stage(state: State) -> int:
    """The turn a state is in: a search compares its evaluations of states at the same point of a turn, its end."""
    return state.turn
