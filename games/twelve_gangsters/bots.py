"""The `smart` bot of 12 Gangsters: determinization Monte Carlo over the round, a plan for the rest, and a
gangster drawn from a mixed strategy over those estimates.

It decides from its seat's view alone (what the API shows that seat): its own hand and the public piles,
scores, Boss and round. Every gangster is played exactly once, so each opponent's hand is deducible: the
gangsters 1..N minus those already face up in its piles. Only the choices of the current round are hidden.

For each legal card it weighs the opponents' hidden choices, the same for every card so that the cards are
compared on equal luck: every choice they may make when that is at most `EXACT` settlements in all (in a game
of three, its last eight rounds), else samples from their hands. It settles the round with the game's own
`rules.reveal` and adds what the rest of the game is worth: for itself, the cards it keeps split at best between
the rounds it will be Boss (a high gangster succeeds unless someone matches it) and the others (a gangster
succeeds only up to the Boss's); for each opponent, what it may still score playing at random. A settlement's
lead over the strongest opponent becomes a chance of winning by a logistic whose spread grows with the rounds
left, and a card is worth its mean chance. With two rounds left it counts every outcome exactly: it enumerates
every choice the opponents may make, plays both rounds out through the rules, and counts the games it wins (a
shared victory included) by the game's own tally.

Its hand and those estimates are everyone's to compute (every hand is deducible from the piles), so the card
is drawn with the secret generator from `games.mixing.strategy` at the price `PRICE` (in chances of winning): a
predictor who runs this code on the table is right, over a game's gangsters, about 1.38 times as often as a
blind guess, and in no round more than 9 times in 10 or 3 times as often as a blind guess. The endgame's exact
count is mixed the same way. Against random seats this costs it about a third of its margin over its fair
share (see the README's tables): a gangster that cannot be foreseen is often not the best one.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

from games import mixing
from games.twelve_gangsters import rules
from games.twelve_gangsters.events import BossPassed
from games.twelve_gangsters.evolve import evolve
from games.twelve_gangsters.state import State

SAMPLES = 48
"""Sampled choices of the opponents per decision, shared by every candidate card."""
EXACT = 600
"""The most settlements (the opponents' choices in the round, times my cards) counted one by one rather than
sampled: no more than the samples of a hand of twelve."""
LEAD_TIE_BREAK = 0.001
"""With two rounds left: the weight of the lead (in points), next to the chance of winning."""
SPREAD = 3.0
"""The logistic spread (in points) of a sampled lead, per square root of the rounds left, as a chance of winning."""
PRICE = 0.15
"""What a gangster foreseen for sure costs, in chances of winning (see `games.mixing.strategy`): set so that a
predictor's rate over a game's gangsters lands under 1.4 times a blind guess's (the README has the frontier)."""


def smart_bot(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A gangster drawn from `smart_policy`; from the seat's view and `rng` only."""
    return mixing.play(smart_policy, view, rng)


def smart_policy(view: dict[str, Any], rng: random.Random) -> mixing.Mixed:
    """Each legal gangster with the chance it is played, from its estimated chance of winning."""
    legal: list[dict[str, Any]] = view["you"]["legal_moves"]
    if len(legal) <= 1:
        return mixing.certain(legal[0])
    seen = Seen(view)
    cards = [move["card"] for move in legal]
    if len(cards) == 2:
        worth = [seen.last_two(card) for card in cards]
    else:
        samples = seen.round_choices(rng)
        worth = [seen.chance(card, samples) for card in cards]
    return mixing.mixed(legal, mixing.strategy(worth, PRICE))


class Seen:
    """What a seat's view tells: every hand (its own, the others' deduced from the piles), scores, Bosses."""

    def __init__(self, view: dict[str, Any]) -> None:
        state = view["state"]
        public = state["seats"]
        self.me: int = view["you"]["seat"]
        self.n = len(public)
        rounds: int = state["rounds"]
        self.hands: list[list[int]] = [
            sorted(view["you"]["hand"])
            if s == self.me
            else [c for c in range(1, rounds + 1) if c not in {*seat["succeeded"], *seat["stopped"]}]
            for s, seat in enumerate(public)
        ]
        self.scores: list[int] = [sum(seat["succeeded"]) for seat in public]
        self.state = State(
            seats=self.n,
            rounds=rounds,
            first_boss=None,
            hands=tuple(tuple(hand) for hand in self.hands),
            chosen=(None,) * self.n,
            succeeded=tuple(tuple(seat["succeeded"]) for seat in public),
            stopped=tuple(tuple(seat["stopped"]) for seat in public),
            boss=state["boss"],
            round=state["round"],
        )
        self.boss: int = state["boss"]
        self.later_bosses = [(self.boss + k) % self.n for k in range(1, rounds - state["round"] + 1)]
        # reach[b][c]: the chance seat b's gangster is at least c, were b the Boss in a later round
        self.reach = [[sum(1 for x in hand if x >= c) / len(hand) for c in range(rounds + 2)] for hand in self.hands]
        self.others_later = [0.0 if s == self.me else self._later_at_random(s) for s in range(self.n)]

    # --- the current round ---------------------------------------------------------------------------------

    def round_choices(self, rng: random.Random) -> list[list[int]]:
        """This round's hidden choices to weigh: every one the opponents may make, when they are few; else samples."""
        hands = [[0] if s == self.me else hand for s, hand in enumerate(self.hands)]
        if math.prod(len(hand) for hand in hands) * len(self.hands[self.me]) <= EXACT:
            return [list(plays) for plays in itertools.product(*hands)]
        return [self.sample_choices(rng) for _ in range(SAMPLES)]

    def sample_choices(self, rng: random.Random) -> list[int]:
        """One guess at this round's hidden choices: each opponent's gangster uniform over its hand."""
        return [0 if s == self.me else rng.choice(hand) for s, hand in enumerate(self.hands)]

    def chance(self, card: int, samples: list[list[int]]) -> float:
        """My chance of winning if I play `card` now: over the opponents' choices weighed (`samples`), a logistic
        of my final score less the strongest opponent's."""
        me = self.me
        base = [score + later for score, later in zip(self.scores, self.others_later, strict=True)]
        base[me] += self.plan([c for c in self.hands[me] if c != card])
        spread = SPREAD * math.sqrt(len(self.hands[me]))
        total = 0.0
        for sample in samples:
            plays = [card if s == me else c for s, c in enumerate(sample)]
            succeeded = rules.reveal(self.state, plays).succeeded
            finals = [b + plays[s] if s in succeeded else b for s, b in enumerate(base)]
            mine = finals.pop(me)
            total += 1 / (1 + math.exp((max(finals) - mine) / spread))
        return total / len(samples)

    # --- the rounds after it -------------------------------------------------------------------------------

    def matched(self, boss: int, card: int) -> float:
        """The chance someone matches the Boss's `card` in a given later round (each seat plays at random)."""
        unmatched = 1.0
        for s, hand in enumerate(self.hands):
            if s != boss and card in hand:
                unmatched *= 1 - 1 / len(hand)
        return 1 - unmatched

    def plan(self, kept: list[int]) -> float:
        """What my kept gangsters may score in the later rounds: the ones worth most as a Boss (kept for the
        rounds I hold the token, succeeding unless matched) and the rest sent when others are Boss."""
        if not kept:
            return 0.0
        boss_rounds = sum(1 for b in self.later_bosses if b == self.me)
        others = [b for b in self.later_bosses if b != self.me]
        worth = []
        for card in kept:
            as_boss = card * (1 - self.matched(self.me, card))
            as_other = card * sum(self.reach[b][card] for b in others) / len(others) if others else 0.0
            worth.append((as_boss - as_other, as_boss, as_other))
        worth.sort(reverse=True)
        return sum(as_boss if i < boss_rounds else as_other for i, (_, as_boss, as_other) in enumerate(worth))

    def _later_at_random(self, seat: int) -> float:
        """What `seat` may still score in the later rounds playing at random (my own Boss gangsters: my
        highest ones)."""
        hand = self.hands[seat]
        mine = sorted(self.hands[self.me], reverse=True)
        my_bars = mine[: max(1, sum(1 for b in self.later_bosses if b == self.me))]
        total = 0.0
        for boss in self.later_bosses:
            if boss == seat:
                total += sum(c * (1 - self.matched(seat, c)) for c in hand) / len(hand)
            else:
                bars = my_bars if boss == self.me else self.hands[boss]
                total += sum(c for bar in bars for c in hand if c <= bar) / (len(hand) * len(bars))
        return total

    # --- the last two rounds -------------------------------------------------------------------------------

    def last_two(self, card: int) -> float:
        """With two rounds left: my exact chance of winning (a shared victory counts) if I play `card` now and
        my other gangster last, over every choice the opponents may make; the lead breaks ties."""
        me = self.me
        choices = [[card] if s == me else hand for s, hand in enumerate(self.hands)]
        total = 0.0
        count = 0
        for plays in itertools.product(*choices):
            state = evolve(self.state, rules.reveal(self.state, list(plays)))
            state = evolve(state, BossPassed(seat=(self.boss + 1) % self.n))
            state = evolve(state, rules.reveal(state, [hand[0] for hand in state.hands]))
            result = rules.result(state)
            lead = result.scores[me] - max(score for s, score in enumerate(result.scores) if s != me)
            total += (me in result.winners) + LEAD_TIE_BREAK * lead
            count += 1
        return total / count
