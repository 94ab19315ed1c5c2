"""The moves of Mobsters: one type per thing a seat or one of its mobsters can do, in turn order.

Cards and mobsters are named by card id (`mobster:lucky`); seats by number. A mobster's action is named by
the `mobster` field of the move that spends it.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from games.base import Move

Acting = Annotated[str, Meta(description="the mobster whose action this spends: its card id (`mobster:lucky`)")]
Played = Annotated[str, Meta(description="the card played from the seat's hand: its card id")]
Law = Annotated[str, Meta(description="the Law Enforcement card discarded: its card id, on one of the seat's mobsters")]

# --- setup ---------------------------------------------------------------------------------------------------


class Redeal(Move, frozen=True, tag="redeal"):
    """A seat dealt no mobster discards its hand face up and draws 7 new cards."""


class KeepHand(Move, frozen=True, tag="keep_hand"):
    """A seat dealt no mobster keeps its hand all the same."""


# --- any phase with optional actions ----------------------------------------------------------------------------


class EndPhase(Move, frozen=True, tag="end_phase"):
    """The active seat is done with this phase (after Law: with its turn)."""


class Reassign(Move, frozen=True, tag="reassign"):
    """After a kill, the dead mobster's controller gives one of its operations to another of its mobsters,
    or discards it (`mobster`: null)."""

    operation: Annotated[str, Meta(description="the dead mobster's operation passed on: its card id")]
    mobster: Annotated[str | None, Meta(description="the mobster it goes to (its card id); null: discard it")]


# --- draw ------------------------------------------------------------------------------------------------------


class DrawExtra(Move, frozen=True, tag="draw_extra"):
    """A mobster's action: buy an extra card for $1,000."""

    mobster: Acting


class Discard(Move, frozen=True, tag="discard"):
    """Discard cards from a hand of more than 10, down to no fewer than 10."""

    cards: Annotated[tuple[str, ...], Meta(description="the cards discarded from the hand: their card ids")]


# --- hit ---------------------------------------------------------------------------------------------------------


class Hit(Move, frozen=True, tag="hit"):
    """A mobster's action: discard a Hit card on another seat's mobster; a roll of 4-6 kills it."""

    mobster: Acting
    card: Played
    victim: Annotated[str, Meta(description="the mobster hit: its card id, another seat's mobster in play")]

    formerly = {"target": "victim"}


class Destroy(Move, frozen=True, tag="destroy"):
    """A mobster's action: discard a Destroy Operation card to discard another seat's operation."""

    mobster: Acting
    card: Played
    operation: Annotated[str, Meta(description="the operation destroyed: its card id, another seat's")]


# --- crime -------------------------------------------------------------------------------------------------------


class CommitCrime(Move, frozen=True, tag="commit_crime"):
    """A mobster's action: discard a Major Crime or Armed Robbery card and collect its takings."""

    mobster: Acting
    card: Played


class PettyCrime(Move, frozen=True, tag="petty_crime"):
    """The action of a mobster with no operation: roll on the Petty Crime table."""

    mobster: Acting


# --- collection --------------------------------------------------------------------------------------------------


class DoubleIncome(Move, frozen=True, tag="double_income"):
    """A mobster's action: one of its operations pays its income (bonus included) once more this turn."""

    mobster: Acting
    operation: Annotated[str, Meta(description="the operation that pays again: its card id, one of the mobster's")]


class Charge(Move, frozen=True, tag="charge"):
    """Play a Cost of Doing Business on another seat: it pays the amount to the bank."""

    card: Played
    target: Annotated[int, Meta(description="the seat charged: another seat")]


# --- recruit -----------------------------------------------------------------------------------------------------


class Recruit(Move, frozen=True, tag="recruit"):
    """Put a mobster from hand into play; it has spent its action this turn."""

    card: Annotated[str, Meta(description="the mobster recruited: its card id, in the seat's hand")]


class Attach(Move, frozen=True, tag="attach"):
    """A mobster's action: take an operation from hand or from another of its controller's mobsters."""

    mobster: Acting
    operation: Annotated[
        str, Meta(description="the operation taken: its card id, in the hand or on another of the seat's mobsters")
    ]


# --- law ---------------------------------------------------------------------------------------------------------


class Arrest(Move, frozen=True, tag="arrest"):
    """Place a Law Enforcement card on another seat's mobster."""

    card: Played
    mobster: Annotated[str, Meta(description="the mobster arrested: its card id, another seat's mobster in play")]


class Escape(Move, frozen=True, tag="escape"):
    """Discard an Escape Law card to discard one Law Enforcement card from one of your mobsters."""

    card: Played
    law: Law


class Bribe(Move, frozen=True, tag="bribe"):
    """A mobster's action: pay $3,000 to discard a Law Enforcement card from another of your mobsters."""

    mobster: Acting
    law: Law


MOVES: tuple[type[Move], ...] = (
    Redeal,
    KeepHand,
    DrawExtra,
    Discard,
    Hit,
    Destroy,
    CommitCrime,
    PettyCrime,
    DoubleIncome,
    Charge,
    Recruit,
    Attach,
    Arrest,
    Escape,
    Bribe,
    Reassign,
    EndPhase,
)
