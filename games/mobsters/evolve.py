"""How each fact of Mobsters changes the state: `evolve`, one small function per event type."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import Event, dispatcher
from games.mobsters import events as ev
from games.mobsters.state import (
    ABSENT_FROM,
    Deed,
    Mobster,
    Phase,
    State,
    acted,
    added,
    discarded,
    drawn,
    paid,
    played,
    replace,
    with_boss,
    without,
)


def _turn_started(state: State, event: ev.TurnStarted) -> State:
    """Every mobster has its action again; the Draw phase's facts are still to come."""
    bosses = tuple(replace(b, crew=tuple(replace(m, deed=None) for m in b.crew)) for b in state.bosses)
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
    state = drawn(paid(state, event.seat, -event.price), event.seat, (event.card,))
    return acted(state, event.mobster, "draw_extra")


def _hit(state: State, event: ev.HitAttempted) -> State:
    state = discarded(played(state, event.seat, event.card), event.card)
    return acted(state, event.mobster, "hit", card=event.card, target=event.target, roll=event.roll)


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
    return acted(state, event.mobster, "destroy", card=event.card, target=event.operation)


def _crime(state: State, event: ev.CrimeCommitted) -> State:
    state = discarded(played(state, event.seat, event.card), event.card)
    return acted(paid(state, event.seat, event.amount + event.bonus), event.mobster, "commit_crime", card=event.card)


def _charged(state: State, event: ev.CostCharged) -> State:
    return paid(discarded(played(state, event.seat, event.card), event.card), event.target, -event.amount)


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
    return acted(state, event.mobster, "attach", target=event.operation)


def _escaped(state: State, event: ev.LawEscaped) -> State:
    state = discarded(played(state, event.seat, event.card), event.card, event.law)
    return without(state, event.mobster, event.law, "law")


def _bribed(state: State, event: ev.LawBribed) -> State:
    state = discarded(paid(state, event.seat, -event.price), event.law)
    return acted(without(state, event.holder, event.law, "law"), event.mobster, "bribe", target=event.law)


def _ended(state: State, event: ev.GameEnded) -> State:
    return replace(state, phase=Phase.OVER, ended=event.reason, orphans=(), orphaned_by=None)


EVOLVERS: dict[type[Event], Callable[[State, Any], State]] = {
    ev.DeckShuffled: lambda s, e: replace(s, deck=e.cards),
    ev.FirstPlayerChosen: lambda s, e: replace(s, active=e.seat),
    ev.CardsDrawn: _cards_drawn,
    ev.CardsDiscarded: lambda s, e: discarded(played(s, e.seat, *e.cards), *e.cards),
    ev.HandKept: lambda s, e: with_boss(s, e.seat, kept_hand=True),
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
    ev.PettyCrimeCommitted: lambda s, e: acted(paid(s, e.seat, e.amount), e.mobster, "petty_crime", roll=e.roll),
    ev.IncomeCollected: lambda s, e: replace(paid(s, e.seat, e.total), collected=True),
    ev.IncomeDoubled: lambda s, e: acted(paid(s, e.seat, e.amount), e.mobster, "double_income", target=e.operation),
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
