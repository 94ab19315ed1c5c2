"""Which moves a seat may make now: the one place legality lives.

`problem` finds what is wrong with a move; `check` (used by `decide`) raises it, and `legal_moves` keeps
the candidate moves in which it finds nothing (both made by games/base.py's `refuse_if` and `legal`), so the
API, `decide` and the bots never disagree.
"""

from __future__ import annotations

from games.base import Move, Problem, Refusal, legal, refuse_if
from games.cash_n_guns import moves as mv
from games.cash_n_guns.state import Phase, State, alternative_targets
from games.refusals import TableRefusal


class CashNGunsRefusal(Refusal):
    """What Ca$h 'n Guns refuses (the table's refusals aside)."""

    NOT_LOADING_PHASE = "not_loading_phase", "a bullet loaded in another step of the turn"
    NOT_AIMING_PHASE = "not_aiming_phase", "an aim in another step of the turn"
    NOT_PRIVILEGE_PHASE = "not_privilege_phase", "the Godfather's privilege in another step of the turn"
    NOT_RETARGET_PHASE = "not_retarget_phase", "a retarget in another step of the turn"
    NOT_COURAGE_PHASE = "not_courage_phase", "a stand or a lie-down in another step of the turn"
    NOT_SHARING_PHASE = "not_sharing_phase", "a pick in another step of the turn"
    SEAT_NOT_ALIVE = "seat_not_alive", "the dead do not play"
    ALREADY_LOADED = "already_loaded", "you have loaded a bullet this turn"
    ALREADY_AIMED = "already_aimed", "you have aimed this turn"
    ALREADY_CHOSE = "already_chose", "you have chosen to stand or lie down this turn"
    NO_SUCH_CARD = "no_such_card", "you have no bullet card of that kind left"
    CANNOT_AIM_AT_SELF = "cannot_aim_at_self", "an aim at yourself"
    TARGET_NOT_ALIVE = "target_not_alive", "an aim at the dead"
    NOT_GODFATHER = "not_godfather", "the privilege is the Godfather's"
    CANNOT_ORDER_SELF = "cannot_order_self", "the Godfather orders another seat"
    SEAT_NOT_AIMING = "seat_not_aiming", "the Godfather orders a seat that aims"
    NO_OTHER_TARGET = "no_other_target", "the Godfather orders a seat that has another seat to aim at"
    NOT_ORDERED = "not_ordered", "a retarget by a seat the Godfather did not order"
    SAME_TARGET = "same_target", "a retarget at the same seat"
    NOT_YOUR_TURN = "not_your_turn", "another seat picks now"
    INVALID_TAKE = "invalid_take", "a pick is one loot card or the New Godfather token"
    LOOT_NOT_AVAILABLE = "loot_not_available", "a loot card that is not on the table"
    TOKEN_ALREADY_TAKEN = "token_already_taken", "the New Godfather token is taken once a turn"


PHASE_OF: dict[type[Move], tuple[Phase, CashNGunsRefusal]] = {
    mv.Load: (Phase.LOAD, CashNGunsRefusal.NOT_LOADING_PHASE),
    mv.Aim: (Phase.AIM, CashNGunsRefusal.NOT_AIMING_PHASE),
    mv.OrderRetarget: (Phase.PRIVILEGE, CashNGunsRefusal.NOT_PRIVILEGE_PHASE),
    mv.SkipPrivilege: (Phase.PRIVILEGE, CashNGunsRefusal.NOT_PRIVILEGE_PHASE),
    mv.Retarget: (Phase.RETARGET, CashNGunsRefusal.NOT_RETARGET_PHASE),
    mv.Courage: (Phase.COURAGE, CashNGunsRefusal.NOT_COURAGE_PHASE),
    mv.Take: (Phase.SHARING, CashNGunsRefusal.NOT_SHARING_PHASE),
}


def _seat_problem(state: State, target: int) -> Problem | None:
    """A target must be a seat at the table, alive."""
    if not 0 <= target < state.seats:
        return TableRefusal.NO_SUCH_SEAT, f"there is no seat {target}"
    if not state.gangsters[target].alive:
        return CashNGunsRefusal.TARGET_NOT_ALIVE, f"seat {target} is dead"
    return None


def _aim_problem(state: State, seat: int, target: int) -> Problem | None:
    if target == seat:
        return CashNGunsRefusal.CANNOT_AIM_AT_SELF, "you cannot hold yourself up"
    return _seat_problem(state, target)


def _privilege_problem(state: State, seat: int, move: Move) -> Problem | None:
    if seat != state.godfather:
        return CashNGunsRefusal.NOT_GODFATHER, "only the Godfather has the privilege"
    if not isinstance(move, mv.OrderRetarget):
        return None
    if not 0 <= move.seat < state.seats:
        return TableRefusal.NO_SUCH_SEAT, f"there is no seat {move.seat}"
    if move.seat == seat:
        return CashNGunsRefusal.CANNOT_ORDER_SELF, "the Godfather orders another seat"
    if state.gangsters[move.seat].target is None:
        return CashNGunsRefusal.SEAT_NOT_AIMING, f"seat {move.seat} aims at nobody"
    if not alternative_targets(state, move.seat):
        return CashNGunsRefusal.NO_OTHER_TARGET, f"seat {move.seat} has no other seat to aim at"
    return None


def _retarget_problem(state: State, seat: int, move: mv.Retarget) -> Problem | None:
    if seat != state.ordered:
        return CashNGunsRefusal.NOT_ORDERED, "only the seat the Godfather ordered changes target"
    if move.target == state.gangsters[seat].target:
        return CashNGunsRefusal.SAME_TARGET, "you must aim at a different seat"
    return _aim_problem(state, seat, move.target)


def _take_problem(state: State, seat: int, move: mv.Take) -> Problem | None:
    if seat != state.sharer:
        return CashNGunsRefusal.NOT_YOUR_TURN, f"seat {state.sharer} picks now"
    if (move.loot is None) == (not move.godfather_token):
        return CashNGunsRefusal.INVALID_TAKE, "take either one loot card or the New Godfather token"
    if move.godfather_token and not state.token_available:
        return CashNGunsRefusal.TOKEN_ALREADY_TAKEN, "the New Godfather token was already taken this turn"
    if move.loot is not None and move.loot not in state.table_loot:
        return CashNGunsRefusal.LOOT_NOT_AVAILABLE, f"{move.loot!r} is not on the table"
    return None


def _move_problem(state: State, seat: int, move: Move) -> Problem | None:
    """What is wrong with a move of the right phase, by a living seat (a pick first: the most asked, in a sharing)."""
    gangster = state.gangsters[seat]
    match move:
        case mv.Take():
            return _take_problem(state, seat, move)
        case mv.Load(card=card):
            if gangster.loaded is not None:
                return CashNGunsRefusal.ALREADY_LOADED, "you have already loaded a bullet card this turn"
            if (gangster.bangs if card == "bang" else gangster.clicks if card == "click" else 0) < 1:
                return CashNGunsRefusal.NO_SUCH_CARD, f"you have no {card!r} card left"
        case mv.Aim(target=target):
            if gangster.aimed:
                return CashNGunsRefusal.ALREADY_AIMED, "you already hold someone up"
            return _aim_problem(state, seat, target)
        case mv.OrderRetarget() | mv.SkipPrivilege():
            return _privilege_problem(state, seat, move)
        case mv.Retarget():
            return _retarget_problem(state, seat, move)
        case mv.Courage():
            if gangster.stand is not None:
                return CashNGunsRefusal.ALREADY_CHOSE, "you have already chosen to stand or lie down"
    return None


def problem(state: State, seat: int, move: Move) -> Problem | None:
    """Why the seat may not make this move now, as (code, detail); None when it may."""
    if state.phase is Phase.OVER:
        return TableRefusal.GAME_FINISHED, "the game is over"
    phase, code = PHASE_OF[type(move)]
    if state.phase is not phase:
        return code, f"the turn is in its {state.phase} phase"
    if not state.gangsters[seat].alive:
        return CashNGunsRefusal.SEAT_NOT_ALIVE, "the dead do not play"
    return _move_problem(state, seat, move)


check = refuse_if(problem)
"""Raise IllegalMoveError unless the seat may make this move now."""


def _candidates(state: State, seat: int) -> list[Move]:
    """Every move that might be legal in this phase; `problem` sorts them. Only this phase's are made: a searching
    bot asks for them at every step of its playouts."""
    seats = range(state.seats)
    match state.phase:
        case Phase.LOAD:
            return [mv.Load(card="bang"), mv.Load(card="click")]
        case Phase.AIM:
            return [mv.Aim(target=t) for t in seats]
        case Phase.PRIVILEGE:
            return [*(mv.OrderRetarget(seat=s) for s in seats), mv.SkipPrivilege()]
        case Phase.RETARGET:
            return [mv.Retarget(target=t) for t in seats]
        case Phase.COURAGE:
            return [mv.Courage(stand=True), mv.Courage(stand=False)]
        case Phase.SHARING:
            return [*(mv.Take(loot=c) for c in state.table_loot), mv.Take(godfather_token=True)]
    return []


legal_moves = legal(_candidates, problem)
"""Every move the seat may make now, each ready to send."""
