"""Each seat's chance of winning a Ca$h 'n Guns game from a state, cheaply: where a searching bot stops looking ahead.

Only the living may win, so a seat's chance is its chance of being alive at the end times its chance of the best
score among those who are. Its final score is guessed as the loot it holds plus its share of the loot still to be
taken (the table's and the piles'): a sharing under way splits the table among the seats standing in it, the rest
goes to the living in proportion to the loot each took so far (`PRIOR` cards of an even share weigh against it),
less for the wounded (`HEALTH`), who lie down more. Banknotes and diamonds count at their face, the paintings at
the set a seat's expected count of them makes, and the $60,000 diamond bonus goes to the seats by a softmax of their
expected diamond cards. A Bang! loaded and aimed at a seat this turn is a wound it may take (`HIT`); a seat's
chance of dying before the end grows with its wounds and the turns left (`DYING`). The guesses become chances by a
softmax whose temperature (`SPREAD`, and `SPREAD_PER_PILE` a square root of the piles left) narrows as the loot
runs out. Everything hidden is read from the state as it is: a search evaluates states drawn from a view.

The numbers here were picked on the states smart bots' games ask their decisions in (BENCHMARKS.md, *The evaluations*).
"""

from __future__ import annotations

import functools
import math

from games.cash_n_guns.loot import DECK, DIAMOND_BONUS, PAINTING_VALUES, face_value, kind
from games.cash_n_guns.state import DEAD_AT, Phase, State

PRIOR = 40.0
"""The cards of an even share that weigh against the loot a seat took so far, in its share of the loot to come."""
HEALTH = (1.0, 0.8, 0.55)
"""The part of its share a seat takes, by wounds (the wounded lie down more)."""
HIT = 0.4
"""The chance a Bang! loaded and aimed at a seat this turn wounds it (it may lie down)."""
DYING = (0.0, 0.05, 0.3)
"""By wounds, a seat's chance of dying in each turn to come (up to `DYING_TURNS` of them)."""
DYING_TURNS = 4
DIAMOND_SPREAD = 0.5
"""The softmax's temperature for the diamond bonus, in expected diamond cards."""
SPREAD, SPREAD_PER_PILE = 20000.0, 50000.0
"""The score softmax's temperature, in dollars: at the end, and per square root of the piles left."""
UNAIMED = 0.2
"""Before the aims are shown: the wounds a loaded Bang! may deal, spread over the shooter's possible targets."""
FIRE = 0.1
"""What each Bang! card in a seat's hand adds to its share of the loot to come (a gun others must respect)."""
LOADING = frozenset({Phase.LOAD, Phase.AIM})
"""The phases in which a loaded card is not yet aimed where all can see."""
THREATENED = frozenset({Phase.PRIVILEGE, Phase.RETARGET, Phase.COURAGE})
"""The phases in which the aims are shown and the shots still to come."""


def evaluate(state: State) -> list[float]:
    """Each seat's estimated chance of winning: 0 for the dead, adding up to at most 1 over the living."""
    gangsters = state.gangsters
    living = [s for s, g in enumerate(gangsters) if g.alive]
    chances = [0.0] * state.seats
    if len(living) <= 1:
        for s in living:
            chances[s] = 1.0
        return chances
    piles = state.piles
    sharing = state.phase is Phase.SHARING
    # the loot to come: the piles', and the table's unless a sharing among the standing is under way
    money, paintings, diamonds = _piles(piles)
    if not sharing:
        more = _totals(state.table_loot)
        money, paintings, diamonds = money + more[0], paintings + more[1], diamonds + more[2]
    turns = len(piles) + (0 if sharing else 1)
    # pending wounds this turn: a loaded Bang! aimed at a seat that has not lain down
    wounds = {s: float(gangsters[s].wounds) for s in living}
    if state.phase in THREATENED:
        for s in living:
            g = gangsters[s]
            t = g.target
            if t is not None and g.loaded == "bang" and gangsters[t].alive and gangsters[t].stand is not False:
                wounds[t] += HIT
    elif state.phase in LOADING and UNAIMED:
        for s in living:
            if gangsters[s].loaded == "bang":
                for t in living:
                    if t != s:
                        wounds[t] += UNAIMED / (len(living) - 1)
    weights = {}
    for s in living:
        w = min(wounds[s], DEAD_AT - 0.01)
        low = int(w)
        health = HEALTH[low] + (w - low) * ((HEALTH[low + 1] if low + 1 < DEAD_AT else 0.0) - HEALTH[low])
        weights[s] = health * (PRIOR + len(gangsters[s].loot)) * (1 + FIRE * gangsters[s].bangs)
    total = sum(weights.values())
    standing = [s for s in living if gangsters[s].standing] if sharing else []
    table_money, table_paintings, table_diamonds = _totals(state.table_loot) if standing else (0, 0, 0)
    guesses, alive, expected_diamonds = {}, {}, {}
    for s in living:
        share = weights[s] / total
        own_money, own_paintings, own_diamonds = _totals(gangsters[s].loot)
        cut = 1 / len(standing) if s in standing else 0.0
        p = own_paintings + share * paintings + cut * table_paintings
        expected_diamonds[s] = own_diamonds + share * diamonds + cut * table_diamonds
        low = min(int(p), len(PAINTING_VALUES) - 2)
        painted = PAINTING_VALUES[low] + (p - low) * (PAINTING_VALUES[low + 1] - PAINTING_VALUES[low])
        guesses[s] = own_money + share * money + cut * table_money + painted
        w = min(round(wounds[s]), DEAD_AT)
        alive[s] = 0.0 if w >= DEAD_AT else (1 - DYING[w]) ** min(turns, DYING_TURNS)
    top = max(expected_diamonds.values())
    bonus = {s: math.exp((d - top) / DIAMOND_SPREAD) for s, d in expected_diamonds.items()}
    bonus_total = sum(bonus.values())
    for s in living:
        guesses[s] += DIAMOND_BONUS * bonus[s] / bonus_total
    temperature = SPREAD + SPREAD_PER_PILE * math.sqrt(len(piles))
    top = max(guesses.values())
    weighed = {s: alive[s] * math.exp((guesses[s] - top) / temperature) for s in living}
    total = sum(weighed.values())
    if total == 0:  # every living seat looks doomed: the score alone
        weighed = {s: math.exp((guesses[s] - top) / temperature) for s in living}
        total = sum(weighed.values())
    for s in living:
        chances[s] = weighed[s] / total
    return chances


WORTH = {card: (face_value(card), kind(card) == "painting", kind(card) == "diamond") for card in DECK}
"""Each loot card's money (a banknote's or a diamond's face), and whether it is a painting, a diamond."""


@functools.lru_cache(maxsize=4096)
def _totals(cards: tuple[str, ...]) -> tuple[int, int, int]:
    """The money of these cards, and how many paintings and diamonds they hold."""
    money = paintings = diamonds = 0
    for card in cards:
        value, painting, diamond = WORTH[card]
        money += value
        paintings += painting
        diamonds += diamond
    return money, paintings, diamonds


@functools.lru_cache(maxsize=1024)
def _piles(piles: tuple[tuple[str, ...], ...]) -> tuple[int, int, int]:
    """`_totals` of every card in the piles to come."""
    totals = [_totals(pile) for pile in piles]
    return sum(t[0] for t in totals), sum(t[1] for t in totals), sum(t[2] for t in totals)
