"""Mobsters as a decider: the opening facts, a seat's move, and every fact that follows from the rules alone.

See `games/mobsters/__init__.py` for the rules and rulings. A move makes its facts; `_followed` then adds every
fact that is due without anyone deciding (the turn's draw, the attendance rolls, the Collection phase's income,
discarding a dead mobster's operations when its seat has no mobster left, the end of the game...) until the game
waits on a seat again or is over. Every die roll and the shuffle come from the `rng` argument and are recorded.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec

from games.base import Event, Move, Result, rank_seats
from games.mobsters import events as ev
from games.mobsters import moves as mv
from games.mobsters.cards import CARDS, DECK, PETTY_CRIMES, bonus, earnings
from games.mobsters.evolve import evolve
from games.mobsters.legality import check
from games.mobsters.state import (
    BRIBE_PRICE,
    DRAWS,
    EXTRA_CARD_PRICE,
    HAND,
    HAND_LIMIT,
    KILLS_FROM,
    NEXT_PHASE,
    Phase,
    Setup,
    State,
    deciding,
    holding,
    incomes,
    located,
    next_seat,
    revealing,
)


def start(state: State, rng: random.Random) -> list[Event]:
    """Shuffle, deal 7 cards to each seat, and choose the first player (named in the options, else drawn)."""
    deck = list(DECK)
    rng.shuffle(deck)
    dealt = [
        ev.CardsDrawn(seat=s, reason="deal", count=HAND, cards=tuple(deck[s * HAND : (s + 1) * HAND]))
        for s in range(state.seats)
    ]
    if state.first_player is not None:
        first = ev.FirstPlayerChosen(seat=state.first_player, drawn=False)
    else:
        first = ev.FirstPlayerChosen(seat=rng.randrange(state.seats), drawn=True)
    return _followed(state, [ev.DeckShuffled(cards=tuple(deck)), *dealt, first], rng)


def is_over(state: State) -> bool:
    """The last card has been drawn."""
    return state.phase is Phase.OVER


def decide(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    """The facts a legal move makes, then whatever follows from them by the rules alone."""
    check(state, seat, move)
    return _followed(state, FACTS[type(move)](state, seat, move, rng), rng)


def roll(rng: random.Random) -> int:
    """One six-sided die."""
    return rng.randint(1, 6)


# --- the facts of each move -------------------------------------------------------------------------------------


def _redealt(state: State, seat: int, deck: tuple[str, ...]) -> list[Event]:
    """The hand goes face up on the discard pile and 7 new cards are drawn from `deck` (fewer if it runs out)."""
    cards = deck[:HAND]
    hand = state.bosses[seat].hand
    discarded = ev.CardsDiscarded(seat=seat, reason="redeal", cards=hand)
    return [discarded, ev.CardsDrawn(seat=seat, reason="redeal", count=len(cards), cards=cards)]


def _redeal(state: State, seat: int, move: mv.Redeal, rng: random.Random) -> list[Event]:
    """Face down until every seat has decided; with `open_setup`, at once."""
    if state.open_setup:
        return _redealt(state, seat, state.deck)
    return [ev.SetupDecided(seat=seat, redeal=True)]


def _keep_hand(state: State, seat: int, move: mv.KeepHand, rng: random.Random) -> list[Event]:
    if state.open_setup:
        return [ev.HandKept(seat=seat)]
    return [ev.SetupDecided(seat=seat, redeal=False)]


def _reveal(state: State) -> list[Event]:
    """Every seat has decided: the decisions, then each redeal in seat order, until the deck runs out."""
    kept = tuple(s for s, b in enumerate(state.bosses) if b.setup is Setup.KEEP)
    redealing = tuple(s for s, b in enumerate(state.bosses) if b.setup is Setup.REDEAL)
    events: list[Event] = [ev.SetupRevealed(kept=kept, redealing=redealing)]
    deck = state.deck
    for seat in redealing:
        if not deck:
            break  # the last card is drawn: the game is over
        events += _redealt(state, seat, deck)
        deck = deck[HAND:]
    return events


def _end_phase(state: State, seat: int, move: mv.EndPhase, rng: random.Random) -> list[Event]:
    """On to the next phase; after Draw, to the discard first with more than 10 cards; after Law, the next turn."""
    if state.phase is Phase.LAW:
        return [ev.TurnStarted(turn=state.turn + 1, seat=next_seat(state))]
    if state.phase is Phase.DRAW and len(state.bosses[seat].hand) > HAND_LIMIT:
        return [ev.PhaseStarted(seat=seat, phase=Phase.DISCARD)]
    return [ev.PhaseStarted(seat=seat, phase=NEXT_PHASE[state.phase])]


def _hit(state: State, seat: int, move: mv.Hit, rng: random.Random) -> list[Event]:
    """Roll: 1-3 the victim got away, 4-6 it is killed, and its Law cards and operations leave with it."""
    die = roll(rng)
    where = located(state, move.victim)
    assert where is not None, "a hit targets a mobster in play"
    target_seat, target = where
    attempt = ev.HitAttempted(
        seat=seat,
        mobster=move.mobster,
        card=move.card,
        victim=move.victim,
        target_seat=target_seat,
        roll=die,
        killed=die >= KILLS_FROM,
    )
    if die < KILLS_FROM:
        return [attempt]
    killed = ev.MobsterKilled(seat=target_seat, mobster=target.card, law=target.law, operations=target.operations)
    return [attempt, killed]


def _destroy(state: State, seat: int, move: mv.Destroy, rng: random.Random) -> list[Event]:
    where = holding(state, move.operation, "operations")
    assert where is not None, "a destroyed operation is in play"
    target_seat, holder = where
    return [
        ev.OperationDestroyed(
            seat=seat,
            mobster=move.mobster,
            card=move.card,
            target_seat=target_seat,
            holder=holder.card,
            operation=move.operation,
        )
    ]


def _petty_crime(state: State, seat: int, move: mv.PettyCrime, rng: random.Random) -> list[Event]:
    die = roll(rng)
    crime, amount = PETTY_CRIMES[die]
    return [ev.PettyCrimeCommitted(seat=seat, mobster=move.mobster, roll=die, crime=crime, amount=amount)]


def _attach(state: State, seat: int, move: mv.Attach, rng: random.Random) -> list[Event]:
    source = None
    if move.operation not in state.bosses[seat].hand:
        where = holding(state, move.operation, "operations")
        assert where is not None, "an operation attached from another mobster is in play"
        source = where[1].card
    return [ev.OperationAttached(seat=seat, mobster=move.mobster, operation=move.operation, source=source)]


def _law_holder(state: State, law: str) -> str:
    where = holding(state, law, "law")
    assert where is not None, "a Law card escaped from is in play"
    return where[1].card


def _arrest(state: State, seat: int, move: mv.Arrest, rng: random.Random) -> list[Event]:
    where = located(state, move.mobster)
    assert where is not None, "an arrested mobster is in play"
    return [ev.LawPlaced(seat=seat, card=move.card, target_seat=where[0], mobster=move.mobster)]


Facts = Callable[[State, int, Any, random.Random], list[Event]]
FACTS: dict[type[Move], Facts] = {
    mv.Redeal: _redeal,
    mv.KeepHand: _keep_hand,
    mv.EndPhase: _end_phase,
    mv.Reassign: lambda s, seat, m, rng: [ev.OperationReassigned(seat=seat, operation=m.operation, mobster=m.mobster)],
    mv.DrawExtra: lambda s, seat, m, rng: [
        ev.ExtraCardBought(seat=seat, mobster=m.mobster, price=EXTRA_CARD_PRICE, card=s.deck[0])
    ],
    mv.Discard: lambda s, seat, m, rng: [ev.CardsDiscarded(seat=seat, reason="hand_limit", cards=m.cards)],
    mv.Hit: _hit,
    mv.Destroy: _destroy,
    mv.CommitCrime: lambda s, seat, m, rng: [
        ev.CrimeCommitted(
            seat=seat, mobster=m.mobster, card=m.card, amount=CARDS[m.card].amount, bonus=bonus(m.mobster, m.card)
        )
    ],
    mv.PettyCrime: _petty_crime,
    mv.DoubleIncome: lambda s, seat, m, rng: [
        ev.IncomeDoubled(seat=seat, mobster=m.mobster, operation=m.operation, amount=earnings(m.mobster, m.operation))
    ],
    mv.Charge: lambda s, seat, m, rng: [
        ev.CostCharged(seat=seat, card=m.card, target=m.target, amount=CARDS[m.card].amount)
    ],
    mv.Recruit: lambda s, seat, m, rng: [ev.MobsterRecruited(seat=seat, card=m.card)],
    mv.Attach: _attach,
    mv.Arrest: _arrest,
    mv.Escape: lambda s, seat, m, rng: [
        ev.LawEscaped(seat=seat, card=m.card, mobster=_law_holder(s, m.law), law=m.law)
    ],
    mv.Bribe: lambda s, seat, m, rng: [
        ev.LawBribed(seat=seat, mobster=m.mobster, holder=_law_holder(s, m.law), law=m.law, price=BRIBE_PRICE)
    ],
}
"""The facts each legal move makes."""


# --- what follows by the rules alone ------------------------------------------------------------------------


def _followed(state: State, events: list[Event], rng: random.Random) -> list[Event]:
    """The events, then every fact they make due, until the game waits on a seat or is over."""
    for event in events:
        state = evolve(state, event)
    events = list(events)
    while facts := _due(state, rng):
        for fact in facts:
            events.append(fact)
            state = evolve(state, fact)
    return events


def _due(state: State, rng: random.Random) -> list[Event]:
    """The facts this state makes due without a seat's decision, if any."""
    if state.phase is Phase.OVER:
        return []
    if not state.deck:
        return [ev.GameEnded(reason="last_card_drawn")]
    if state.orphaned_by is not None and not state.bosses[state.orphaned_by].crew:
        return [ev.OperationsDiscarded(seat=state.orphaned_by, operations=state.orphans)]
    if revealing(state):
        return _reveal(state)
    fact = _due_in_phase(state, rng)
    return [] if fact is None else [fact]


def _due_in_phase(state: State, rng: random.Random) -> Event | None:
    seat = state.active
    match state.phase:
        case Phase.SETUP if not deciding(state):
            return ev.TurnStarted(turn=1, seat=seat)
        case Phase.DRAW if state.attendance and not state.rolled:
            rolls = tuple(ev.Roll(mobster=m.card, roll=roll(rng)) for m in state.bosses[seat].crew)
            return ev.AttendanceRolled(seat=seat, rolls=rolls)
        case Phase.DRAW if not state.drawn:
            cards = state.deck[:DRAWS]
            return ev.CardsDrawn(seat=seat, reason="draw", count=len(cards), cards=cards)
        case Phase.DISCARD if len(state.bosses[seat].hand) <= HAND_LIMIT:
            return ev.PhaseStarted(seat=seat, phase=Phase.HIT)
        case Phase.COLLECTION if not state.collected:
            lines = incomes(state, seat)
            return ev.IncomeCollected(seat=seat, incomes=lines, total=sum(i.amount + i.bonus for i in lines))
    return None


DECISIONS = ("setup", "reassign", "draw", "discard", "hit", "crime", "collection", "recruit", "law")
"""What `awaiting` may say a seat owes: its setup decision, a reassignment after a kill, or its phase."""


def awaiting(state: State) -> dict[int, str]:
    """The seats the game waits on, and the decision each owes: `setup` (keep or redeal) for every seat that
    has not decided, `reassign` after a kill, `discard` over the hand limit, else the active seat's phase."""
    if state.phase is Phase.OVER:
        return {}
    if state.orphaned_by is not None:
        return {state.orphaned_by: "reassign"}
    if state.phase is Phase.SETUP:
        return dict.fromkeys(deciding(state), "setup")
    return {state.active: str(state.phase)}


def result(state: State) -> Result:
    """The richest seat wins; tied seats share the victory (no tie-breaker). The details say where each seat's
    money came from, by source (`Ledger`: they sum to its score)."""
    by_source = [msgspec.structs.asdict(boss.ledger) for boss in state.bosses]
    return rank_seats(
        [boss.money for boss in state.bosses], details={"ended": state.ended, "money_by_source": by_source}
    )
