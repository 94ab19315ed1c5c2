"""The facts of Mobsters, in the order a game produces them (the moves are in `moves.py`). Money is in dollars."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from games.base import Event, renamed


class Roll(msgspec.Struct, frozen=True, kw_only=True):
    """One mobster's attendance roll: 4-6 and it is busy, without an action this turn."""

    mobster: Annotated[str, Meta(description="the mobster that rolled: its card id")]
    roll: Annotated[int, Meta(description="the die, 1 to 6: 4-6 and it is busy this turn")]


class Income(msgspec.Struct, frozen=True, kw_only=True):
    """What one operation paid to the mobster that holds it: its income and that mobster's bonus."""

    mobster: Annotated[str, Meta(description="the mobster paid: its card id")]
    operation: Annotated[str, Meta(description="the operation that paid: its card id")]
    amount: Annotated[int, Meta(description="the operation's income, in dollars")]
    bonus: Annotated[int, Meta(description="the mobster's bonus on it, in dollars")]


# --- setup -------------------------------------------------------------------------------------------------------


class DeckShuffled(Event, frozen=True):
    """The deck's order, top first; secret from every seat (shown to EVERYONE only)."""

    type = "mobsters.deck_shuffled"
    cards: Annotated[
        tuple[str, ...], Meta(description="the deck's card ids, top first: shown to no seat until the end")
    ]


class FirstPlayerChosen(Event, frozen=True):
    """Who plays first: named in `options.first_player`, or drawn at random."""

    type = "mobsters.first_player_chosen"
    seat: Annotated[int, Meta(description="the seat that plays first")]
    drawn: Annotated[bool, Meta(description="whether it was drawn at random (no `first_player` set)")]


class CardsDrawn(Event, frozen=True):
    """A seat drew cards from the top of the deck (`deal`, `redeal` or the turn's `draw`); only it sees which."""

    type = "mobsters.cards_drawn"
    seat: Annotated[int, Meta(description="the seat that drew")]
    reason: Annotated[str, Meta(description="why: `deal`, `redeal` or `draw`")]
    count: Annotated[int, Meta(description="how many cards it drew")]
    cards: Annotated[tuple[str, ...], Meta(description="the card ids drawn: seen by the drawer only until the end")]


class CardsDiscarded(Event, frozen=True):
    """Cards went face up from a hand to the discard pile (`redeal`: a hand with no mobster; `hand_limit`)."""

    type = "mobsters.cards_discarded"
    seat: Annotated[int, Meta(description="the seat whose hand they left")]
    reason: Annotated[str, Meta(description="why: `redeal` or `hand_limit`")]
    cards: Annotated[tuple[str, ...], Meta(description="the card ids discarded, face up")]


class SetupDecided(Event, frozen=True):
    """A seat decided its setup face down: `redeal` (a hand with no mobster) or keep; only it sees which."""

    type = "mobsters.setup_decided"
    seat: Annotated[int, Meta(description="the seat that decided")]
    redeal: Annotated[bool, Meta(description="true: it redeals; false: it keeps (its own until the reveal)")]


class SetupRevealed(Event, frozen=True):
    """Every awaited seat has decided: who kept, and who redeals (in seat order, then decides again)."""

    type = "mobsters.setup_revealed"
    kept: Annotated[tuple[int, ...], Meta(description="the seats that kept their hand")]
    redealing: Annotated[tuple[int, ...], Meta(description="the seats that redeal, in seat order")]


class HandKept(Event, frozen=True):
    """With `open_setup` only: a seat dealt no mobster kept its hand, for all to see."""

    type = "mobsters.hand_kept"
    seat: Annotated[int, Meta(description="the seat that kept a hand with no mobster")]


# --- the turn ----------------------------------------------------------------------------------------------------


class TurnStarted(Event, frozen=True):
    """A seat's turn begins with its Draw phase; every mobster has its action again."""

    type = "mobsters.turn_started"
    turn: Annotated[int, Meta(description="the turn, from 1")]
    seat: Annotated[int, Meta(description="the seat whose turn it is")]


class AttendanceRolled(Event, frozen=True):
    """The optional attendance rule: each mobster of the active seat rolled; 4-6 lost its action."""

    type = "mobsters.attendance_rolled"
    seat: Annotated[int, Meta(description="the active seat")]
    rolls: Annotated[tuple[Roll, ...], Meta(description="each of its mobsters' roll")]


class PhaseStarted(Event, frozen=True):
    """The active seat moved on to a phase (`discard` when it must discard down to 10 before the Hit phase)."""

    type = "mobsters.phase_started"
    seat: Annotated[int, Meta(description="the active seat")]
    phase: Annotated[str, Meta(description="the phase it moved on to")]


class ExtraCardBought(Event, frozen=True):
    """A mobster's action: its controller paid `price` for the top card of the deck; only it sees which."""

    type = "mobsters.extra_card_bought"
    seat: Annotated[int, Meta(description="the seat that bought it")]
    mobster: Annotated[str, Meta(description="the mobster whose action it spent: its card id")]
    price: Annotated[int, Meta(description="what it paid, in dollars")]
    card: Annotated[str, Meta(description="the card id bought: seen by the buyer only until the end")]


class HitAttempted(Event, frozen=True):
    """A mobster played a Hit card on another seat's mobster: the die roll, and whether it killed."""

    type = "mobsters.hit_attempted"
    schema_version = 2
    upcasters = {1: renamed(target="victim")}  # v2: `target` names a seat everywhere; the mobster hit is the victim
    seat: Annotated[int, Meta(description="the seat that acts")]
    mobster: Annotated[str, Meta(description="the mobster that made the hit: its card id")]
    card: Annotated[str, Meta(description="the Hit card played: its card id")]
    victim: Annotated[str, Meta(description="the mobster hit: its card id")]
    target_seat: Annotated[int, Meta(description="the seat whose mobster was hit")]
    roll: Annotated[int, Meta(description="the die, 1 to 6: 4-6 kills")]
    killed: Annotated[bool, Meta(description="whether the victim was killed")]


class MobsterKilled(Event, frozen=True):
    """A mobster was rubbed out: it and its Law cards are discarded; its operations wait for its controller."""

    type = "mobsters.mobster_killed"
    seat: Annotated[int, Meta(description="the seat whose mobster was killed")]
    mobster: Annotated[str, Meta(description="the mobster killed: its card id")]
    law: Annotated[tuple[str, ...], Meta(description="the Law card ids discarded with it")]
    operations: Annotated[tuple[str, ...], Meta(description="its operations' card ids, waiting for its controller")]


class OperationReassigned(Event, frozen=True):
    """The dead mobster's controller gave one of its operations to another mobster, or (None) discarded it."""

    type = "mobsters.operation_reassigned"
    seat: Annotated[int, Meta(description="the dead mobster's controller")]
    operation: Annotated[str, Meta(description="the operation: its card id")]
    mobster: Annotated[str | None, Meta(description="the mobster it went to (its card id); null: discarded")]


class OperationsDiscarded(Event, frozen=True):
    """The dead mobster's controller has no mobster left: every operation it held is discarded."""

    type = "mobsters.operations_discarded"
    seat: Annotated[int, Meta(description="the dead mobster's controller")]
    operations: Annotated[tuple[str, ...], Meta(description="the operation card ids discarded")]


class OperationDestroyed(Event, frozen=True):
    """A mobster played a Destroy Operation card: another seat's operation is discarded."""

    type = "mobsters.operation_destroyed"
    seat: Annotated[int, Meta(description="the seat that acts")]
    mobster: Annotated[str, Meta(description="the mobster whose action it spent: its card id")]
    card: Annotated[str, Meta(description="the Destroy Operation card played: its card id")]
    target_seat: Annotated[int, Meta(description="the seat whose operation was destroyed")]
    holder: Annotated[str, Meta(description="the mobster that held it: its card id")]
    operation: Annotated[str, Meta(description="the operation destroyed: its card id")]


class CrimeCommitted(Event, frozen=True):
    """A mobster committed a Major Crime or Armed Robbery: its amount plus the mobster's bonus, from the bank."""

    type = "mobsters.crime_committed"
    seat: Annotated[int, Meta(description="the seat that acts")]
    mobster: Annotated[str, Meta(description="the mobster that committed it: its card id")]
    card: Annotated[str, Meta(description="the crime card played: its card id")]
    amount: Annotated[int, Meta(description="the crime's amount, in dollars")]
    bonus: Annotated[int, Meta(description="the mobster's bonus on it, in dollars")]


class PettyCrimeCommitted(Event, frozen=True):
    """A mobster with no operation rolled on the Petty Crime table."""

    type = "mobsters.petty_crime_committed"
    seat: Annotated[int, Meta(description="the seat that acts")]
    mobster: Annotated[str, Meta(description="the mobster that committed it: its card id")]
    roll: Annotated[int, Meta(description="the die, 1 to 6")]
    crime: Annotated[str, Meta(description="the Petty Crime table's entry rolled")]
    amount: Annotated[int, Meta(description="what it took, in dollars")]


class IncomeCollected(Event, frozen=True):
    """The Collection phase: every mobster of the active seat with no Law card collected its operations."""

    type = "mobsters.income_collected"
    seat: Annotated[int, Meta(description="the active seat")]
    incomes: Annotated[tuple[Income, ...], Meta(description="what each operation paid")]
    total: Annotated[int, Meta(description="the sum, in dollars")]


class IncomeDoubled(Event, frozen=True):
    """A mobster's action: one of its operations paid its income (bonus included) once more."""

    type = "mobsters.income_doubled"
    seat: Annotated[int, Meta(description="the seat that acts")]
    mobster: Annotated[str, Meta(description="the mobster whose action it spent: its card id")]
    operation: Annotated[str, Meta(description="the operation that paid again: its card id")]
    amount: Annotated[int, Meta(description="what it paid, bonus included, in dollars")]


class CostCharged(Event, frozen=True):
    """A Cost of Doing Business was played: the target seat paid the amount to the bank."""

    type = "mobsters.cost_charged"
    seat: Annotated[int, Meta(description="the seat that played it")]
    card: Annotated[str, Meta(description="the Cost of Doing Business card played: its card id")]
    target: Annotated[int, Meta(description="the seat that paid")]
    amount: Annotated[int, Meta(description="what it paid to the bank, in dollars")]


class MobsterRecruited(Event, frozen=True):
    """A mobster came into play from its controller's hand; that was its action this turn."""

    type = "mobsters.mobster_recruited"
    seat: Annotated[int, Meta(description="the seat that recruited it")]
    card: Annotated[str, Meta(description="the mobster recruited: its card id")]


class OperationAttached(Event, frozen=True):
    """A mobster's action: it took an operation from hand (`source` None) or from another of its seat's mobsters."""

    type = "mobsters.operation_attached"
    seat: Annotated[int, Meta(description="the seat that acts")]
    mobster: Annotated[str, Meta(description="the mobster that took it: its card id")]
    operation: Annotated[str, Meta(description="the operation: its card id")]
    source: Annotated[str | None, Meta(description="the mobster it came from (its card id); null: from the hand")]


class LawPlaced(Event, frozen=True):
    """A Law Enforcement card went on another seat's mobster."""

    type = "mobsters.law_placed"
    seat: Annotated[int, Meta(description="the seat that played it")]
    card: Annotated[str, Meta(description="the Law Enforcement card: its card id")]
    target_seat: Annotated[int, Meta(description="the seat whose mobster it went on")]
    mobster: Annotated[str, Meta(description="the mobster it went on: its card id")]


class LawEscaped(Event, frozen=True):
    """An Escape Law card discarded one Law Enforcement card from one of the seat's mobsters."""

    type = "mobsters.law_escaped"
    seat: Annotated[int, Meta(description="the seat that played it")]
    card: Annotated[str, Meta(description="the Escape Law card played: its card id")]
    mobster: Annotated[str, Meta(description="the mobster freed: its card id")]
    law: Annotated[str, Meta(description="the Law Enforcement card discarded: its card id")]


class LawBribed(Event, frozen=True):
    """A mobster's action: its controller paid `price` to discard a Law card from another of its mobsters."""

    type = "mobsters.law_bribed"
    seat: Annotated[int, Meta(description="the seat that acts")]
    mobster: Annotated[str, Meta(description="the mobster whose action it spent: its card id")]
    holder: Annotated[str, Meta(description="the mobster freed: its card id")]
    law: Annotated[str, Meta(description="the Law Enforcement card discarded: its card id")]
    price: Annotated[int, Meta(description="what it paid, in dollars")]


class GameEnded(Event, frozen=True):
    """The last card was drawn from the deck: the game is over at once."""

    type = "mobsters.game_ended"
    reason: Annotated[str, Meta(description="why it ended: `last_card_drawn`")]


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
