"""How each fact of Mobsters changes the state: `evolve`, one small function per event type."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from games.base import Event, dispatcher
from games.mobsters import events as ev
from games.mobsters.cards import bonus
from games.mobsters.state import ABSENT_FROM, Deed, Mobster, Phase, Setup, State

# --- small steps of `evolve` ------------------------------------------------------------------------------------

replace = msgspec.structs.replace


def with_boss(state: State, seat: int, **changes: Any) -> State:
    """The state with one seat changed."""
    bosses = list(state.bosses)
    bosses[seat] = replace(bosses[seat], **changes)
    return replace(state, bosses=tuple(bosses))


def changed(state: State, mobster: str, change: Callable[[Mobster], Mobster]) -> State:
    """The state with one mobster in play changed by `change`, found in one pass (a card is in one place)."""
    for seat, boss in enumerate(state.bosses):
        for i, member in enumerate(boss.crew):
            if member.card == mobster:
                return with_boss(state, seat, crew=(*boss.crew[:i], change(member), *boss.crew[i + 1 :]))
    raise AssertionError(f"{mobster} is not in play")


def with_mobster(state: State, mobster: str, **changes: Any) -> State:
    """The state with one mobster in play changed."""
    return changed(state, mobster, lambda member: replace(member, **changes))


def acted(state: State, mobster: str, action: str, **deed: Any) -> State:
    """The mobster's action is gone for this turn, and everyone sees how."""
    return with_mobster(state, mobster, deed=Deed(action=action, **deed))


def paid(state: State, seat: int, **sources: int) -> State:
    """The seat receives from the bank (pays, when negative) the amount of each source of its ledger. The bank never
    runs out."""
    boss = state.bosses[seat]
    ledger = replace(boss.ledger, **{name: getattr(boss.ledger, name) + v for name, v in sources.items()})
    return with_boss(state, seat, money=boss.money + sum(sources.values()), ledger=ledger)


def drawn(state: State, seat: int, cards: tuple[str, ...]) -> State:
    """Cards move from the top of the deck to a hand."""
    state = replace(state, deck=state.deck[len(cards) :])
    return with_boss(state, seat, hand=(*state.bosses[seat].hand, *cards))


def played(state: State, seat: int, *cards: str) -> State:
    """Cards leave a hand (to the discard pile or onto the table: the caller puts them there)."""
    return with_boss(state, seat, hand=tuple(c for c in state.bosses[seat].hand if c not in cards))


def discarded(state: State, *cards: str) -> State:
    """Cards go face up on top of the discard pile."""
    return replace(state, discard=(*state.discard, *cards))


def without(state: State, holder: str, card: str, field: str) -> State:
    """An operation or a Law card leaves the mobster that holds it."""
    return changed(
        state, holder, lambda member: replace(member, **{field: tuple(c for c in getattr(member, field) if c != card)})
    )


def added(state: State, holder: str, card: str, field: str) -> State:
    """An operation is attached to a mobster, or a Law card placed on top of it."""
    return changed(state, holder, lambda member: replace(member, **{field: (*getattr(member, field), card)}))


# --- one function per event type --------------------------------------------------------------------------------


def _turn_started(state: State, event: ev.TurnStarted) -> State:
    """Every mobster has its action again; the Draw phase's facts are still to come."""
    bosses = tuple(
        replace(b, crew=tuple(m if m.deed is None else replace(m, deed=None) for m in b.crew))
        if any(m.deed is not None for m in b.crew)
        else b
        for b in state.bosses
    )
    return replace(
        state,
        bosses=bosses,
        turn=event.turn,
        active=event.seat,
        phase=Phase.DRAW,
        rolled=False,
        drawn=False,
        collected=False,
    )


def _attendance(state: State, event: ev.AttendanceRolled) -> State:
    for roll in event.rolls:
        if roll.roll >= ABSENT_FROM:
            state = acted(state, roll.mobster, "absent", roll=roll.roll)
    return replace(state, rolled=True)


def _cards_drawn(state: State, event: ev.CardsDrawn) -> State:
    state = drawn(state, event.seat, event.cards)
    return replace(state, drawn=True) if event.reason == "draw" else state


def _extra_card(state: State, event: ev.ExtraCardBought) -> State:
    state = drawn(paid(state, event.seat, extra_cards=-event.price), event.seat, (event.card,))
    return acted(state, event.mobster, "draw_extra")


def _hit(state: State, event: ev.HitAttempted) -> State:
    state = discarded(played(state, event.seat, event.card), event.card)
    return acted(state, event.mobster, "hit", card=event.card, on=event.victim, roll=event.roll)


def _killed(state: State, event: ev.MobsterKilled) -> State:
    crew = tuple(m for m in state.bosses[event.seat].crew if m.card != event.mobster)
    state = discarded(with_boss(state, event.seat, crew=crew), event.mobster, *event.law)
    orphaned_by = event.seat if event.operations else None
    return replace(state, orphans=event.operations, orphaned_by=orphaned_by)


def _reassigned(state: State, event: ev.OperationReassigned) -> State:
    orphans = tuple(op for op in state.orphans if op != event.operation)
    state = replace(state, orphans=orphans, orphaned_by=state.orphaned_by if orphans else None)
    if event.mobster is None:
        return discarded(state, event.operation)
    return added(state, event.mobster, event.operation, "operations")


def _orphans_discarded(state: State, event: ev.OperationsDiscarded) -> State:
    return replace(discarded(state, *event.operations), orphans=(), orphaned_by=None)


def _destroyed(state: State, event: ev.OperationDestroyed) -> State:
    state = discarded(played(state, event.seat, event.card), event.card, event.operation)
    state = without(state, event.holder, event.operation, "operations")
    return acted(state, event.mobster, "destroy", card=event.card, on=event.operation)


def _crime(state: State, event: ev.CrimeCommitted) -> State:
    state = discarded(played(state, event.seat, event.card), event.card)
    state = paid(state, event.seat, crimes=event.amount, bonuses=event.bonus)
    return acted(state, event.mobster, "commit_crime", card=event.card)


def _charged(state: State, event: ev.CostCharged) -> State:
    return paid(discarded(played(state, event.seat, event.card), event.card), event.target, costs=-event.amount)


def _collected(state: State, event: ev.IncomeCollected) -> State:
    """Each operation's income, and its holder's bonus on it (the total is their sum)."""
    bonuses = sum(i.bonus for i in event.incomes)
    return replace(paid(state, event.seat, operations=event.total - bonuses, bonuses=bonuses), collected=True)


def _doubled(state: State, event: ev.IncomeDoubled) -> State:
    """The operation pays again, its holder's bonus included: the bonus as the card table says it."""
    extra = bonus(event.mobster, event.operation)
    state = paid(state, event.seat, operations=event.amount - extra, bonuses=extra)
    return acted(state, event.mobster, "double_income", on=event.operation)


def _recruited(state: State, event: ev.MobsterRecruited) -> State:
    state = played(state, event.seat, event.card)
    crew = (*state.bosses[event.seat].crew, Mobster(card=event.card, deed=Deed(action="recruited")))
    return with_boss(state, event.seat, crew=crew)


def _attached(state: State, event: ev.OperationAttached) -> State:
    if event.source is None:
        state = played(state, event.seat, event.operation)
    else:
        state = without(state, event.source, event.operation, "operations")
    state = added(state, event.mobster, event.operation, "operations")
    return acted(state, event.mobster, "attach", on=event.operation)


def _escaped(state: State, event: ev.LawEscaped) -> State:
    state = discarded(played(state, event.seat, event.card), event.card, event.law)
    return without(state, event.mobster, event.law, "law")


def _bribed(state: State, event: ev.LawBribed) -> State:
    state = discarded(paid(state, event.seat, bribes=-event.price), event.law)
    return acted(without(state, event.holder, event.law, "law"), event.mobster, "bribe", on=event.law)


def _revealed(state: State, event: ev.SetupRevealed) -> State:
    """The seats that kept are done; those that redeal will decide again on their new hand."""
    for seat in event.kept:
        state = with_boss(state, seat, setup=Setup.DONE)
    for seat in event.redealing:
        state = with_boss(state, seat, setup=Setup.DECIDING)
    return state


def _ended(state: State, event: ev.GameEnded) -> State:
    return replace(state, phase=Phase.OVER, ended=event.reason, orphans=(), orphaned_by=None)


EVOLVERS: dict[type[Event], Callable[[State, Any], State]] = {
    ev.DeckShuffled: lambda s, e: replace(s, deck=e.cards),
    ev.FirstPlayerChosen: lambda s, e: replace(s, active=e.seat),
    ev.CardsDrawn: _cards_drawn,
    ev.CardsDiscarded: lambda s, e: discarded(played(s, e.seat, *e.cards), *e.cards),
    ev.SetupDecided: lambda s, e: with_boss(s, e.seat, setup=Setup.REDEAL if e.redeal else Setup.KEEP),
    ev.SetupRevealed: _revealed,
    ev.HandKept: lambda s, e: with_boss(s, e.seat, setup=Setup.DONE),
    ev.TurnStarted: _turn_started,
    ev.AttendanceRolled: _attendance,
    ev.PhaseStarted: lambda s, e: replace(s, phase=Phase(e.phase)),
    ev.ExtraCardBought: _extra_card,
    ev.HitAttempted: _hit,
    ev.MobsterKilled: _killed,
    ev.OperationReassigned: _reassigned,
    ev.OperationsDiscarded: _orphans_discarded,
    ev.OperationDestroyed: _destroyed,
    ev.CrimeCommitted: _crime,
    ev.PettyCrimeCommitted: lambda s, e: acted(
        paid(s, e.seat, petty_crimes=e.amount), e.mobster, "petty_crime", roll=e.roll
    ),
    ev.IncomeCollected: _collected,
    ev.IncomeDoubled: _doubled,
    ev.CostCharged: _charged,
    ev.MobsterRecruited: _recruited,
    ev.OperationAttached: _attached,
    ev.LawPlaced: lambda s, e: added(played(s, e.seat, e.card), e.mobster, e.card, "law"),
    ev.LawEscaped: _escaped,
    ev.LawBribed: _bribed,
    ev.GameEnded: _ended,
}
"""How each fact changes the state, by event type."""

evolve = dispatcher(EVOLVERS, "Mobsters")
"""The state after one fact."""
