"""What may be wrong with each move, asked by `legality.problem` once the move's seat and phase are right.

A Problem is (code, detail): a non-empty tuple, so `a or b` is the first problem found, and b is asked only
when a finds none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import Move
from games.mobsters import moves as mv
from games.mobsters.cards import Kind, kind
from games.mobsters.state import BRIBE_PRICE, EXTRA_CARD_PRICE, HAND_LIMIT, Mobster, State, holding, located

Problem = tuple[str, str]


# --- shared checks -------------------------------------------------------------------------------------------


def _card(state: State, seat: int, card: str, *kinds: Kind) -> Problem | None:
    """The card must be in the seat's hand, and of one of these kinds."""
    if card not in state.bosses[seat].hand:
        return "card_not_in_hand", f"{card!r} is not in your hand"
    if kind(card) not in kinds:
        return "wrong_card", f"{card!r} is not a {' or '.join(kinds)} card"
    return None


def _actor(state: State, seat: int, mobster: str) -> Problem | None:
    """The mobster must be the seat's, in play, free of Law cards, with its action unspent."""
    where = located(state, mobster)
    if where is None or where[0] != seat:
        return "not_your_mobster", f"{mobster!r} is not one of your mobsters in play"
    if where[1].law:
        return "mobster_under_law", f"{mobster!r} has a Law card on top of it and no action"
    if where[1].deed is not None:
        return "action_spent", f"{mobster!r} has no action left this turn"
    return None


def _rival(state: State, seat: int, mobster: str) -> Problem | None:
    """The target must be a mobster in play that another seat controls."""
    where = located(state, mobster)
    if where is None:
        return "mobster_not_in_play", f"{mobster!r} is not in play"
    if where[0] == seat:
        return "target_is_yours", "choose a mobster of another seat"
    return None


def _money(state: State, seat: int, price: int) -> Problem | None:
    if state.bosses[seat].money < price:
        return "not_enough_money", f"that costs ${price:,}"
    return None


def _own_law(state: State, seat: int, law: str) -> Problem | None:
    holder = holding(state, law, "law")
    if holder is None or holder[0] != seat:
        return "law_not_on_your_mobster", f"{law!r} is not on one of your mobsters"
    return None


# --- one check per move ------------------------------------------------------------------------------------


def _draw_extra(state: State, seat: int, move: mv.DrawExtra) -> Problem | None:
    return _actor(state, seat, move.mobster) or _money(state, seat, EXTRA_CARD_PRICE)


def _discard(state: State, seat: int, move: mv.Discard) -> Problem | None:
    hand = state.bosses[seat].hand
    if not move.cards:
        return "no_cards", "name at least one card to discard"
    if len(set(move.cards)) < len(move.cards):
        return "duplicate_cards", "name each card once"
    missing = [c for c in move.cards if c not in hand]
    if missing:
        return "card_not_in_hand", f"{missing[0]!r} is not in your hand"
    if len(hand) - len(move.cards) < HAND_LIMIT:
        return "too_many_discards", f"discard down to {HAND_LIMIT} cards, no further"
    return None


def _hit(state: State, seat: int, move: mv.Hit) -> Problem | None:
    return (
        _actor(state, seat, move.mobster) or _card(state, seat, move.card, Kind.HIT) or _rival(state, seat, move.target)
    )


def _rival_operation(state: State, seat: int, operation: str) -> Problem | None:
    """The operation must be attached to a mobster of another seat."""
    holder = holding(state, operation, "operations")
    if holder is None:
        return "operation_not_in_play", f"{operation!r} is not attached to any mobster"
    if holder[0] == seat:
        return "target_is_yours", "destroy an operation of another seat"
    return None


def _destroy(state: State, seat: int, move: mv.Destroy) -> Problem | None:
    return (
        _actor(state, seat, move.mobster)
        or _card(state, seat, move.card, Kind.DESTROY)
        or _rival_operation(state, seat, move.operation)
    )


def _crime(state: State, seat: int, move: mv.CommitCrime) -> Problem | None:
    return _actor(state, seat, move.mobster) or _card(state, seat, move.card, Kind.MAJOR_CRIME, Kind.ARMED_ROBBERY)


def _member(state: State, mobster: str) -> Mobster:
    """A mobster known to be in play."""
    where = located(state, mobster)
    assert where is not None, f"{mobster} is not in play"
    return where[1]


def _petty(state: State, seat: int, move: mv.PettyCrime) -> Problem | None:
    found = _actor(state, seat, move.mobster)
    if found is None and _member(state, move.mobster).operations:
        return "mobster_has_operations", "only a mobster with no operation commits petty crimes"
    return found


def _double(state: State, seat: int, move: mv.DoubleIncome) -> Problem | None:
    found = _actor(state, seat, move.mobster)
    if found is None and move.operation not in _member(state, move.mobster).operations:
        return "operation_not_held", f"{move.mobster!r} does not hold {move.operation!r}"
    return found


def _charge(state: State, seat: int, move: mv.Charge) -> Problem | None:
    if not 0 <= move.target < state.seats:
        return "no_such_seat", f"there is no seat {move.target}"
    if move.target == seat:
        return "target_is_yours", "play a Cost of Doing Business on an opponent"
    return _card(state, seat, move.card, Kind.COST)


def _attach(state: State, seat: int, move: mv.Attach) -> Problem | None:
    """From hand, or from another of the seat's mobsters."""
    found = _actor(state, seat, move.mobster)
    if found or move.operation in state.bosses[seat].hand:
        return found or _card(state, seat, move.operation, Kind.OPERATION)
    holder = holding(state, move.operation, "operations")
    if holder is None or holder[0] != seat:
        return "operation_not_available", f"{move.operation!r} is neither in your hand nor on your mobsters"
    if holder[1].card == move.mobster:
        return "operation_already_held", f"{move.mobster!r} already holds {move.operation!r}"
    return None


def _arrest(state: State, seat: int, move: mv.Arrest) -> Problem | None:
    return _card(state, seat, move.card, Kind.LAW) or _rival(state, seat, move.mobster)


def _escape(state: State, seat: int, move: mv.Escape) -> Problem | None:
    return _card(state, seat, move.card, Kind.ESCAPE) or _own_law(state, seat, move.law)


def _bribe(state: State, seat: int, move: mv.Bribe) -> Problem | None:
    return _actor(state, seat, move.mobster) or _money(state, seat, BRIBE_PRICE) or _own_law(state, seat, move.law)


def reassign_problem(state: State, seat: int, move: mv.Reassign) -> Problem | None:
    """Only the dead mobster's controller reassigns its operations, each to one of its own mobsters or none."""
    if state.orphaned_by is None:
        return "no_reassignment_pending", "no dead mobster's operations are waiting"
    if seat != state.orphaned_by:
        return "not_your_decision", f"seat {state.orphaned_by} reassigns its dead mobster's operations"
    if move.operation not in state.orphans:
        return "operation_not_orphaned", f"{move.operation!r} is not waiting for a new mobster"
    where = None if move.mobster is None else located(state, move.mobster)
    if move.mobster is not None and (where is None or where[0] != seat):
        return "not_your_mobster", f"{move.mobster!r} is not one of your mobsters in play"
    return None


CHECKS: dict[type[Move], Callable[[State, int, Any], Problem | None]] = {
    mv.DrawExtra: _draw_extra,
    mv.Discard: _discard,
    mv.Hit: _hit,
    mv.Destroy: _destroy,
    mv.CommitCrime: _crime,
    mv.PettyCrime: _petty,
    mv.DoubleIncome: _double,
    mv.Charge: _charge,
    mv.Recruit: lambda state, seat, move: _card(state, seat, move.card, Kind.MOBSTER),
    mv.Attach: _attach,
    mv.Arrest: _arrest,
    mv.Escape: _escape,
    mv.Bribe: _bribe,
}
"""What may be wrong with each move made by the active seat in its phase."""
