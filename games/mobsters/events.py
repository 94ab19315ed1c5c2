"""The facts of Mobsters, in the order a game produces them (the moves are in `moves.py`). Money is in dollars."""

from __future__ import annotations

import msgspec

from games.base import Event


class Roll(msgspec.Struct, frozen=True, kw_only=True):
    """One mobster's attendance roll: 4-6 and it is busy, without an action this turn."""

    mobster: str
    roll: int


class Income(msgspec.Struct, frozen=True, kw_only=True):
    """What one operation paid to the mobster that holds it: its income and that mobster's bonus."""

    mobster: str
    operation: str
    amount: int
    bonus: int


# --- setup -------------------------------------------------------------------------------------------------------


class DeckShuffled(Event, frozen=True):
    """The deck's order, top first; secret from every seat (shown to EVERYONE only)."""

    type = "mobsters.deck_shuffled"
    cards: tuple[str, ...]


class FirstPlayerChosen(Event, frozen=True):
    """Who plays first: named in `options.first_player`, or drawn at random."""

    type = "mobsters.first_player_chosen"
    seat: int
    drawn: bool


class CardsDrawn(Event, frozen=True):
    """A seat drew cards from the top of the deck (`deal`, `redeal` or the turn's `draw`); only it sees which."""

    type = "mobsters.cards_drawn"
    seat: int
    reason: str
    count: int
    cards: tuple[str, ...]


class CardsDiscarded(Event, frozen=True):
    """Cards went face up from a hand to the discard pile (`redeal`: a hand with no mobster; `hand_limit`)."""

    type = "mobsters.cards_discarded"
    seat: int
    reason: str
    cards: tuple[str, ...]


class SetupDecided(Event, frozen=True):
    """A seat decided its setup face down: `redeal` (a hand with no mobster) or keep; only it sees which."""

    type = "mobsters.setup_decided"
    seat: int
    redeal: bool


class SetupRevealed(Event, frozen=True):
    """Every awaited seat has decided: who kept, and who redeals (in seat order, then decides again)."""

    type = "mobsters.setup_revealed"
    kept: tuple[int, ...]
    redealing: tuple[int, ...]


class HandKept(Event, frozen=True):
    """With `open_setup` only: a seat dealt no mobster kept its hand, for all to see."""

    type = "mobsters.hand_kept"
    seat: int


# --- the turn ----------------------------------------------------------------------------------------------------


class TurnStarted(Event, frozen=True):
    """A seat's turn begins with its Draw phase; every mobster has its action again."""

    type = "mobsters.turn_started"
    turn: int
    seat: int


class AttendanceRolled(Event, frozen=True):
    """The optional attendance rule: each mobster of the active seat rolled; 4-6 lost its action."""

    type = "mobsters.attendance_rolled"
    seat: int
    rolls: tuple[Roll, ...]


class PhaseStarted(Event, frozen=True):
    """The active seat moved on to a phase (`discard` when it must discard down to 10 before the Hit phase)."""

    type = "mobsters.phase_started"
    seat: int
    phase: str


class ExtraCardBought(Event, frozen=True):
    """A mobster's action: its controller paid `price` for the top card of the deck; only it sees which."""

    type = "mobsters.extra_card_bought"
    seat: int
    mobster: str
    price: int
    card: str


class HitAttempted(Event, frozen=True):
    """A mobster played a Hit card on another seat's mobster: the die roll, and whether it killed."""

    type = "mobsters.hit_attempted"
    seat: int
    mobster: str
    card: str
    target: str
    target_seat: int
    roll: int
    killed: bool


class MobsterKilled(Event, frozen=True):
    """A mobster was rubbed out: it and its Law cards are discarded; its operations wait for its controller."""

    type = "mobsters.mobster_killed"
    seat: int
    mobster: str
    law: tuple[str, ...]
    operations: tuple[str, ...]


class OperationReassigned(Event, frozen=True):
    """The dead mobster's controller gave one of its operations to another mobster, or (None) discarded it."""

    type = "mobsters.operation_reassigned"
    seat: int
    operation: str
    mobster: str | None


class OperationsDiscarded(Event, frozen=True):
    """The dead mobster's controller has no mobster left: every operation it held is discarded."""

    type = "mobsters.operations_discarded"
    seat: int
    operations: tuple[str, ...]


class OperationDestroyed(Event, frozen=True):
    """A mobster played a Destroy Operation card: another seat's operation is discarded."""

    type = "mobsters.operation_destroyed"
    seat: int
    mobster: str
    card: str
    target_seat: int
    holder: str
    operation: str


class CrimeCommitted(Event, frozen=True):
    """A mobster committed a Major Crime or Armed Robbery: its amount plus the mobster's bonus, from the bank."""

    type = "mobsters.crime_committed"
    seat: int
    mobster: str
    card: str
    amount: int
    bonus: int


class PettyCrimeCommitted(Event, frozen=True):
    """A mobster with no operation rolled on the Petty Crime table."""

    type = "mobsters.petty_crime_committed"
    seat: int
    mobster: str
    roll: int
    crime: str
    amount: int


class IncomeCollected(Event, frozen=True):
    """The Collection phase: every mobster of the active seat with no Law card collected its operations."""

    type = "mobsters.income_collected"
    seat: int
    incomes: tuple[Income, ...]
    total: int


class IncomeDoubled(Event, frozen=True):
    """A mobster's action: one of its operations paid its income (bonus included) once more."""

    type = "mobsters.income_doubled"
    seat: int
    mobster: str
    operation: str
    amount: int


class CostCharged(Event, frozen=True):
    """A Cost of Doing Business was played: the target seat paid the amount to the bank."""

    type = "mobsters.cost_charged"
    seat: int
    card: str
    target: int
    amount: int


class MobsterRecruited(Event, frozen=True):
    """A mobster came into play from its controller's hand; that was its action this turn."""

    type = "mobsters.mobster_recruited"
    seat: int
    card: str


class OperationAttached(Event, frozen=True):
    """A mobster's action: it took an operation from hand (`source` None) or from another of its seat's mobsters."""

    type = "mobsters.operation_attached"
    seat: int
    mobster: str
    operation: str
    source: str | None


class LawPlaced(Event, frozen=True):
    """A Law Enforcement card went on another seat's mobster."""

    type = "mobsters.law_placed"
    seat: int
    card: str
    target_seat: int
    mobster: str


class LawEscaped(Event, frozen=True):
    """An Escape Law card discarded one Law Enforcement card from one of the seat's mobsters."""

    type = "mobsters.law_escaped"
    seat: int
    card: str
    mobster: str
    law: str


class LawBribed(Event, frozen=True):
    """A mobster's action: its controller paid `price` to discard a Law card from another of its mobsters."""

    type = "mobsters.law_bribed"
    seat: int
    mobster: str
    holder: str
    law: str
    price: int


class GameEnded(Event, frozen=True):
    """The last card was drawn from the deck: the game is over at once."""

    type = "mobsters.game_ended"
    reason: str


EVENTS: tuple[type[Event], ...] = (
    DeckShuffled,
    FirstPlayerChosen,
    CardsDrawn,
    CardsDiscarded,
    SetupDecided,
    SetupRevealed,
    HandKept,
    TurnStarted,
    AttendanceRolled,
    PhaseStarted,
    ExtraCardBought,
    HitAttempted,
    MobsterKilled,
    OperationReassigned,
    OperationsDiscarded,
    OperationDestroyed,
    CrimeCommitted,
    PettyCrimeCommitted,
    IncomeCollected,
    IncomeDoubled,
    CostCharged,
    MobsterRecruited,
    OperationAttached,
    LawPlaced,
    LawEscaped,
    LawBribed,
    GameEnded,
)
