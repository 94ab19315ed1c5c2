"""The `smart` bot of Mobsters: a greedy plan of the turn, each mobster's one action given to the job worth most,
and cards held back at times so that what it does not play tells little of its hand.

It decides from its seat's view alone (what the API shows that seat): its own hand and money, and the public
table (every seat's money, hand count, mobsters with their operations, Law cards and deeds, the deck's size, the
discard pile, the phase and turn). Nothing hidden is read: not the deck, not another seat's hand.

Money is the score, so every choice is priced in dollars:
- The rest of the game: the turns left are the deck's size over the cards a turn draws (the draws seen so far,
  extra cards included); a seat's collections to come follow from the turn order. An operation earns its income
  (the holder's bonus included) at each of its owner's collections to come, less a share for the risk of hits,
  Destroy cards and the Law.
- Opponents: each is weighed by how much it threatens me (its money plus the income it may still collect): the
  strongest opponent in full, the weaker ones less, since what I take from one helps only against that one.
- The turn plan: every mobster with its action is given one job of the turn's phases still to come (a Hit or a
  Destroy card, a crime, a petty crime, doubling its best income, attaching an operation from hand or moving one
  to a mobster that earns more on it or is free of the Law, a bribe), greedily by value (a tie by the cards'
  and mobsters' names) and then improved by swapping jobs between two mobsters (so Fingers keeps the
  Safecracking). The moves that spend no action: charges on the strongest opponent, recruits, arrests of the
  opponents' best earners, escapes for my best earners.
- Extra cards: bought with a mobster that has nothing better to do, when the cards still unseen are worth more
  on average than their price; and, near the end, to draw the last card while I am the richest (the game ends
  at once). Never to draw the last card while behind.
- Discards: the card worth least to me. A dead mobster's operations go to the mobster that earns most on them,
  free of the Law, spreading them so more can be doubled.

What a phase does not play must not tell what the hand lacks: a bot that plays every mobster it holds tells, by
ending its recruit phase, that it holds none. So each phase plays its kinds of cards from hand in an order
(`STAGES`: Hit then Destroy cards; crimes; Costs of Doing Business; mobsters; Law then Escape Law cards), each as
if the later kinds were not in hand, and each time it would play one it holds that kind back instead with the
chance `HOLD_BACK`: it goes on as it would without cards of that kind, to the phase's end mostly. The moves that
play none of them come first where they are the same with the cards or without (attaching operations, in the
Recruit phase), and after them where the same mobsters may do either (a crime or a petty crime) or the cards
change them (a double, a bribe); once such a move is made (its deed shows) the cards stay held back. So whatever
a phase's course, it is at most 1 / HOLD_BACK times likelier from a hand without a kind of card than from one
holding it.

The setup decision is secret: a hand dealt with no mobster is redealt with the chance `games.mixing.LOW_EDGE /
2` (0.65) and kept otherwise, so keeping proves no mobster. The plan draws nothing at random; the generator
serves those draws.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from games import mixing
from games.mobsters.cards import CARDS, DECK, PETTY_CRIMES, Kind, bonus, earnings
from games.mobsters.state import BRIBE_PRICE, DRAWS, EXTRA_CARD_PRICE, HAND

PHASES = ("draw", "hit", "crime", "collection", "recruit", "law")
PETTY_EV = sum(amount for _, amount in PETTY_CRIMES.values()) / len(PETTY_CRIMES)
"""What a petty crime earns on average."""
KILL_CHANCE = 0.5
"""A hit kills on 4-6."""
HELD = 0.75
"""The share of an operation's income to come that survives hits, Destroy cards and the Law."""
ACTION_MINE = 150
"""What one of my mobsters' actions is worth a turn, beyond its income (a petty crime, a double, a crime)."""
ACTION_THEIRS = 150
"""What an opponent's mobster's action is worth to it a turn, beyond its income."""
ARRESTED_TURNS = 0.6
"""The share of its owner's turns to come a Law card keeps a mobster down (until escaped or bribed)."""
STACKED = 0.15
"""What a second Law card on an arrested mobster is worth, relative to the first (it holds against an escape)."""
UNDER_LAW = 0.3
"""What an operation of a mobster under Law is worth to its owner, relative to a free one (it may be freed)."""
REASSIGNED_LOSS = 0.15
"""The share of a killed mobster's income its owner loses even with other mobsters to take its operations."""
BUY_MARGIN = 400
"""How much more than its price an extra card must be worth on average."""
MIN_WEIGHT = 0.3
"""The weight of the weakest opponent, relative to the strongest."""
WEIGHT_SPREAD = 4000
"""How far behind the strongest opponent (in projected dollars) an opponent's weight falls to the least."""
PRIOR_TURNS, PRIOR_RATE = 2, 2.5
"""The prior on the cards a turn draws: as if `PRIOR_TURNS` turns had drawn `PRIOR_RATE` cards each."""
KEEP_MOBSTER = 100_000
"""A mobster in hand is never discarded while another card may go."""
KEEP_FOR_BONUS = 0.8
"""The chance a crime kept for a mobster with a bonus on it is still committed by that mobster later."""
HOLD_BACK = 0.35
"""The chance that I hold back the cards of a kind I would play now and go on as if I held none: whoever sees me
go on so (to the phase's end, mostly) finds it at most 1 / HOLD_BACK times likelier that I hold none."""
STAGES: dict[str, tuple[frozenset[Kind], ...]] = {
    "hit": (frozenset({Kind.HIT}), frozenset({Kind.DESTROY})),
    "crime": (frozenset({Kind.MAJOR_CRIME, Kind.ARMED_ROBBERY}),),
    "collection": (frozenset({Kind.COST}),),
    "recruit": (frozenset({Kind.MOBSTER}),),
    "law": (frozenset({Kind.LAW}), frozenset({Kind.ESCAPE})),
}
"""The kinds of cards from hand each phase plays, in the order it plays them, each held back at times."""
PLAIN_FIRST = {"hit", "recruit"}
"""The phases whose moves that play none of those cards come first: they are the same with the cards or without.
In the others the same mobster may do either (a crime or a petty crime) or what it does depends on the cards (a
bribe, or an escape), so the cards come first, and a move that plays none shows that they are done."""
PLAIN_DEED = {"crime": "petty_crime", "collection": "double_income"}
"""The deed of a move that plays no card, in the phases whose cards come first (the law phase's is a bribe)."""
END_PHASE: dict[str, Any] = {"type": "end_phase"}


@dataclass
class Member:
    """A mobster in play, as the view shows it."""

    card: str
    seat: int
    ops: list[str]
    law: list[str]
    has_action: bool
    deed: str | None = None

    @property
    def free(self) -> bool:
        return not self.law

    def income(self) -> int:
        """What it collects each of its owner's Collection phases, free of the Law."""
        return sum(earnings(self.card, op) for op in self.ops)


@dataclass
class Job:
    """Something one mobster may do with its action this turn: `options[mobster] = (value, move)`."""

    resource: str
    phase: str
    options: dict[str, tuple[float, dict[str, Any]]] = field(default_factory=dict)


class Seen:
    """What the seat's view tells: my hand and money, every crew, the turns left and who threatens me."""

    def __init__(self, view: dict[str, Any]) -> None:
        you, state = view["you"], view["state"]
        self.me: int = you["seat"]
        self.hand: list[str] = list(you["hand"])
        seats = state["seats"]
        self.n = len(seats)
        self.phase: str = state["phase"]
        self.turn: int = state["turn"]
        self.active: int = state["active_seat"]
        self.deck: int = state["deck_count"]
        self.discard: list[str] = list(state["discard"])
        self.money: list[int] = [s["money"] for s in seats]
        self.crews: list[list[Member]] = [
            [
                Member(
                    m["card"],
                    s,
                    list(m["operations"]),
                    list(m["law"]),
                    bool(m["has_action"]),
                    m["deed"]["action"] if m.get("deed") else None,
                )
                for m in seat["mobsters"]
            ]
            for s, seat in enumerate(seats)
        ]
        self.rate = self._rate()
        self.future = [self._collections(s) for s in range(self.n)]
        self.projected = [
            self.money[s] + sum(m.income() for m in self.crews[s] if m.free) * self.future[s] for s in range(self.n)
        ]
        self.weight = self._weights()

    # --- the game's course -----------------------------------------------------------------------------------

    def _rate(self) -> float:
        """Cards drawn per turn so far (redeals included, which only makes me a little more hasty)."""
        dealt = len(DECK) - HAND * self.n
        drawn = max(0, dealt - self.deck) if self.turn else 0
        return max(float(DRAWS), (drawn + PRIOR_TURNS * PRIOR_RATE) / (self.turn + PRIOR_TURNS))

    def _collections(self, seat: int) -> float:
        """The Collection phases `seat` may still have after the current turn: turn k from now happens in full
        while the deck outlasts its draw (softened into a fraction near the end)."""
        turns_left = self.deck / self.rate - 0.5
        first = (seat - self.active) % self.n or self.n
        total, k = 0.0, first
        while k <= turns_left + 1:
            total += min(1.0, max(0.0, turns_left - k + 1))
            k += self.n
        return total

    def _weights(self) -> list[float]:
        """How much hurting each opponent helps me: the strongest in full, the others less."""
        rivals = [s for s in range(self.n) if s != self.me]
        top = max(self.projected[s] for s in rivals)
        return [
            0.0 if s == self.me else max(MIN_WEIGHT, 1 - (1 - MIN_WEIGHT) * (top - self.projected[s]) / WEIGHT_SPREAD)
            for s in range(self.n)
        ]

    def strongest_rival(self) -> int:
        return max((s for s in range(self.n) if s != self.me), key=lambda s: (self.projected[s], self.money[s], -s))

    # --- what things are worth -------------------------------------------------------------------------------

    @property
    def mine(self) -> list[Member]:
        return self.crews[self.me]

    def rivals(self) -> list[Member]:
        return [m for s, crew in enumerate(self.crews) if s != self.me for m in crew]

    def member(self, card: str) -> Member | None:
        return next((m for crew in self.crews for m in crew if m.card == card), None)

    def holder(self, op: str) -> Member | None:
        return next((m for crew in self.crews for m in crew if op in m.ops), None)

    def freeing_worth(self, member: Member) -> float:
        """What freeing one of my mobsters of the Law is worth: its income and its action, turns to come."""
        return (member.income() + ACTION_MINE) * self.future[self.me]

    def arrest_worth(self, target: Member) -> float:
        """What a Law card on an opponent's mobster costs its owner, weighed by how much it threatens me."""
        worth = (target.income() + ACTION_THEIRS) * self.future[target.seat] * ARRESTED_TURNS
        return self.weight[target.seat] * worth * (STACKED if target.law else 1.0)

    def hit_worth(self, target: Member) -> float:
        """What a hit on an opponent's mobster is worth: the chance of a kill times what the kill costs its owner."""
        crew = self.crews[target.seat]
        others_free = any(m.free for m in crew if m is not target)
        turns = self.future[target.seat]
        if target.law:
            # its operations pay nothing now; a kill would hand them to a free mobster, unless it is the last one
            loss = 0.0 if len(crew) > 1 else target.income() * turns * UNDER_LAW
        elif not others_free:
            loss = (target.income() + ACTION_THEIRS) * turns
        else:
            bonus_part = sum(bonus(target.card, op) for op in target.ops)
            loss = (ACTION_THEIRS + bonus_part + REASSIGNED_LOSS * target.income()) * turns
        return KILL_CHANCE * self.weight[target.seat] * loss

    def destroy_worth(self, op: str) -> float:
        holder = self.holder(op)
        if holder is None:
            return 0.0
        worth = earnings(holder.card, op) * self.future[holder.seat] * (1.0 if holder.free else UNDER_LAW)
        return self.weight[holder.seat] * worth

    def best_earning(self, op: str) -> int:
        """What an operation earns with the best of my mobsters (in play or in hand) holding it."""
        mobsters = [m.card for m in self.mine] + [c for c in self.hand if CARDS[c].kind is Kind.MOBSTER]
        return max((earnings(m, op) for m in mobsters), default=CARDS[op].amount)

    def card_worth(self, card: str) -> float:
        """What a card in my hand (or one to come) is worth to me, roughly."""
        kind = CARDS[card].kind
        mine = self.future[self.me]
        if kind is Kind.MOBSTER:  # one more action a turn, worth less the more mobsters I have
            crew = sum(1 for m in self.mine if m.free) + sum(1 for c in self.hand if CARDS[c].kind is Kind.MOBSTER)
            return ACTION_MINE * mine * 2 / (2 + crew)
        if kind in (Kind.MAJOR_CRIME, Kind.ARMED_ROBBERY):
            return float(self.best_earning(card))
        if kind is Kind.OPERATION:
            return self.best_earning(card) * mine * HELD
        if kind is Kind.COST:
            return CARDS[card].amount * self.weight[self.strongest_rival()]
        if kind is Kind.LAW:
            return max((self.arrest_worth(t) for t in self.rivals()), default=0.0)
        if kind is Kind.HIT:
            return max((self.hit_worth(t) for t in self.rivals()), default=0.0)
        if kind is Kind.DESTROY:
            return max((self.destroy_worth(op) for t in self.rivals() for op in t.ops), default=0.0)
        if kind is Kind.ESCAPE:
            return max((self.freeing_worth(m) for m in self.mine if m.law), default=ACTION_MINE)
        return 0.0

    def unseen(self) -> list[str]:
        """The cards I have not seen: in the deck or in another seat's hand."""
        seen = {*self.hand, *self.discard}
        for crew in self.crews:
            for m in crew:
                seen.add(m.card)
                seen.update(m.ops)
                seen.update(m.law)
        return [c for c in DECK if c not in seen]

    def without(self, kinds: frozenset[Kind]) -> Seen:
        """The same view, but for a hand without cards of these kinds."""
        other = copy.copy(self)
        other.hand = [c for c in self.hand if CARDS[c].kind not in kinds]
        return other


# --- the turn plan -------------------------------------------------------------------------------------------


def jobs(seen: Seen, phases: tuple[str, ...]) -> list[Job]:
    """Every job my mobsters with an action could take in these phases of my turn."""
    actors = [m for m in seen.mine if m.has_action]
    found: list[Job] = []
    hand = seen.hand

    def card_job(resource: str, phase: str, value_of: Any, move_of: Any) -> None:
        job = Job(resource, phase)
        for m in actors:
            value = value_of(m)
            if value > 0:
                job.options[m.card] = (value, move_of(m))
        if job.options:
            found.append(job)

    if "hit" in phases:
        targets = sorted(seen.rivals(), key=lambda t: -seen.hit_worth(t))
        for card, target in zip([c for c in hand if CARDS[c].kind is Kind.HIT], targets, strict=False):
            worth = seen.hit_worth(target)
            card_job(
                card,
                "hit",
                lambda m, w=worth: w,
                lambda m, c=card, t=target: {"type": "hit", "mobster": m.card, "card": c, "victim": t.card},
            )
        ops = sorted((op for t in seen.rivals() for op in t.ops), key=lambda op: -seen.destroy_worth(op))
        for card, op in zip([c for c in hand if CARDS[c].kind is Kind.DESTROY], ops, strict=False):
            worth = seen.destroy_worth(op)
            card_job(
                card,
                "hit",
                lambda m, w=worth: w,
                lambda m, c=card, o=op: {"type": "destroy", "mobster": m.card, "card": c, "operation": o},
            )
    if "crime" in phases:
        for card in hand:
            if CARDS[card].kind in (Kind.MAJOR_CRIME, Kind.ARMED_ROBBERY):
                waiting = _bonus_to_come(seen, card)
                card_job(
                    card,
                    "crime",
                    lambda m, c=card, w=waiting: _crime_worth(m.card, c, w),
                    lambda m, c=card: {"type": "commit_crime", "mobster": m.card, "card": c},
                )
        for m in actors:
            if not m.ops:
                found.append(
                    Job(f"petty:{m.card}", "crime", {m.card: (PETTY_EV, {"type": "petty_crime", "mobster": m.card})})
                )
    if "collection" in phases:
        for m in actors:
            if m.ops:
                op = max(m.ops, key=lambda o: (earnings(m.card, o), o))
                move = {"type": "double_income", "mobster": m.card, "operation": op}
                found.append(Job(f"double:{m.card}", "collection", {m.card: (float(earnings(m.card, op)), move)}))
    if "recruit" in phases:
        found += _attach_jobs(seen, actors)
    if "law" in phases and seen.money[seen.me] >= BRIBE_PRICE:
        for held in seen.mine:
            if len(held.law) == 1:
                worth = seen.freeing_worth(held) * HELD - BRIBE_PRICE
                card_job(
                    held.law[0],
                    "law",
                    lambda m, w=worth, h=held: w if m is not h else 0,
                    lambda m, h=held: {"type": "bribe", "mobster": m.card, "law": h.law[0]},
                )
    return found


def _crime_worth(mobster: str, crime: str, waiting: int) -> float:
    """A crime's takings now, or, when one of my mobsters that cannot act now would earn `waiting` more on it next
    turn, what committing it now gains over keeping it: my other mobster's action later, less the bonus."""
    now = earnings(mobster, crime)
    if waiting <= bonus(mobster, crime):
        return float(now)
    return (1 - KEEP_FOR_BONUS) * now + ACTION_MINE - KEEP_FOR_BONUS * (waiting - bonus(mobster, crime))


def _bonus_to_come(seen: Seen, crime: str) -> int:
    """The bonus a crime would earn with one of my mobsters that cannot act now but may next turn (in hand, or
    in play with its action spent), if the game lasts."""
    if seen.future[seen.me] < 1:
        return 0
    later = [c for c in seen.hand if CARDS[c].kind is Kind.MOBSTER] + [
        m.card for m in seen.mine if not m.has_action and m.free
    ]
    return max((bonus(m, crime) for m in later), default=0)


def _freed_this_turn(seen: Seen) -> set[str]:
    """My mobsters the Escape Law cards in hand will free in this turn's Law phase (the best first)."""
    escapes = sum(1 for c in seen.hand if CARDS[c].kind is Kind.ESCAPE)
    freed: set[str] = set()
    for m in sorted((m for m in seen.mine if m.law), key=lambda m: (len(m.law), -seen.freeing_worth(m), m.card)):
        if len(m.law) <= escapes:
            escapes -= len(m.law)
            freed.add(m.card)
    return freed


def _attach_jobs(seen: Seen, actors: list[Member]) -> list[Job]:
    """Operations from hand, and operations moved to a mobster that earns more on them or is free of the Law."""
    turns = seen.future[seen.me]
    if turns <= 0:
        return []
    freed = _freed_this_turn(seen)
    found: list[Job] = []
    for op in (c for c in seen.hand if CARDS[c].kind is Kind.OPERATION):
        options = {
            m.card: (earnings(m.card, op) * turns * HELD, {"type": "attach", "mobster": m.card, "operation": op})
            for m in actors
        }
        if options:
            found.append(Job(op, "recruit", options))
    for holder in seen.mine:
        paying = holder.free or holder.card in freed
        for op in holder.ops:
            now = earnings(holder.card, op) if paying else 0
            options = {}
            for m in actors:
                gain = (earnings(m.card, op) - now) * turns * HELD
                if m is not holder and gain > 0:
                    options[m.card] = (gain, {"type": "attach", "mobster": m.card, "operation": op})
            if options:
                found.append(Job(op, "recruit", options))
    return found


def plan(seen: Seen, phases: tuple[str, ...]) -> dict[str, tuple[float, str, dict[str, Any]]]:
    """Each mobster's job for the rest of the turn, `plan[mobster] = (value, phase, move)`: greedily the most
    valuable first (a tie by the names of the card and the mobster), then improved by moving a mobster to a free
    job or swapping two mobsters' jobs."""
    found = jobs(seen, phases)
    pairs = sorted(
        ((value, i, m) for i, job in enumerate(found) for m, (value, _) in job.options.items()),
        key=lambda p: (-p[0], found[p[1]].resource, p[2]),
    )
    given: dict[str, int] = {}
    taken: set[int] = set()
    for _, i, m in pairs:
        if m not in given and i not in taken:
            given[m] = i
            taken.add(i)

    def worth(m: str, i: int | None) -> float:
        if i is None:
            return 0.0
        option = found[i].options.get(m)
        return option[0] if option else float("-inf")

    for _ in range(8):
        improved = False
        members = sorted(given)
        for a in range(len(members)):
            for b in range(a + 1, len(members)):
                ma, mb = members[a], members[b]
                ia, ib = given[ma], given[mb]
                if worth(ma, ib) + worth(mb, ia) > worth(ma, ia) + worth(mb, ib) + 1e-9:
                    given[ma], given[mb] = ib, ia
                    improved = True
        for m in members:
            for i, job in enumerate(found):
                if i not in taken and m in job.options and worth(m, i) > worth(m, given[m]) + 1e-9:
                    taken.discard(given[m])
                    given[m] = i
                    taken.add(i)
                    improved = True
        if not improved:
            break
    return {m: (found[i].options[m][0], found[i].phase, found[i].options[m][1]) for m, i in given.items()}


# --- the decision --------------------------------------------------------------------------------------------


def smart_bot(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A move drawn from `smart_policy`; from the seat's view and `rng` only. Always a legal move."""
    return mixing.play(smart_policy, view, rng)


def smart_policy(view: dict[str, Any], rng: random.Random) -> mixing.Mixed:
    """Each move the plan of the turn may make now, with its chance."""
    legal: list[dict[str, Any]] = view["you"]["legal_moves"]
    if len(legal) == 1:
        return mixing.certain(legal[0])
    types = {m["type"] for m in legal}
    seen = Seen(view)
    if "redeal" in types:
        return _setup(legal)
    if "reassign" in types:
        return mixing.certain(_reassign(seen, legal))
    if "discard" in types:
        return mixing.certain(_discard(seen, legal))
    if seen.phase == "draw":
        return mixing.certain(_legal(_draw(seen), legal))
    if seen.phase not in STAGES:
        return mixing.certain(_legal(END_PHASE, legal))
    return _turn_policy(seen, legal)


def _legal(wanted: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The wanted move; never expected otherwise: a plan the rules refuse, for which ending the phase is safe."""
    if wanted in legal:
        return wanted
    return next((m for m in legal if m == END_PHASE), legal[0])


def _setup(legal: list[dict[str, Any]]) -> mixing.Mixed:
    """A hand with no mobster is mostly redealt, but kept often enough that keeping proves no mobster."""
    worth = [1.0 if move["type"] == "redeal" else 0.0 for move in legal]
    return mixing.mixed(legal, mixing.preferring(worth))


def _turn_policy(seen: Seen, legal: list[dict[str, Any]]) -> mixing.Mixed:
    """The phase's next move, its cards held back at times: instead of the next card of a kind I would play, with
    a chance `HOLD_BACK`, I go on as I would without cards of that kind (`Seen.without`), to the phase's end
    mostly. So at every move a hand without cards of a kind and a hand holding them back look alike: the kinds
    are played in their order (`STAGES`), each as if the later ones were not in hand."""
    stages = STAGES[seen.phase]
    if seen.phase in PLAIN_FIRST:
        plain = _planned_now(seen.without(frozenset().union(*stages)))
        if plain:
            return mixing.certain(_legal(plain[0], legal))
    for i, kinds in enumerate(stages):
        if not any(CARDS[c].kind in kinds for c in seen.hand):
            continue
        card = (
            None if _stage_over(seen, kinds) else _card_move(seen.without(frozenset().union(*stages[i + 1 :])), kinds)
        )
        without = _turn_policy(seen.without(kinds), legal)
        if card is None:
            return without
        return mixing.blend((mixing.certain(_legal(card, legal)), 1 - HOLD_BACK), (without, HOLD_BACK))
    return mixing.certain(_legal(next(iter(_planned_now(seen)), END_PHASE), legal))


def _stage_over(seen: Seen, kinds: frozenset[Kind]) -> bool:
    """Whether this phase has gone past its cards of these kinds, as the table shows: a move that plays none was
    made where the cards come first (its deed: a petty crime, a double, a bribe), or a card of a later kind was
    played (a Destroy card's deed; an Escape Law card, which tops the discard pile with the Law card it removed:
    another seat's escape left there looks the same, and then my Law cards wait a turn)."""
    deeds = {m.deed for m in seen.mine if m.deed}
    if seen.phase == "hit":
        return Kind.HIT in kinds and "destroy" in deeds
    if seen.phase == "law":
        escaped = [CARDS[c].kind for c in seen.discard[-2:]] == [Kind.ESCAPE, Kind.LAW]
        return "bribe" in deeds or (Kind.LAW in kinds and escaped)
    return PLAIN_DEED.get(seen.phase) in deeds


def _card_move(seen: Seen, kinds: frozenset[Kind]) -> dict[str, Any] | None:
    """The next card of these kinds I would play: a move that spends no action (recruit, charge, arrest, escape),
    else a job planned for one of my mobsters (a hit, a destroy, a crime)."""
    free = _free_move(seen, kinds)
    if free is not None:
        return free
    for move in _planned_now(seen):
        card = move.get("card")
        if card in seen.hand and CARDS[card].kind in kinds:
            return move
    return None


def _planned_now(seen: Seen) -> list[dict[str, Any]]:
    """The moves the plan of the turn gives my mobsters in this phase, the most valuable first."""
    planned = plan(seen, PHASES[PHASES.index(seen.phase) :])
    now = sorted(((value, m, move) for m, (value, p, move) in planned.items() if p == seen.phase), reverse=True)
    return [move for _, _, move in now]


def _reassign(seen: Seen, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A dead mobster's operation to the mobster that earns most on it, free of the Law; spread out, so that
    more of them may be doubled."""

    def score(move: dict[str, Any]) -> tuple[float, ...]:
        m = seen.member(move["mobster"]) if move["mobster"] else None
        if m is None:
            return (-1.0, 0, 0, 0)
        paying = earnings(m.card, move["operation"])
        best_now = max((earnings(m.card, o) for o in m.ops), default=0)
        return (1.0 if m.free else 0.0, paying, -best_now, -len(m.ops))

    return max(legal, key=lambda mv: (*score(mv), mv["operation"], mv["mobster"] or ""))


def _discard(seen: Seen, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The card worth least to me."""

    def worth(card: str) -> float:
        return KEEP_MOBSTER if CARDS[card].kind is Kind.MOBSTER else seen.card_worth(card)

    return min(legal, key=lambda mv: (worth(mv["cards"][0]), mv["cards"][0]))


def _free_move(seen: Seen, kinds: frozenset[Kind]) -> dict[str, Any] | None:
    """A move that spends no action and plays a card of these kinds: recruit, charge, arrest, escape."""
    hand = seen.hand
    if Kind.MOBSTER in kinds:
        recruits = sorted(c for c in hand if CARDS[c].kind is Kind.MOBSTER)
        if recruits:
            return {"type": "recruit", "card": recruits[0]}
    if Kind.COST in kinds:
        costs = sorted((c for c in hand if CARDS[c].kind is Kind.COST), key=lambda c: (-CARDS[c].amount, c))
        if costs:
            return {"type": "charge", "card": costs[0], "target": seen.strongest_rival()}
    if Kind.ESCAPE in kinds:
        escape = next((c for c in sorted(hand) if CARDS[c].kind is Kind.ESCAPE), None)
        arrested = [m for m in seen.mine if m.law]
        if escape and arrested:
            freed = _freed_this_turn(seen)
            best = max(arrested, key=lambda m: (m.card in freed, seen.freeing_worth(m), -len(m.law), m.card))
            if best.card in freed:  # an escape that frees nobody is kept for a later arrest
                return {"type": "escape", "card": escape, "law": best.law[0]}
    if Kind.LAW in kinds:
        law = next((c for c in sorted(hand) if CARDS[c].kind is Kind.LAW), None)
        targets = seen.rivals()
        if law and targets:
            target = max(targets, key=lambda t: (seen.arrest_worth(t), t.card))
            return {"type": "arrest", "card": law, "mobster": target.card}
    return None


def _draw(seen: Seen) -> dict[str, Any]:
    """Buy an extra card with an idle mobster when it pays, or to draw the last card while I am the richest."""
    me = seen.me
    buyers = [m for m in seen.mine if m.has_action]
    money = seen.money[me]
    if not buyers or money < EXTRA_CARD_PRICE:
        return {"type": "end_phase"}
    best_rival = max(seen.money[s] for s in range(seen.n) if s != me)
    buyer = min(buyers, key=lambda m: (len(m.ops), m.card))
    last_cards = EXTRA_CARD_PRICE * seen.deck
    if seen.deck <= len(buyers) and money >= last_cards and money - last_cards > best_rival:
        return {"type": "draw_extra", "mobster": buyer.card}  # the game ends on the last card, me the richest
    if seen.deck <= 1:
        return {"type": "end_phase"}  # never end the game while behind
    planned = plan(seen, PHASES[1:])
    spared = {m.card: planned[m.card][0] if m.card in planned else 0.0 for m in buyers}
    buyer = min(buyers, key=lambda m: (spared[m.card], m.card))
    unseen = seen.unseen()
    if not unseen:
        return {"type": "end_phase"}
    mean = sum(seen.card_worth(c) for c in unseen) / len(unseen)
    if mean - spared[buyer.card] > EXTRA_CARD_PRICE + BUY_MARGIN:
        return {"type": "draw_extra", "mobster": buyer.card}
    return {"type": "end_phase"}
