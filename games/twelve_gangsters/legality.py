"""Which moves a seat may make now: the one place legality lives.

`problem` finds what is wrong with a move; `check` (used by `decide`) raises it, and `legal_moves` keeps
the candidate moves in which it finds nothing (both made by games/base.py's `refuse_if` and `legal`), so the
API, `decide` and the bots never disagree.
"""

from __future__ import annotations

from games.base import Move, Problem, legal, refuse_if
from games.twelve_gangsters.moves import Play
from games.twelve_gangsters.state import State


def problem(state: State, seat: int, move: Move) -> Problem | None:
    """Why the seat may not make this move now, as (code, detail); None when it may."""
    if not isinstance(move, Play):
        return "unknown_move", "12 Gangsters takes one move: play"
    if state.round > state.rounds:
        return "game_finished", "the game is over"
    if state.chosen[seat] is not None:
        return "already_played", "you have already chosen your gangster for this round"
    if move.card not in state.hands[seat]:
        return "card_not_in_hand", f"gangster {move.card} is not in your hand"
    return None


check = refuse_if(problem)
"""Raise IllegalMoveError unless the seat may make this move now."""


def _candidates(state: State, seat: int) -> list[Move]:
    """Every gangster in the seat's hand; `problem` sorts them (none once it has chosen, or the game is over)."""
    return [Play(card=card) for card in state.hands[seat]]


legal_moves = legal(_candidates, problem)
"""Every move the seat may make now, each ready to send."""
