"""The `smart` bot of 12 Gangsters: determinization Monte Carlo over the round, a plan for the rest.

It decides from its seat's view alone (what the API shows that seat): its own hand, and the public piles,
scores, Boss and round. Every gangster is played exactly once, so each opponent's hand is deducible: the
gangsters 1..N minus those already face up in its piles. Only the cards chosen this round are hidden.

For each legal card it samples the opponents' hidden choices from their hands (the same samples for every
card, so the cards are compared on equal luck), settles the round with the game's own `rules.reveal`, and
adds what the rest of the game is worth: for itself, the best split of the cards it keeps between the rounds
it will be Boss (where a high gangster succeeds unless someone matches it) and the others (where a gangster
succeeds only up to the Boss's); for every seat, a mean and a variance of what it may still score. It plays
the card with the highest estimated chance of winning (a normal approximation of the final scores), the
expected lead over the best opponent breaking near-ties, rather than the card worth the most points.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from games.twelve_gangsters import rules

SAMPLES = 48
"""Sampled deals of the opponents' hidden choices per decision, shared by every candidate card."""
LEAD_WEIGHT = 0.002
"""Weight of the expected lead (in points) over the best opponent, next to the win probability."""


def smart_bot(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The legal move with the best estimated chance of winning, from the seat's view only."""
    legal = view["you"]["legal_moves"]
    if len(legal) <= 1:
        return legal[0]
    seen = _Seen(view)
    cards = [move["card"] for move in legal]
    best = max(cards, key=lambda card: (_worth(seen, card, rng_samples(seen, rng)), -card))
    return next(move for move in legal if move["card"] == best)


_samples_cache: dict[int, list[list[int]]] = {}


def rng_samples(seen: _Seen, rng: random.Random) -> list[list[int]]:
    """The opponents' sampled choices for this decision (drawn once, then shared by every card)."""
    if seen.samples is None:
        seen.samples = [seen.sample_plays(rng) for _ in range(SAMPLES)]
    return seen.samples


class _Seen:
    """What the seat's view tells: hands (its own, and the others' deduced from the piles), scores, Bosses."""

    def __init__(self, view: dict[str, Any]) -> None:
        state = view["state"]
        public = state["seats"]
        self.me: int = view["you"]["seat"]
        self.n = len(public)
        self.rounds: int = state["rounds"]
        self.round: int = state["round"]
        self.boss: int = state["boss"]
        every = range(1, self.rounds + 1)
        self.hands: list[list[int]] = [
            sorted(view["you"]["hand"])
            if s == self.me
            else [c for c in every if c not in set(seat["succeeded"]) | set(seat["stopped"])]
            for s, seat in enumerate(public)
        ]
        self.scores: list[int] = [sum(seat["succeeded"]) for seat in public]
        self.heists: list[int] = [len(seat["succeeded"]) for seat in public]
        self.state = rules.State(
            seats=self.n,
            rounds=self.rounds,
            first_boss=None,
            hands=tuple(tuple(hand) for hand in self.hands),
            chosen=(None,) * self.n,
            succeeded=tuple(tuple(seat["succeeded"]) for seat in public),
            stopped=tuple(tuple(seat["stopped"]) for seat in public),
            boss=self.boss,
            round=self.round,
        )
        self.future_bosses = [(self.boss + k) % self.n for k in range(1, self.rounds - self.round + 1)]
        self.samples: list[list[int]] | None = None
        self._plans: dict[int, tuple[float, float]] = {}
        self.others_future = self._others_future()

    def sample_plays(self, rng: random.Random) -> list[int]:
        """One guess at this round's hidden choices: each opponent's card uniform over its hand."""
        return [0 if s == self.me else rng.choice(hand) for s, hand in enumerate(self.hands)]

    def holds(self, seat: int, card: int) -> float:
        """The chance `seat` plays `card` in a given later round: 1/cards left, if it still holds it."""
        hand = self.hands[seat]
        return 1 / len(hand) if card in hand else 0.0

    def safe(self, boss: int, card: int) -> float:
        """The chance nobody matches the Boss's `card` in a later round (so the Boss's gangster succeeds)."""
        chance = 1.0
        for s in range(self.n):
            if s != boss:
                chance *= 1 - self.holds(s, card)
        return chance

    def at_most(self, boss: int, card: int) -> float:
        """The chance the Boss's gangster is at least `card` in a later round (so `card` succeeds)."""
        hand = self.hands[boss]
        return sum(1 for c in hand if c >= card) / len(hand)

    def plan(self, kept: Sequence[int]) -> tuple[float, float]:
        """Mean and variance of what my kept cards may score in the later rounds, split at best between the
        rounds I am Boss (a high card succeeds unless matched) and the others (up to the Boss's card)."""
        if not self.future_bosses:
            return 0.0, 0.0
        mine = sum(1 for b in self.future_bosses if b == self.me)
        theirs = [b for b in self.future_bosses if b != self.me]
        options = []
        for card in kept:
            p_boss = self.safe(self.me, card)
            p_other = sum(self.at_most(b, card) for b in theirs) / len(theirs) if theirs else 0.0
            options.append((card * p_boss - card * p_other, card, p_boss, p_other))
        options.sort(reverse=True)
        mean = var = 0.0
        for rank, (_, card, p_boss, p_other) in enumerate(options):
            p = p_boss if rank < mine else p_other
            mean += card * p
            var += card * card * p * (1 - p)
        return mean, var

    def _others_future(self) -> list[tuple[float, float]]:
        """Mean and variance of what each seat but mine may still score in the later rounds, playing at random
        (my own Boss rounds count my likely Boss cards: the highest ones I keep)."""
        out = [(0.0, 0.0)] * self.n
        mine = self.hands[self.me]
        my_boss_cards = sorted(mine, reverse=True)[: max(1, sum(1 for b in self.future_bosses if b == self.me))]
        for s in range(self.n):
            if s == self.me:
                continue
            hand = self.hands[s]
            mean = var = 0.0
            for boss in self.future_bosses:
                if boss == s:
                    values = [(c, self.safe(s, c)) for c in hand]
                    e1 = sum(c * p for c, p in values) / len(hand)
                    e2 = sum(c * c * p for c, p in values) / len(hand)
                else:
                    bars = my_boss_cards if boss == self.me else self.hands[boss]
                    e1 = sum(c for bar in bars for c in hand if c <= bar) / (len(hand) * len(bars))
                    e2 = sum(c * c for bar in bars for c in hand if c <= bar) / (len(hand) * len(bars))
                mean += e1
                var += e2 - e1 * e1
            out[s] = (mean, var)
        return out

    def my_future(self, card: int) -> tuple[float, float]:
        if card not in self._plans:
            self._plans[card] = self.plan([c for c in self.hands[self.me] if c != card])
        return self._plans[card]


def _worth(seen: _Seen, card: int, samples: list[list[int]]) -> float:
    """The estimated chance of winning (plus a little for the expected lead) if I play `card` now."""
    me = seen.me
    my_mean, my_var = seen.my_future(card)
    total = 0.0
    for plays in samples:
        plays = list(plays)
        plays[me] = card
        succeeded = rules.reveal(seen.state, plays).succeeded
        finals = [seen.scores[s] + (plays[s] if s in succeeded else 0) for s in range(seen.n)]
        heists = [seen.heists[s] + (s in succeeded) for s in range(seen.n)]
        mine = finals[me] + my_mean
        win = 1.0
        lead = math.inf
        for s in range(seen.n):
            if s == me:
                continue
            mean, var = seen.others_future[s]
            gap = mine - (finals[s] + mean)
            lead = min(lead, gap)
            spread = my_var + var
            if spread > 1e-9:
                win *= 0.5 * (1 + math.erf((gap + 0.5) / math.sqrt(2 * spread)))
            elif gap < 0 or (gap == 0 and heists[me] < heists[s]):
                win = 0.0
        total += win + LEAD_WEIGHT * lead
    return total / len(samples)
