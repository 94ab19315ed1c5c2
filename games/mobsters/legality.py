"""Which moves a seat may make now: the one place legality lives.

`problem` finds what is wrong with a move; `check` (used by `decide`) raises it, and `legal_moves` keeps
the candidate moves in which it finds nothing (both made by games/base.py's `refuse_if` and `legal`), so the
API, `decide` and the bots never disagree. `problem` asks the questions every move shares (the game's end,
a pending reassignment, the seat's turn and phase), then the move's own check in CHECKS.

A Problem is (code, detail): a non-empty tuple, so `a or b` is the first problem found, and b is asked only
when a finds none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import Move, Problem, Refusal, legal, refuse_if
from games.mobsters import moves as mv
from games.mobsters.cards import Kind, kind
from games.mobsters.state import (
    BRIBE_PRICE,
    EXTRA_CARD_PRICE,
    HAND_LIMIT,
    Mobster,
    Phase,
    Setup,
    State,
    can_act,
    deciding,
    has_mobster,
    holding,
    in_hand,
    located,
)
from games.refusals import TableRefusal


class MobstersRefusal(Refusal):
    """What Mobsters refuses (the table's refusals aside)."""

    NOT_SETUP_PHASE = "not_setup_phase", "a setup decision after the first turn has begun"
    SETUP_NOT_OVER = "setup_not_over", "a move of a turn before every seat has made its setup decision"
    ALREADY_DECIDED = "already_decided", "a second setup decision, before they are revealed"
    ALREADY_KEPT = "already_kept", "a setup decision after keeping your hand"
    HAND_HAS_MOBSTER = "hand_has_mobster", "a redeal of a hand with a mobster in it (said to its seat alone)"
    NOT_YOUR_TURN = "not_your_turn", "a move in another seat's turn"
    NOT_DRAW_PHASE = "not_draw_phase", "a move of the Draw phase in another phase"
    NOT_DISCARD_PHASE = "not_discard_phase", "a discard in another phase (one discards only over 10 cards)"
    NOT_HIT_PHASE = "not_hit_phase", "a move of the Hit phase in another phase"
    NOT_CRIME_PHASE = "not_crime_phase", "a move of the Crime phase in another phase"
    NOT_COLLECTION_PHASE = "not_collection_phase", "a move of the Collection phase in another phase"
    NOT_RECRUIT_PHASE = "not_recruit_phase", "a move of the Recruit phase in another phase"
    NOT_LAW_PHASE = "not_law_phase", "a move of the Law phase in another phase"
    MUST_DISCARD = "must_discard", "ending the phase while you hold over 10 cards: discard down to 10"
    NO_CARDS = "no_cards", "a discard that names no card"
    DUPLICATE_CARDS = "duplicate_cards", "a discard that names a card twice"
    TOO_MANY_DISCARDS = "too_many_discards", "a discard below 10 cards"
    AWAITING_REASSIGNMENT = "awaiting_reassignment", "a killed mobster's operations are being reassigned"
    NO_REASSIGNMENT_PENDING = "no_reassignment_pending", "a reassignment when no operation waits for one"
    NOT_YOUR_DECISION = "not_your_decision", "a reassignment of another seat's dead mobster's operations"
    OPERATION_NOT_ORPHANED = "operation_not_orphaned", "a reassignment of an operation that does not wait for one"
    CARD_NOT_IN_HAND = "card_not_in_hand", "a card you do not hold"
    WRONG_CARD = "wrong_card", "a card of the wrong kind for the move"
    NOT_YOUR_MOBSTER = "not_your_mobster", "the mobster that acts is not one of yours in play"
    MOBSTER_NOT_IN_PLAY = "mobster_not_in_play", "a target mobster that is not in play"
    MOBSTER_UNDER_LAW = "mobster_under_law", "the mobster that acts has a Law card on it"
    ACTION_SPENT = "action_spent", "the mobster that acts has acted this turn"
    TARGET_IS_YOURS = "target_is_yours", "a target of your own: it must be another seat's"
    MOBSTER_HAS_OPERATIONS = "mobster_has_operations", "a petty crime by a mobster with an operation"
    OPERATION_NOT_IN_PLAY = "operation_not_in_play", "an operation attached to no mobster"
    OPERATION_NOT_HELD = "operation_not_held", "doubling the income of an operation the mobster does not hold"
    OPERATION_NOT_AVAILABLE = "operation_not_available", "an operation neither in your hand nor on your mobsters"
    OPERATION_ALREADY_HELD = "operation_already_held", "attaching an operation to the mobster that holds it"
    LAW_NOT_ON_YOUR_MOBSTER = "law_not_on_your_mobster", "escaping or bribing away a Law card not on your mobsters"
    NOT_ENOUGH_MONEY = "not_enough_money", "a purchase or a bribe that costs more than you have"


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

OUT_OF_PHASE: dict[Phase, MobstersRefusal] = {
    Phase.DRAW: MobstersRefusal.NOT_DRAW_PHASE,
    Phase.DISCARD: MobstersRefusal.NOT_DISCARD_PHASE,
    Phase.HIT: MobstersRefusal.NOT_HIT_PHASE,
    Phase.CRIME: MobstersRefusal.NOT_CRIME_PHASE,
    Phase.COLLECTION: MobstersRefusal.NOT_COLLECTION_PHASE,
    Phase.RECRUIT: MobstersRefusal.NOT_RECRUIT_PHASE,
    Phase.LAW: MobstersRefusal.NOT_LAW_PHASE,
}
"""The refusal of a move made in another phase than its own, by its own."""


# --- what may be wrong: shared checks -------------------------------------------------------------------------------


def _card(state: State, seat: int, card: str, *kinds: Kind) -> Problem | None:
    """The card must be in the seat's hand, and of one of these kinds."""
    if card not in state.bosses[seat].hand:
        return MobstersRefusal.CARD_NOT_IN_HAND, f"{card!r} is not in your hand"
    if kind(card) not in kinds:
        return MobstersRefusal.WRONG_CARD, f"{card!r} is not a {' or '.join(kinds)} card"
    return None


def _actor(state: State, seat: int, mobster: str) -> Problem | None:
    """The mobster must be the seat's, in play, free of Law cards, with its action unspent."""
    where = located(state, mobster)
    if where is None or where[0] != seat:
        return MobstersRefusal.NOT_YOUR_MOBSTER, f"{mobster!r} is not one of your mobsters in play"
    if where[1].law:
        return MobstersRefusal.MOBSTER_UNDER_LAW, f"{mobster!r} has a Law card on top of it and no action"
    if where[1].deed is not None:
        return MobstersRefusal.ACTION_SPENT, f"{mobster!r} has no action left this turn"
    return None


def _rival(state: State, seat: int, mobster: str) -> Problem | None:
    """The target must be a mobster in play that another seat controls."""
    where = located(state, mobster)
    if where is None:
        return MobstersRefusal.MOBSTER_NOT_IN_PLAY, f"{mobster!r} is not in play"
    if where[0] == seat:
        return MobstersRefusal.TARGET_IS_YOURS, "choose a mobster of another seat"
    return None


def _money(state: State, seat: int, price: int) -> Problem | None:
    if state.bosses[seat].money < price:
        return MobstersRefusal.NOT_ENOUGH_MONEY, f"that costs ${price:,}"
    return None


def _own_law(state: State, seat: int, law: str) -> Problem | None:
    holder = holding(state, law, "law")
    if holder is None or holder[0] != seat:
        return MobstersRefusal.LAW_NOT_ON_YOUR_MOBSTER, f"{law!r} is not on one of your mobsters"
    return None


# --- one check per move ---------------------------------------------------------------------------------------------


def _draw_extra(state: State, seat: int, move: mv.DrawExtra) -> Problem | None:
    return _actor(state, seat, move.mobster) or _money(state, seat, EXTRA_CARD_PRICE)


def _discard(state: State, seat: int, move: mv.Discard) -> Problem | None:
    hand = state.bosses[seat].hand
    if not move.cards:
        return MobstersRefusal.NO_CARDS, "name at least one card to discard"
    if len(set(move.cards)) < len(move.cards):
        return MobstersRefusal.DUPLICATE_CARDS, "name each card once"
    missing = [c for c in move.cards if c not in hand]
    if missing:
        return MobstersRefusal.CARD_NOT_IN_HAND, f"{missing[0]!r} is not in your hand"
    if len(hand) - len(move.cards) < HAND_LIMIT:
        return MobstersRefusal.TOO_MANY_DISCARDS, f"discard down to {HAND_LIMIT} cards, no further"
    return None


def _hit(state: State, seat: int, move: mv.Hit) -> Problem | None:
    return (
        _actor(state, seat, move.mobster) or _card(state, seat, move.card, Kind.HIT) or _rival(state, seat, move.victim)
    )


def _rival_operation(state: State, seat: int, operation: str) -> Problem | None:
    """The operation must be attached to a mobster of another seat."""
    holder = holding(state, operation, "operations")
    if holder is None:
        return MobstersRefusal.OPERATION_NOT_IN_PLAY, f"{operation!r} is not attached to any mobster"
    if holder[0] == seat:
        return MobstersRefusal.TARGET_IS_YOURS, "destroy an operation of another seat"
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
        return MobstersRefusal.MOBSTER_HAS_OPERATIONS, "only a mobster with no operation commits petty crimes"
    return found


def _double(state: State, seat: int, move: mv.DoubleIncome) -> Problem | None:
    found = _actor(state, seat, move.mobster)
    if found is None and move.operation not in _member(state, move.mobster).operations:
        return MobstersRefusal.OPERATION_NOT_HELD, f"{move.mobster!r} does not hold {move.operation!r}"
    return found


def _charge(state: State, seat: int, move: mv.Charge) -> Problem | None:
    if not 0 <= move.target < state.seats:
        return TableRefusal.NO_SUCH_SEAT, f"there is no seat {move.target}"
    if move.target == seat:
        return MobstersRefusal.TARGET_IS_YOURS, "play a Cost of Doing Business on an opponent"
    return _card(state, seat, move.card, Kind.COST)


def _attach(state: State, seat: int, move: mv.Attach) -> Problem | None:
    """From hand, or from another of the seat's mobsters."""
    found = _actor(state, seat, move.mobster)
    if found or move.operation in state.bosses[seat].hand:
        return found or _card(state, seat, move.operation, Kind.OPERATION)
    holder = holding(state, move.operation, "operations")
    if holder is None or holder[0] != seat:
        return (
            MobstersRefusal.OPERATION_NOT_AVAILABLE,
            f"{move.operation!r} is neither in your hand nor on your mobsters",
        )
    if holder[1].card == move.mobster:
        return MobstersRefusal.OPERATION_ALREADY_HELD, f"{move.mobster!r} already holds {move.operation!r}"
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
        return MobstersRefusal.NO_REASSIGNMENT_PENDING, "no dead mobster's operations are waiting"
    if seat != state.orphaned_by:
        return MobstersRefusal.NOT_YOUR_DECISION, f"seat {state.orphaned_by} reassigns its dead mobster's operations"
    if move.operation not in state.orphans:
        return MobstersRefusal.OPERATION_NOT_ORPHANED, f"{move.operation!r} is not waiting for a new mobster"
    where = None if move.mobster is None else located(state, move.mobster)
    if move.mobster is not None and (where is None or where[0] != seat):
        return MobstersRefusal.NOT_YOUR_MOBSTER, f"{move.mobster!r} is not one of your mobsters in play"
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


# --- the order of questions -----------------------------------------------------------------------------------------


def _setup_problem(state: State, seat: int, move: Move) -> Problem | None:
    """Every seat decides (with `open_setup`, only a seat dealt no mobster); only a hand with no mobster is
    redealt. The details speak of the seat's own hand: only the seat is answered them."""
    if state.phase is not Phase.SETUP:
        return MobstersRefusal.NOT_SETUP_PHASE, "the setup decisions are made before the first turn"
    boss = state.bosses[seat]
    if seat not in deciding(state) and boss.setup is not Setup.DONE and not state.open_setup:
        return (
            MobstersRefusal.ALREADY_DECIDED,
            "your setup decision is made; it is revealed once every seat has decided",
        )
    if seat not in deciding(state) and boss.setup is Setup.DONE:
        return MobstersRefusal.ALREADY_KEPT, "you chose to keep your hand"
    if has_mobster(boss.hand) and (isinstance(move, mv.Redeal) or state.open_setup):
        return MobstersRefusal.HAND_HAS_MOBSTER, "only a hand with no mobster is redealt"
    return None


def _turn_problem(state: State, seat: int, move: Move) -> Problem | None:
    """The active seat's moves in its turn."""
    if state.phase is Phase.SETUP:
        return MobstersRefusal.SETUP_NOT_OVER, "the first turn starts once every seat has made its setup decision"
    if seat != state.active:
        return MobstersRefusal.NOT_YOUR_TURN, f"it is seat {state.active}'s turn"
    if isinstance(move, mv.EndPhase):
        return (
            (MobstersRefusal.MUST_DISCARD, f"discard down to {HAND_LIMIT} cards first")
            if state.phase is Phase.DISCARD
            else None
        )
    phase = PHASE_OF[type(move)]
    if state.phase is not phase:
        return OUT_OF_PHASE[phase], f"the turn is in its {state.phase} phase"
    return CHECKS[type(move)](state, seat, move)


def problem(state: State, seat: int, move: Move) -> Problem | None:
    """Why the seat may not make this move now, as (code, detail); None when it may."""
    if state.phase is Phase.OVER:
        return TableRefusal.GAME_FINISHED, "the game is over"
    if not 0 <= seat < state.seats:
        return TableRefusal.NO_SUCH_SEAT, f"there is no seat {seat}"
    if isinstance(move, mv.Reassign):
        return reassign_problem(state, seat, move)
    if state.orphaned_by is not None:
        return (
            MobstersRefusal.AWAITING_REASSIGNMENT,
            f"seat {state.orphaned_by} is reassigning its dead mobster's operations",
        )
    if isinstance(move, mv.Redeal | mv.KeepHand):
        return _setup_problem(state, seat, move)
    return _turn_problem(state, seat, move)


check = refuse_if(problem)
"""Raise IllegalMoveError unless the seat may make this move now."""


# --- every legal move -----------------------------------------------------------------------------------------------


def _actors(state: State, seat: int) -> list[str]:
    return [m.card for m in state.bosses[seat].crew if can_act(m)]


def _rivals(state: State, seat: int) -> list[Mobster]:
    return [m for s, boss in enumerate(state.bosses) if s != seat for m in boss.crew]


def _hit_moves(state: State, seat: int) -> list[Move]:
    actors, rivals = _actors(state, seat), _rivals(state, seat)
    rival_ops = [op for m in rivals for op in m.operations]
    hits, destroys = in_hand(state, seat, Kind.HIT), in_hand(state, seat, Kind.DESTROY)
    return [
        *(mv.Hit(mobster=m, card=c, victim=t.card) for m in actors for c in hits for t in rivals),
        *(mv.Destroy(mobster=m, card=c, operation=op) for m in actors for c in destroys for op in rival_ops),
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
    rivals = _rivals(state, seat)
    return [
        *(mv.Arrest(card=c, mobster=t.card) for c in in_hand(state, seat, Kind.LAW) for t in rivals),
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


_kept = legal(_candidates, problem)
"""The candidates in which `problem` finds nothing: what `legal_moves` answers, by definition."""


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every move the seat may make now, each ready to send: the candidates in which `problem` finds nothing.

    In the active seat's turn, with no reassignment pending, the questions `problem` asks of every move first (the
    game's end, the seat, the turn and the phase) pass for each candidate of the phase, so only the move's own check
    in CHECKS is asked of each; the end of the phase, offered outside the discard, needs none. A search asks this
    at every step of a playout."""
    phase = state.phase
    if phase is Phase.OVER or phase is Phase.SETUP or state.orphaned_by is not None or seat != state.active:
        return _kept(state, seat)
    moves = [move for move in PHASE_MOVES[phase](state, seat) if CHECKS[type(move)](state, seat, move) is None]
    if phase is not Phase.DISCARD:
        moves.append(mv.EndPhase())
    return moves
