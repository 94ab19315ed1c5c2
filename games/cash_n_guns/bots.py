"""The `smart` bot of Ca$h 'n Guns: a chance of winning read from the seat's view, weighed where it is hidden, and
its hidden choices drawn from mixed strategies over those estimates.

It decides from its seat's view alone (what the API shows that seat): its own bullet cards, loaded card,
wounds and loot, and the public state (turn, Godfather, table loot, the token, each seat's health and loot
count, the aims once shown). The others' loot is hidden, so a rival's wealth is its loot count at
`RIVAL_CARD` a card; the others' hidden choices are guesses: a loaded card is a Bang! with `P_BANG`, a seat
stands with `P_STAND`. The generator serves the samples and the draws of the mixed strategies.

- Chance of winning: a logistic of my lead over the richest living rival at the end (my loot and my share of
  the loot to come, less when wounded; its loot and its share), the spread narrowing as the piles run out;
  plus the lead itself at `MARGIN_WEIGHT` a spread, which decides when the chance hardly moves (I look far
  ahead of random seats from the first turn). The dead cannot win; a lone
  survivor wins outright. The share and spread were fitted on positions of smart-against-random games.
- Worth of a loot card to me: a banknote its face; a painting what it adds to my set, counting the paintings
  I may still take; a diamond its face and its share of the $60,000 bonus (sampled: where the unseen diamonds
  lie, and who takes those to come); a clip a Bang! card I may still fire; a first-aid kit a wound healed.
- Load: a Bang! never hurts its shooter, so the question is when to spend the few: on a rich table, with a
  kill in sight, or when the turns run out; a Click on two wounds. That is a preference, not a worth, so the
  bullet so preferred is loaded with the chance `games.mixing.LOW_EDGE / 2` (0.65), the other one otherwise.
- Aim: by what a wound of each rival is worth to me (its share of the table, more for the richest by loot
  count, most for one a Bang! would kill: its loot leaves with it, one fewer sharer), mixed at `AIM_PRICE`
  dollars: a kill in sight is mostly aimed at, a choice between like rivals spread out. The aim is shown
  before the courage and does not depend on the loaded card, so it tells nothing of the bullet. A retarget,
  which the table sees as it is made, goes to the best target.
- Privilege: order a seat aiming at me to aim elsewhere (it may not aim at me again); else skip, since an
  ordered seat may turn its gun on me.
- Courage: weigh the others' bullets and courage (every combination, each with its chance, when at most four
  others live; else samples) and compare my chance of winning standing (the wounds and deaths, then the
  sharing played out: me greedy on my worth, the others on face value) with lying down (the others share
  without me). The better one is chosen with the chance `games.mixing.CEILING` (0.9) where it is worth more
  than `COURAGE_PRICE` by that utility; a closer call is a coin toss.
- Take: the card worth most to me, or the New Godfather token (the first pick and the privilege next turn)
  when it costs me little: no card at all when my picks this turn do not shrink, and a turn is still to come.

Whoever runs this code on what the table shows is right, over a game's loads, aims or courages, about 1.3 to
1.4 times as often as a blind guess, and never more than 9 times in 10 in one decision. Unpredictability
costs: a coin toss over about half of the courages (those the estimates call close) gives random seats many
more wins than the pure strategy did (see the README's tables).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from typing import Any

from games import mixing
from games.cash_n_guns.loot import (
    DIAMOND_BONUS,
    DIAMONDS,
    PAINTING_VALUES,
    PAINTINGS,
    PILE_SIZE,
    face_value,
    kind,
)

P_BANG = 0.45
"""The chance another seat's loaded card is a Bang!."""
P_STAND = 0.55
"""The chance another seat stands."""
SAMPLES = 64
"""Sampled outcomes of the others' hidden choices per courage decision, when they are too many to weigh each."""
HIDDEN_COURAGE = ((1 - P_STAND, False, False), (P_STAND * (1 - P_BANG), True, False), (P_STAND * P_BANG, True, True))
"""What another seat may do, as (chance, stands, fires a Bang!)."""
BONUS_SAMPLES = 96
"""Sampled whereabouts of the diamonds when a diamond may be taken."""
DEAD_AT = 3
DIAMOND_CARDS = sum(DIAMONDS.values())
MEAN_CARD = 11000
"""What a loot card to come is worth to me, on average."""
RIVAL_CARD = 7500
"""What a card another seat holds is worth to it, on average."""
FAIR_SHARE, SHARE_PRIOR = 2.0, 48
"""My share of the loot to come: `FAIR_SHARE` over the living seats (I stand whenever no gun is on me), weighing
as much as `SHARE_PRIOR` cards against the share I took so far."""
HEALTH = (1.0, 0.85, 0.6)
"""The part of my share of the loot to come I may expect to take, by wounds."""
SPREAD, SPREAD_PER_PILE = 20000, 10000
"""The logistic spread of a rival's final score around my estimate: at the end, and growing with the piles left."""
MARGIN_WEIGHT, MAX_LEAD = 0.05, 20
"""The weight of the lead (in spreads, up to `MAX_LEAD`) next to the chance of winning: so that a courage that costs
loot is not a coin toss just because the chance of winning looks safe."""
BANG_URGE = 1.35
"""How pressing a Bang! must be to load it: the table's richness in piles, a kill, my Bang!s per turn left."""
TOKEN_WORTH, TOKEN_PER_WOUND = 30000, 10000
"""Being Godfather next turn: the first pick, and a gun turned away (worth more the more wounded I am)."""
SITTING_GODFATHER = 0.5
"""The part of the token's worth to the sitting Godfather, who keeps the desk if nobody takes it."""
DIAMOND_SHARE = 8000
"""A diamond's share of the bonus, when the sharing is only foreseen."""
LAST_RIVAL = 30000
"""Killing the last rival: I win outright."""
CLIP_WORTH = 5000
HEAL_WORTH = (0, 9000, 30000)
"""A first-aid kit, by my wounds."""
AIM_PRICE = 65000
"""What an aim foreseen for sure costs, in dollars of the wound's worth (see `games.mixing.strategy`)."""
COURAGE_EXACT = 81
"""The most combinations of the others' courage and bullets weighed one by one rather than sampled."""
COURAGE_PRICE = 0.18
"""What a courage foreseen for sure costs, in the utility's units (see `games.mixing.strategy`). This price and
`AIM_PRICE` are set so that a predictor's rate over a game's courages and aims lands under 1.4 times a blind
guess's (the README has the frontier)."""


def smart_bot(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A move drawn from `smart_policy`; from the seat's view and `rng` only."""
    return mixing.play(smart_policy, view, rng)


def smart_policy(view: dict[str, Any], rng: random.Random) -> mixing.Mixed:
    """Each legal move with the chance it is made: mixed where the choice is hidden (load, aim, courage), the
    best by the estimates above where the table sees it made."""
    legal: list[dict[str, Any]] = view["you"]["legal_moves"]
    if len(legal) <= 1:
        return mixing.certain(legal[0])
    seen = Seen(view)
    match legal[0]["type"]:
        case "load":
            return seen.load(legal)
        case "aim":
            return seen.aim(legal)
        case "retarget":
            return seen.retarget(legal)
        case "order_retarget" | "skip_privilege":
            return seen.privilege(legal)
        case "courage":
            return seen.courage(legal, rng)
        case "take":
            return mixing.certain(seen.take(legal, rng))
    return mixing.certain(legal[0])


def generic_worth(card: str) -> float:
    """What a card looks worth to anyone: the others are assumed to take the dearest first."""
    match kind(card):
        case "cash":
            return face_value(card)
        case "diamond":
            return face_value(card) + 6000
        case "painting":
            return 12000
    return 3000


class Seen:
    """What a seat's view tells: its own cards and loot, and every seat's public state."""

    def __init__(self, view: dict[str, Any]) -> None:
        state = view["state"]
        you = view["you"]
        self.me: int = you["seat"]
        self.seats: list[dict[str, Any]] = state["seats"]
        self.n = len(self.seats)
        self.turn: int = state["turn"]
        self.turns: int = state["turns"]
        self.godfather: int = state["godfather"]
        self.table: list[str] = list(state["table_loot"])
        self.piles_left: int = state["piles_left"]
        self.lost: list[str] = state["lost_loot"]
        self.bangs: int = you["bang_cards"]
        self.clicks: int = you["click_cards"]
        self.loaded: str | None = you["loaded_card"]
        self.loot: list[str] = you["loot"]
        self.worth_now: int = you["loot_value"]
        self.wounds: int = self.seats[self.me]["wounds"]
        self.alive = [s for s in range(self.n) if self.seats[s]["alive"]]
        self.others = [s for s in self.alive if s != self.me]
        self.paintings = sum(kind(c) == "painting" for c in self.loot)
        self.diamonds = sum(kind(c) == "diamond" for c in self.loot)
        self._painting_worth: dict[int, float] = {}
        self._shared: dict[tuple[int, ...], dict[int, float]] = {}
        self._share: float | None = None

    # --- what the game is worth to me --------------------------------------------------------------------------

    def share(self) -> float:
        """The part of the loot still to come I may expect to take: more than an even share at first, then
        more and more the part I took so far (every seat's loot count is public)."""
        if self._share is None:
            prior = min(1.0, FAIR_SHARE / max(1, len(self.alive)))
            taken: int = sum(self.seats[s]["loot_count"] for s in self.alive)
            self._share = (len(self.loot) + SHARE_PRIOR * prior) / (taken + SHARE_PRIOR)
        return self._share

    def future(self) -> float:
        """What I may still take after this turn, unhurt."""
        return self.piles_left * PILE_SIZE * MEAN_CARD * self.share()

    def rival_future(self) -> float:
        """What each rival may still take after this turn."""
        return self.piles_left * PILE_SIZE * RIVAL_CARD * (1 - self.share()) / max(1, len(self.others))

    def utility(self, mine: float, wounds: int, rivals: dict[int, float]) -> float:
        """My chance of winning, with `mine` in hand and `wounds`, against the richest living rival; plus a little
        for the lead itself, which decides when the chance hardly moves. The dead hold nothing and cannot win."""
        dead = wounds >= DEAD_AT
        if not rivals:
            return 0.0 if dead else 1.0 + MARGIN_WEIGHT * MAX_LEAD  # a lone survivor wins outright
        final = 0.0 if dead else mine + self.future() * HEALTH[wounds]
        spread = SPREAD + SPREAD_PER_PILE * math.sqrt(self.piles_left)
        lead = max(-MAX_LEAD, min(MAX_LEAD, (final - max(rivals.values()) - self.rival_future()) / spread))
        chance = 0.0 if dead else 1 / (1 + math.exp(-lead))
        return chance + MARGIN_WEIGHT * lead

    def rivals(self) -> dict[int, float]:
        """Each living rival's estimated loot: its loot count at the mean worth of a card."""
        return {s: self.seats[s]["loot_count"] * RIVAL_CARD for s in self.others}

    # --- the worth of a card to me -----------------------------------------------------------------------------

    def unseen(self, card_kind: str, total: int) -> tuple[int, int, int]:
        """Of a kind's cards: how many I have not seen (neither mine, on the table nor lost); how many cards I have
        not seen at all (the others' loot, the dead's included, and the piles to come); and how many of those lie
        in the piles to come."""
        seen = sum(kind(c) == card_kind for c in (*self.loot, *self.table, *self.lost))
        held = sum(self.seats[s]["loot_count"] for s in range(self.n) if s != self.me)
        piles = self.piles_left * PILE_SIZE
        return max(0, total - seen), held + piles, piles

    def painting_worth(self, mine: int) -> float:
        """What one more painting adds to my set of `mine`, counting the paintings I may still take."""
        if mine not in self._painting_worth:
            left, hidden, piles = self.unseen("painting", PAINTINGS)
            coming = left * piles / hidden if hidden else 0.0
            coming += max(0, sum(kind(c) == "painting" for c in self.table) - 1) * 0.5
            count, f = round(coming), self.share()
            total = 0.0
            for x in range(count + 1):
                have = min(PAINTINGS - 1, mine + x)
                odds = math.comb(count, x) * f**x * (1 - f) ** (count - x)
                total += odds * (PAINTING_VALUES[have + 1] - PAINTING_VALUES[have])
            self._painting_worth[mine] = total
        return self._painting_worth[mine]

    def diamond_bonus(self, rng: random.Random) -> float:
        """What one more diamond card adds to my chance of the bonus, in dollars (sampled)."""
        if not self.others:
            return 0.0
        left, hidden, piles = self.unseen("diamond", DIAMOND_CARDS)
        holders = [s for s in range(self.n) if s != self.me]
        weights = [self.seats[s]["loot_count"] for s in holders]
        holders.append(-1)  # the piles to come
        weights.append(piles)
        still_here = max(0, sum(kind(c) == "diamond" for c in self.table) - 1)
        f = self.share()
        gain = 0
        for _ in range(BONUS_SAMPLES):
            counts = dict.fromkeys(self.others, 0)
            mine = self.diamonds
            coming = still_here
            for holder in rng.choices(holders, weights, k=left) if hidden else ():
                if holder == -1:
                    coming += 1
                elif holder in counts:
                    counts[holder] += 1
            for _ in range(coming):
                if rng.random() < f:
                    mine += 1
                else:
                    counts[rng.choice(self.others)] += 1
            best = max(counts.values())
            gain += (mine + 1 > best) - (mine > best and mine > 0)
        return DIAMOND_BONUS * gain / BONUS_SAMPLES

    def worth(self, card: str, paintings: int, bonus: float) -> float:
        """What a card is worth to me, holding `paintings` paintings; `bonus` is a diamond's share of the bonus."""
        match kind(card):
            case "cash":
                return face_value(card)
            case "diamond":
                return face_value(card) + bonus
            case "painting":
                return self.painting_worth(paintings)
            case "clip":
                return CLIP_WORTH if self.bangs < self.turns - self.turn else 0  # a Bang! I may still fire
        return HEAL_WORTH[min(self.wounds, DEAD_AT - 1)]

    # --- guns -------------------------------------------------------------------------------------------------

    def target_of(self, seat: int) -> int | None:
        target: int | None = self.seats[seat]["target"]
        return target

    def hit_value(self, target: int) -> float:
        """What a Bang! hitting `target` (standing) is worth to me: its share of the table, its wound, its death."""
        rivals = self.rivals()
        wounds = self.seats[target]["wounds"]
        value = len(self.table) * MEAN_CARD / max(2, len(self.alive)) + 0.3 * rivals[target]
        if rivals[target] >= max(rivals.values()):
            value += 0.3 * rivals[target]
        if wounds + 1 >= DEAD_AT:  # a death: its loot gone, one fewer to share the loot to come, or the last one
            alive = len(self.alive)
            fewer = self.piles_left * PILE_SIZE * MEAN_CARD * (min(1.0, FAIR_SHARE / (alive - 1)) - FAIR_SHARE / alive)
            value += rivals[target] + fewer + (LAST_RIVAL if alive == 2 else 0)
        else:
            value += 4000 * (wounds + 1)
        return value

    # --- decisions --------------------------------------------------------------------------------------------

    def load(self, legal: list[dict[str, Any]]) -> mixing.Mixed:
        """Mostly the bullet `preferred_load` names, the other one often enough not to be foreseen."""
        preferred = self.preferred_load()
        worth = [1.0 if move["card"] == preferred else 0.0 for move in legal]
        return mixing.mixed(legal, mixing.preferring(worth))

    def preferred_load(self) -> str:
        """A Bang! when it is likely to matter (rich table, a kill in sight), or when the turns run short."""
        turns_left = self.turns - self.turn + 1
        if self.bangs >= turns_left:
            return "bang"
        if self.wounds >= DEAD_AT - 1:
            return "click"  # I lie down whenever a gun is on me
        richness = len(self.table) / PILE_SIZE
        kill = any(self.seats[s]["wounds"] == DEAD_AT - 1 for s in self.others)
        urge = richness + (0.5 if kill else 0.0) + self.bangs / turns_left
        return "bang" if urge >= BANG_URGE else "click"

    def aim(self, legal: list[dict[str, Any]]) -> mixing.Mixed:
        """Mostly at the rivals whose wound would help me most."""
        worth = [self.hit_value(move["target"]) for move in legal]
        return mixing.mixed(legal, mixing.strategy(worth, AIM_PRICE))

    def retarget(self, legal: list[dict[str, Any]]) -> mixing.Mixed:
        """At the rival whose wound would help me most (the table sees it at once): any of them, if several."""
        worth = [self.hit_value(move["target"]) for move in legal]
        return mixing.uniform([move for move, w in zip(legal, worth, strict=True) if w == max(worth)])

    def privilege(self, legal: list[dict[str, Any]]) -> mixing.Mixed:
        """Turn a gun away from me; else let every aim stand."""
        at_me = [m for m in legal if m["type"] == "order_retarget" and self.target_of(m["seat"]) == self.me]
        if at_me:
            return mixing.uniform(at_me)
        return mixing.certain(next(move for move in legal if move["type"] == "skip_privilege"))

    def courage(self, legal: list[dict[str, Any]], rng: random.Random) -> mixing.Mixed:
        """Standing or lying down by my chance of winning either way, weighed: a gun on me may wound me, lying down
        leaves the loot to the others. A clear call is mostly followed, a close one a coin toss."""
        rivals = self.rivals()
        standing = lying = 0.0
        for weight, stands, bangs in self.hidden_courage(rng):
            if self.loaded == "bang":
                bangs[self.me] = True
            standing += weight * self._outcome(rivals, stands | {self.me: True}, bangs)
            lying += weight * self._outcome(rivals, stands | {self.me: False}, bangs)
        worth = [standing if move["stand"] else lying for move in legal]
        return mixing.mixed(legal, mixing.strategy(worth, COURAGE_PRICE))

    def hidden_courage(self, rng: random.Random) -> list[tuple[float, dict[int, bool], dict[int, bool]]]:
        """The others' courage and bullets to weigh, each with its chance: every combination while they are few
        (each seat lies down, or stands with a Click, or with a Bang!), else samples."""
        if 3 ** len(self.others) > COURAGE_EXACT:
            return [
                (
                    1 / SAMPLES,
                    {s: rng.random() < P_STAND for s in self.others},
                    {s: rng.random() < P_BANG for s in self.others},
                )
                for _ in range(SAMPLES)
            ]
        found: list[tuple[float, dict[int, bool], dict[int, bool]]] = []
        for combination in itertools.product(HIDDEN_COURAGE, repeat=len(self.others)):
            stands = {s: stand for s, (_, stand, _) in zip(self.others, combination, strict=True)}
            bangs = {s: bang for s, (_, _, bang) in zip(self.others, combination, strict=True)}
            found.append((math.prod(chance for chance, _, _ in combination), stands, bangs))
        return found

    def _outcome(self, rivals: dict[int, float], stands: dict[int, bool], bangs: dict[int, bool]) -> float:
        """My utility after this turn's bullets and sharing, were the others' choices these."""
        hits = dict.fromkeys(self.alive, 0)
        for s in self.alive:
            target = self.target_of(s)
            if stands[s] and target is not None and stands[target] and bangs.get(s):
                hits[target] += 1
        wounds = self.wounds + hits[self.me]
        standing = [s for s in self.alive if stands[s] and not hits[s]]
        gains = self.sharing(standing)
        after = {s: v + gains.get(s, 0.0) for s, v in rivals.items() if self.seats[s]["wounds"] + hits[s] < DEAD_AT}
        return self.utility(self.worth_now + gains.get(self.me, 0.0), wounds, after)

    def sharing(self, standing: Sequence[int]) -> dict[int, float]:
        """What each seat takes when `standing` share the table, the Godfather's side first: me greedy on my
        worth, the others greedy on face value (each at the worth of a rival's card)."""
        if not standing:
            return {}
        key = tuple(standing)  # a courage weighs dozens of hidden choices, which leave a few sets standing
        if key not in self._shared:
            self._shared[key] = self._share_out(standing)
        return self._shared[key]

    def _share_out(self, standing: Sequence[int]) -> dict[int, float]:
        first = next(s for s in _clockwise(self.godfather, self.n) if s in standing)
        order = [s for s in _clockwise(first, self.n) if s in standing]
        table = sorted(self.table, key=generic_worth, reverse=True)
        paintings = self.paintings
        gains = dict.fromkeys(standing, 0.0)
        turn = 0
        while table:
            seat = order[turn % len(order)]
            turn += 1
            if seat != self.me:
                table.pop(0)
                gains[seat] += RIVAL_CARD
                continue
            values = [self.worth(c, paintings, DIAMOND_SHARE) for c in table]
            best = max(range(len(table)), key=values.__getitem__)
            gains[seat] += values[best]
            paintings += kind(table.pop(best)) == "painting"
        return gains

    def take(self, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
        """The card worth most to me, or the token when it costs me little and a turn is to come."""
        cards = [move for move in legal if move.get("loot")]
        token = next((move for move in legal if move.get("godfather_token")), None)
        bonus = self.diamond_bonus(rng) if any(kind(m["loot"]) == "diamond" for m in cards) else 0.0
        shuffled = rng.sample(cards, len(cards))
        values = {m["loot"]: self.worth(m["loot"], self.paintings, bonus) for m in shuffled}
        best = max(shuffled, key=lambda m: values[m["loot"]])
        if token is None or self.turn >= self.turns:
            return best
        pickers = sum(1 for s in range(self.n) if self.seats[s]["standing"]) or 1
        if pickers == 1:
            cost = 0.0  # every card is mine anyway
        elif len(cards) % pickers == 0:
            cost = values[best["loot"]] - min(values.values())  # no card less, but the others pick first
        else:
            cost = values[best["loot"]]
        worth: float = TOKEN_WORTH + TOKEN_PER_WOUND * self.wounds
        if self.godfather == self.me:
            worth *= SITTING_GODFATHER  # I stay Godfather unless another seat takes it
        return token if worth > cost else best


def _clockwise(seat: int, n: int) -> list[int]:
    return [(seat + k) % n for k in range(n)]
