"""Which moves a seat may make now: the one place legality lives.

`problem` finds what is wrong with a move; `check` (used by `decide`) raises it, and `legal_moves` keeps
the candidate moves in which it finds nothing (both made by games/base.py's `refuse_if` and `legal`), so the
API, `decide` and the bots never disagree.
"""

from __future__ import annotations

from games.base import Move, Problem, Refusal, legal, refuse_if
from games.refusals import TableRefusal
from games.twelve_gangsters.moves import Play
from games.twelve_gangsters.state import State


class TwelveGangstersRefusal(Refusal):
    """What 12 Gangsters refuses (the table's refusals aside)."""

    UNKNOWN_MOVE = "unknown_move", "a move other than `play`"
    ALREADY_PLAYED = "already_played", "you have chosen your gangster this round"
    CARD_NOT_IN_HAND = "card_not_in_hand", "not a gangster you still hold"


def problem(state: State, seat: int, move: Move) -> Problem | None:
    """Why the seat may not make this move now, as (code, detail); None when it may."""
    if not isinstance(move, Play):
        return TwelveGangstersRefusal.UNKNOWN_MOVE, "12 Gangsters takes one move: play"
    if state.round > state.rounds:
        return TableRefusal.GAME_FINISHED, "the game is over"
    if state.chosen[seat] is not None:
        return TwelveGangstersRefusal.ALREADY_PLAYED, "you have already chosen your gangster for this round"
    if move.card not in state.hands[seat]:
        return TwelveGangstersRefusal.CARD_NOT_IN_HAND, f"gangster {move.card} is not in your hand"
    return None


check = refuse_if(problem)
"""Raise IllegalMoveError unless the seat may make this move now."""


def _candidates(state: State, seat: int) -> list[Move]:
    """Every gangster in the seat's hand; `problem` sorts them (none once it has chosen, or the game is over)."""
    return [Play(card=card) for card in state.hands[seat]]


legal_moves = legal(_candidates, problem)
"""Every move the seat may make now, each ready to send."""
