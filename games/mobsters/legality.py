"""Which moves a seat may make now: the one place legality lives.

`problem` finds what is wrong with a move; `check` (used by `decide`) raises it, and `legal_moves` keeps
the candidate moves in which it finds nothing (both made by games/base.py's `refuse_if` and `legal`), so the
API, `decide` and the bots never disagree.
"""

from __future__ import annotations

from collections.abc import Callable

from games.base import Move, legal, refuse_if
from games.mobsters import moves as mv
from games.mobsters.cards import Kind
from games.mobsters.checks import CHECKS, Problem, reassign_problem
from games.mobsters.state import HAND_LIMIT, Mobster, Phase, State, can_act, has_mobster, in_hand, may_redeal

PHASE_OF: dict[type[Move], Phase] = {
    mv.DrawExtra: Phase.DRAW,
    mv.Discard: Phase.DISCARD,
    mv.Hit: Phase.HIT,
    mv.Destroy: Phase.HIT,
    mv.CommitCrime: Phase.CRIME,
    mv.PettyCrime: Phase.CRIME,
    mv.DoubleIncome: Phase.COLLECTION,
    mv.Charge: Phase.COLLECTION,
    mv.Recruit: Phase.RECRUIT,
    mv.Attach: Phase.RECRUIT,
    mv.Arrest: Phase.LAW,
    mv.Escape: Phase.LAW,
    mv.Bribe: Phase.LAW,
}
"""The phase of the active seat's turn in which each move may be made."""


# --- the order of questions ------------------------------------------------------------------------------------


def _setup_problem(state: State, seat: int) -> Problem | None:
    if state.phase is not Phase.SETUP:
        return "not_setup_phase", "a hand is redealt only before the first turn"
    if seat in may_redeal(state):
        return None
    if has_mobster(state.bosses[seat].hand):
        return "hand_has_mobster", "only a seat dealt no mobster may redeal"
    return "already_kept", "you chose to keep your hand"


def _turn_problem(state: State, seat: int, move: Move) -> Problem | None:
    """The active seat's moves in its turn."""
    if state.phase is Phase.SETUP:
        return "setup_not_over", "the first turn starts once every redeal is settled"
    if seat != state.active:
        return "not_your_turn", f"it is seat {state.active}'s turn"
    if isinstance(move, mv.EndPhase):
        return ("must_discard", f"discard down to {HAND_LIMIT} cards first") if state.phase is Phase.DISCARD else None
    phase = PHASE_OF[type(move)]
    if state.phase is not phase:
        return f"not_{phase}_phase", f"the turn is in its {state.phase} phase"
    return CHECKS[type(move)](state, seat, move)


def problem(state: State, seat: int, move: Move) -> Problem | None:
    """Why the seat may not make this move now, as (code, detail); None when it may."""
    if state.phase is Phase.OVER:
        return "game_finished", "the game is over"
    if not 0 <= seat < state.seats:
        return "no_such_seat", f"there is no seat {seat}"
    if isinstance(move, mv.Reassign):
        return reassign_problem(state, seat, move)
    if state.orphaned_by is not None:
        return "awaiting_reassignment", f"seat {state.orphaned_by} is reassigning its dead mobster's operations"
    if isinstance(move, mv.Redeal | mv.KeepHand):
        return _setup_problem(state, seat)
    return _turn_problem(state, seat, move)


check = refuse_if(problem)
"""Raise IllegalMoveError unless the seat may make this move now."""


# --- every legal move --------------------------------------------------------------------------------------------


def _actors(state: State, seat: int) -> list[str]:
    return [m.card for m in state.bosses[seat].crew if can_act(m)]


def _rivals(state: State, seat: int) -> list[Mobster]:
    return [m for s, boss in enumerate(state.bosses) if s != seat for m in boss.crew]


def _hit_moves(state: State, seat: int) -> list[Move]:
    actors, rivals = _actors(state, seat), _rivals(state, seat)
    rival_ops = [op for m in rivals for op in m.operations]
    return [
        *(
            mv.Hit(mobster=m, card=c, target=t.card)
            for m in actors
            for c in in_hand(state, seat, Kind.HIT)
            for t in rivals
        ),
        *(
            mv.Destroy(mobster=m, card=c, operation=op)
            for m in actors
            for c in in_hand(state, seat, Kind.DESTROY)
            for op in rival_ops
        ),
    ]


def _crime_moves(state: State, seat: int) -> list[Move]:
    crimes = [*in_hand(state, seat, Kind.MAJOR_CRIME), *in_hand(state, seat, Kind.ARMED_ROBBERY)]
    actors = _actors(state, seat)
    return [
        *(mv.CommitCrime(mobster=m, card=c) for m in actors for c in crimes),
        *(mv.PettyCrime(mobster=m) for m in actors),
    ]


def _collection_moves(state: State, seat: int) -> list[Move]:
    crew = state.bosses[seat].crew
    return [
        *(mv.DoubleIncome(mobster=m.card, operation=op) for m in crew if can_act(m) for op in m.operations),
        *(mv.Charge(card=c, target=t) for c in in_hand(state, seat, Kind.COST) for t in range(state.seats)),
    ]


def _recruit_moves(state: State, seat: int) -> list[Move]:
    operations = [*in_hand(state, seat, Kind.OPERATION), *(op for m in state.bosses[seat].crew for op in m.operations)]
    return [
        *(mv.Recruit(card=c) for c in in_hand(state, seat, Kind.MOBSTER)),
        *(mv.Attach(mobster=m, operation=op) for m in _actors(state, seat) for op in operations),
    ]


def _law_moves(state: State, seat: int) -> list[Move]:
    own_law = [law for m in state.bosses[seat].crew for law in m.law]
    return [
        *(mv.Arrest(card=c, mobster=t.card) for c in in_hand(state, seat, Kind.LAW) for t in _rivals(state, seat)),
        *(mv.Escape(card=c, law=law) for c in in_hand(state, seat, Kind.ESCAPE) for law in own_law),
        *(mv.Bribe(mobster=m, law=law) for m in _actors(state, seat) for law in own_law),
    ]


PHASE_MOVES: dict[Phase, Callable[[State, int], list[Move]]] = {
    Phase.DRAW: lambda state, seat: [mv.DrawExtra(mobster=m) for m in _actors(state, seat)],
    Phase.DISCARD: lambda state, seat: [mv.Discard(cards=(c,)) for c in state.bosses[seat].hand],
    Phase.HIT: _hit_moves,
    Phase.CRIME: _crime_moves,
    Phase.COLLECTION: _collection_moves,
    Phase.RECRUIT: _recruit_moves,
    Phase.LAW: _law_moves,
}
"""The moves of the active seat that might be legal in each phase; `problem` sorts them. A discard of several
cards is offered as single-card discards, repeated until 10 cards remain."""


def _candidates(state: State, seat: int) -> list[Move]:
    """Every move that might be legal for this seat now."""
    if state.phase is Phase.OVER:
        return []
    if state.orphaned_by is not None:
        mobsters: list[str | None] = [m.card for m in state.bosses[seat].crew]
        return [mv.Reassign(operation=op, mobster=m) for op in state.orphans for m in [*mobsters, None]]
    if state.phase is Phase.SETUP:
        return [mv.Redeal(), mv.KeepHand()]
    if seat != state.active:
        return []
    ending = [] if state.phase is Phase.DISCARD else [mv.EndPhase()]
    return [*PHASE_MOVES[state.phase](state, seat), *ending]


legal_moves = legal(_candidates, problem)
"""Every move the seat may make now, each ready to send."""
