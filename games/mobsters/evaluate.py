"""Each seat's chance of winning a Mobsters game from a state, cheaply: where a searching bot stops looking ahead.

With three seats or more, each seat gets a strength, a weighted sum of what the table shows of it (`measures`),
and the chances are the softmax of the strengths. What a seat holds is counted over what is still to come: the
turns to come are the deck's size over the cards a turn takes (`CARDS_A_TURN`: its draw of two, and extra cards
bought now and then), dealt to the seats in turn order from the active one, whose Collection this turn counts until
it has been collected (`collections`). A seat's money, the income its operations will collect (those of a mobster
under Law apart, as it may be freed or not) and the actions its free mobsters will take count for more the nearer
the end: divided by the square root of the rounds to come. Its cards in hand, mobsters and operations count as such
while a round or more is to come, for less in the last one, and turn order counts too (the active seat plays first).

The weights (`WEIGHTS`) are a conditional logit fitted to the winners of 4,500 games of smart bots (1,500 each of
2, 3 and 4 seats, up to 12 states of a game's turns), and held to 1,500 others (18,000 states): the winner's log loss
is 0.260 at two seats, 0.939 at three and 1.256 at four (even chances: 0.693, 1.099, 1.386), where the evaluation
before it (below) had 0.289, 0.995 and 1.289. `benchmarks/mobsters_evaluation.py` fits them again. With it, `hard`
won about half again as often against smart seats at three and four seats (BENCHMARKS.md, *Mobsters: an evaluation
fitted to the winners*).

The weights judge every seat a smart player. A seat of the house's random bot is not, and a search handicaps it
(`handicap`, through `Searching.handicap`): its strength is lowered by `RANDOM_HANDICAP` a round to come, up to two.

Between two seats the evaluation before it is kept (`two_seat`): the search plays on to the turn's end there, and
on the same deals it won less with the fitted one. Money is the score, so a seat's final money is guessed as its
money now plus what its crew will still earn: each of its Collections to come pays the income of its operations
(those of a mobster under Law at a share, as it may be freed), and each gives every free mobster an action worth
`ACTION`. A card in hand counts for `HAND_CARD` dollars while three rounds or more are to come, less after. The
guesses become chances by a softmax whose temperature (`SPREAD` dollars a square root of the rounds to come) grows
with the turns left: the further the end, the less a lead is worth. Its numbers were picked by hand on smart bots'
games.
"""

from __future__ import annotations

import math

from games.mobsters.cards import earnings
from games.mobsters.state import Phase, State

CARDS_A_TURN = 2.5
"""The cards a turn takes from the deck: its draw of two, and extra cards bought now and then."""
COLLECTED = frozenset({Phase.COLLECTION, Phase.RECRUIT, Phase.LAW})
"""The phases of a turn whose Collection is behind it (the income is collected as the Collection phase starts)."""
ACTION = 150
"""Two seats: what a free mobster's action earns its seat in a turn, on average (a petty crime pays $117)."""
UNDER_LAW = 0.3
"""Two seats: the share of its income a mobster under Law is counted for (it may be freed)."""
SPREAD = 2500.0
"""Two seats: the softmax's temperature, in dollars, per square root of the rounds to come."""
HAND_CARD = 800
"""Two seats: what a card in hand is worth to its seat while three rounds or more are to come (a mobster to recruit,
a crime to commit); less, down to nothing, as the deck runs out."""

WEIGHTS: dict[str, float] = {
    "money_near_end": 0.731,  # per $1,000, over the square root of the rounds to come
    "money": -0.121,  # per $1,000: with the above, money counts for little early on and much near the end
    "income": 0.126,  # per $1,000 of free mobsters' operations' income to be collected, as money near the end
    "income_under_law": 0.066,  # the same, of mobsters under Law
    "actions": 0.059,  # per action its free mobsters will take, as money near the end
    "hand_early": 0.125,  # per card in hand, while three rounds or more are to come, as money near the end
    "hand": 0.074,  # per card in hand
    "free": 0.196,  # per mobster free of the Law
    "under_law": 0.024,  # per mobster under Law
    "operations": 0.033,  # per operation
    "order": -0.207,  # the seats before it in turn order from the active one, over the seats
}
"""Each measure's weight in a seat's strength (the counts of cards and mobsters fade over the last round)."""


RANDOM_HANDICAP = 1.0
"""A seat of the house's random bot: how much lower its strength is than the weights judge it, per round to come, up
to `HANDICAPPED_ROUNDS`. The winners of games of two smart bots and a random one put it at 1.5 to 2 (their log loss
is least there: `benchmarks/handicap.py`); but `hard`, once it judges a random seat so weak, leaves it alone and
presses the others, and the random seat then wins more than among smart bots. With 1.0, beside a smart and a random
seat, `hard` won 33 and 37 of 60 games, the smart seat 24 and 17 and the random one 3 and 6 (seeds 0 and 1; before
it 23, 37 and 0); with 1.5, 42, 14 and 4, the smart seat rated barely above the random one (BENCHMARKS.md, *A random
seat handicapped*)."""
HANDICAPPED_ROUNDS = 2.0
"""The rounds to come beyond which a random seat's handicap grows no more."""


def collections(state: State) -> list[int]:
    """Each seat's Collections to come."""
    n = state.seats
    whole = int(len(state.deck) / CARDS_A_TURN)
    start = first_to_come(state)
    return [whole // n + (1 if (seat - start) % n < whole % n else 0) for seat in range(n)]


def rounds_to_come(state: State) -> float:
    """The rounds still to come: the turns the deck still holds, over the seats."""
    return len(state.deck) / CARDS_A_TURN / state.seats


def first_to_come(state: State) -> int:
    """The seat whose turn is the first to come: the active one, unless its Collection is behind it."""
    return (state.active + 1) % state.seats if state.phase in COLLECTED else state.active


def measures(state: State) -> list[dict[str, float]]:
    """What each seat's strength weighs (`WEIGHTS`' names)."""
    n = state.seats
    rounds = rounds_to_come(state)
    near_end = 1 / math.sqrt(max(rounds, 1.0))
    fading = min(1.0, rounds)
    start = first_to_come(state)
    found = []
    for seat, (boss, collecting) in enumerate(zip(state.bosses, collections(state), strict=True)):
        free = [member for member in boss.crew if not member.law]
        income = sum(earnings(member.card, op) for member in free for op in member.operations)
        income_under_law = sum(earnings(m.card, op) for m in boss.crew if m.law for op in m.operations)
        thousands = boss.money / 1000
        found.append(
            {
                "money_near_end": thousands * near_end,
                "money": thousands,
                "income": collecting * income / 1000 * near_end,
                "income_under_law": collecting * income_under_law / 1000 * near_end,
                "actions": collecting * len(free) * near_end,
                "hand_early": len(boss.hand) * min(1.0, rounds / 3) * near_end,
                "hand": len(boss.hand) * fading,
                "free": len(free) * fading,
                "under_law": (len(boss.crew) - len(free)) * fading,
                "operations": sum(len(member.operations) for member in boss.crew) * fading,
                "order": (seat - start) % n / n,
            }
        )
    return found


def strengths(state: State) -> list[float]:
    """Each seat's strength: its measures, weighted."""
    return [sum(WEIGHTS[name] * value for name, value in seat.items()) for seat in measures(state)]


def projected(state: State) -> list[float]:
    """Two seats: each seat's guessed final money."""
    rounds = rounds_to_come(state)
    guesses = []
    for boss, collecting in zip(state.bosses, collections(state), strict=True):
        income = sum(
            (UNDER_LAW if member.law else 1.0) * earnings(member.card, op)
            for member in boss.crew
            for op in member.operations
        )
        free = sum(1 for member in boss.crew if not member.law)
        hand = HAND_CARD * len(boss.hand) * min(1.0, rounds / 3)
        guesses.append(boss.money + collecting * (income + ACTION * free) + hand)
    return guesses


def two_seat(state: State) -> list[float]:
    """Two seats: the chances by money and income to come, at a temperature that grows with the rounds left."""
    temperature = SPREAD * math.sqrt(max(rounds_to_come(state), 1.0))
    return softmax([guess / temperature for guess in projected(state)])


def evaluate(state: State) -> list[float]:
    """Each seat's estimated chance of winning (they add up to 1)."""
    return softmax(strengths(state)) if state.seats > 2 else two_seat(state)


def handicap(state: State) -> float:
    """How much lower a seat that plays at random stands than its measures say (the weights were fitted to smart
    players): the more rounds it will still play badly, the lower, up to a point."""
    return RANDOM_HANDICAP * min(rounds_to_come(state), HANDICAPPED_ROUNDS)


def softmax(values: list[float]) -> list[float]:
    """Chances in proportion to the exponentials of `values` (they add up to 1)."""
    top = max(values)
    weights = [math.exp(value - top) for value in values]
    total = sum(weights)
    return [weight / total for weight in weights]


def stage(state: State) -> int:
    """The turn a state is in: a search compares its evaluations of states at the same point of a turn, its end."""
    return state.turn
