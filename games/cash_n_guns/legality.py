"""Which moves a seat may make now: the one place legality lives.

`problem` finds what is wrong with a move; `check` (used by `decide`) raises it, and `legal_moves` keeps
the candidate moves in which it finds nothing (both made by games/base.py's `refuse_if` and `legal`), so the
API, `decide` and the bots never disagree.
"""

from __future__ import annotations

from games.base import Move, Problem, legal, refuse_if
from games.cash_n_guns import moves as mv
from games.cash_n_guns.state import Phase, State, alternative_targets

PHASE_OF: dict[type[Move], tuple[Phase, str]] = {
    mv.Load: (Phase.LOAD, "not_loading_phase"),
    mv.Aim: (Phase.AIM, "not_aiming_phase"),
    mv.OrderRetarget: (Phase.PRIVILEGE, "not_privilege_phase"),
    mv.SkipPrivilege: (Phase.PRIVILEGE, "not_privilege_phase"),
    mv.Retarget: (Phase.RETARGET, "not_retarget_phase"),
    mv.Courage: (Phase.COURAGE, "not_courage_phase"),
    mv.Take: (Phase.SHARING, "not_sharing_phase"),
}


def _seat_problem(state: State, target: int) -> Problem | None:
    """A target must be a seat at the table, alive."""
    if not 0 <= target < state.seats:
        return "no_such_seat", f"there is no seat {target}"
    if not state.gangsters[target].alive:
        return "target_not_alive", f"seat {target} is dead"
    return None


def _aim_problem(state: State, seat: int, target: int) -> Problem | None:
    if target == seat:
        return "cannot_aim_at_self", "you cannot hold yourself up"
    return _seat_problem(state, target)


def _privilege_problem(state: State, seat: int, move: Move) -> Problem | None:
    if seat != state.godfather:
        return "not_godfather", "only the Godfather has the privilege"
    if not isinstance(move, mv.OrderRetarget):
        return None
    if not 0 <= move.seat < state.seats:
        return "no_such_seat", f"there is no seat {move.seat}"
    if move.seat == seat:
        return "cannot_order_self", "the Godfather orders another seat"
    if state.gangsters[move.seat].target is None:
        return "seat_not_aiming", f"seat {move.seat} aims at nobody"
    if not alternative_targets(state, move.seat):
        return "no_other_target", f"seat {move.seat} has no other seat to aim at"
    return None


def _retarget_problem(state: State, seat: int, move: mv.Retarget) -> Problem | None:
    if seat != state.ordered:
        return "not_ordered", "only the seat the Godfather ordered changes target"
    if move.target == state.gangsters[seat].target:
        return "same_target", "you must aim at a different seat"
    return _aim_problem(state, seat, move.target)


def _take_problem(state: State, seat: int, move: mv.Take) -> Problem | None:
    if seat != state.sharer:
        return "not_your_turn", f"seat {state.sharer} picks now"
    if (move.loot is None) == (not move.godfather_token):
        return "invalid_take", "take either one loot card or the New Godfather token"
    if move.godfather_token and not state.token_available:
        return "token_already_taken", "the New Godfather token was already taken this turn"
    if move.loot is not None and move.loot not in state.table_loot:
        return "loot_not_available", f"{move.loot!r} is not on the table"
    return None


def _move_problem(state: State, seat: int, move: Move) -> Problem | None:
    """What is wrong with a move of the right phase, by a living seat."""
    gangster = state.gangsters[seat]
    match move:
        case mv.Load(card=card):
            if gangster.loaded is not None:
                return "already_loaded", "you have already loaded a bullet card this turn"
            if (gangster.bangs if card == "bang" else gangster.clicks if card == "click" else 0) < 1:
                return "no_such_card", f"you have no {card!r} card left"
        case mv.Aim(target=target):
            if gangster.aimed:
                return "already_aimed", "you already hold someone up"
            return _aim_problem(state, seat, target)
        case mv.OrderRetarget() | mv.SkipPrivilege():
            return _privilege_problem(state, seat, move)
        case mv.Retarget():
            return _retarget_problem(state, seat, move)
        case mv.Courage():
            if gangster.stand is not None:
                return "already_chose", "you have already chosen to stand or lie down"
        case mv.Take():
            return _take_problem(state, seat, move)
    return None


def problem(state: State, seat: int, move: Move) -> Problem | None:
    """Why the seat may not make this move now, as (code, detail); None when it may."""
    if state.phase is Phase.OVER:
        return "game_finished", "the game is over"
    phase, code = PHASE_OF[type(move)]
    if state.phase is not phase:
        return code, f"the turn is in its {state.phase} phase"
    if not state.gangsters[seat].alive:
        return "seat_not_alive", "the dead do not play"
    return _move_problem(state, seat, move)


check = refuse_if(problem)
"""Raise IllegalMoveError unless the seat may make this move now."""


def _candidates(state: State, seat: int) -> list[Move]:
    """Every move that might be legal in this phase; `problem` sorts them."""
    seats = range(state.seats)
    by_phase: dict[Phase, list[Move]] = {
        Phase.LOAD: [mv.Load(card="bang"), mv.Load(card="click")],
        Phase.AIM: [mv.Aim(target=t) for t in seats],
        Phase.PRIVILEGE: [*(mv.OrderRetarget(seat=s) for s in seats), mv.SkipPrivilege()],
        Phase.RETARGET: [mv.Retarget(target=t) for t in seats],
        Phase.COURAGE: [mv.Courage(stand=True), mv.Courage(stand=False)],
        Phase.SHARING: [*(mv.Take(loot=c) for c in state.table_loot), mv.Take(godfather_token=True)],
    }
    return by_phase.get(state.phase, [])


legal_moves = legal(_candidates, problem)
"""Every move the seat may make now, each ready to send."""
