"""What each viewer may see of a Mobsters game and of its events.

Public: the turn, the phase, the active seat (during the setup: the first player), how many cards the deck
holds, the discard pile, a pending reassignment, and per seat its money, how many cards it holds, its income,
and its mobsters in play with their operations, their Law cards (all played face up) and what became of their
action this turn. Private to a seat (and shown to EVERYONE): its hand. The deck's order is
shown to EVERYONE only. In events, the shuffled deck is EVERYONE's only, a drawn card its drawer's, and a setup
decision (keep or redeal) its seat's until `setup_revealed` makes them all public. Nothing in a view depends on
whether a hand holds a mobster.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import UNSET, Meta, UnsetType

from games.base import EVERYONE, Event, Viewer, redacted
from games.mobsters import events as ev
from games.mobsters.state import Deed, Phase, State, can_act, incomes


class You(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A seat's own: its hand. Shown to the seat under `you`, and to everyone in `seats` once the game is over."""

    hand: Annotated[list[str], Meta(description="the card ids in the seat's hand")] | UnsetType = UNSET


class MobsterView(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A mobster in play: its operations, the Law cards on it, and what became of its action this turn."""

    card: Annotated[str, Meta(description="the mobster: its card id")]
    operations: Annotated[list[str], Meta(description="the operation card ids attached to it")]
    law: Annotated[list[str], Meta(description="the Law Enforcement card ids on it")]
    has_action: Annotated[bool, Meta(description="whether it still has its action this turn")]
    deed: Annotated[Deed | None, Meta(description="what became of its action this turn; null while it has it")]


class SeatView(You):
    """A Mob Boss as the table sees it: money, how many cards in hand, income and mobsters in play."""

    # Not keyword-only, unlike You: msgspec lays out these fields first, so a seat's own follow them.
    seat: Annotated[int, Meta(description="the seat's number")]
    money: Annotated[int, Meta(description="its money, in dollars")]
    hand_count: Annotated[int, Meta(description="how many cards it holds")]
    income: Annotated[int, Meta(description="what its operations pay at Collection, in dollars")]
    mobsters: Annotated[list[MobsterView], Meta(description="its mobsters in play")]


class Reassigning(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A killed mobster's operations, waiting for its controller to give them away or discard them."""

    seat: Annotated[int, Meta(description="the dead mobster's controller")]
    operations: Annotated[list[str], Meta(description="the operation card ids to give away or discard")]


class StateView(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The turn, its phase and active seat, the deck's size, the discard pile and every seat; the deck's
    order once the game is over."""

    turn: Annotated[int, Meta(description="the current turn, from 1; 0 during the setup, before the first turn")]
    phase: Annotated[Phase, Meta(description="the phase of the turn")]
    active_seat: Annotated[int, Meta(description="the seat whose turn it is")]
    attendance_rule: Annotated[bool, Meta(description="whether the attendance rule is on")]
    deck_count: Annotated[int, Meta(description="how many cards the deck holds")]
    discard: Annotated[list[str], Meta(description="the discard pile's card ids")]
    reassigning: Annotated[
        Reassigning | None, Meta(description="a killed mobster's operations awaiting its controller; null: none")
    ]
    ended: Annotated[str | None, Meta(description="why the game ended; null while it goes on")]
    seats: Annotated[list[SeatView], Meta(description="every seat, by seat")]
    deck: (
        Annotated[list[str], Meta(description="the deck's card ids, top first: shown once the game is over")]
        | UnsetType
    ) = UNSET


def view(state: State, viewer: Viewer) -> StateView:
    """The public state of the game and every seat; EVERYONE also sees every hand and the deck's order."""
    everyone = viewer == EVERYONE
    reassigner = state.orphaned_by
    return StateView(
        turn=state.turn,
        phase=state.phase,
        active_seat=state.active,
        attendance_rule=state.attendance,
        deck_count=len(state.deck),
        discard=list(state.discard),
        reassigning=None if reassigner is None else Reassigning(seat=reassigner, operations=list(state.orphans)),
        ended=state.ended,
        seats=[_seat(state, s, everyone) for s in range(state.seats)],
        deck=list(state.deck) if everyone else UNSET,
    )


def _seat(state: State, seat: int, with_own: bool) -> SeatView:
    boss = state.bosses[seat]
    in_turn = seat == state.active and state.phase not in (Phase.SETUP, Phase.OVER)
    shown = SeatView(
        seat=seat,
        money=boss.money,
        hand_count=len(boss.hand),
        income=sum(i.amount + i.bonus for i in incomes(state, seat)),
        mobsters=[
            MobsterView(
                card=m.card,
                operations=list(m.operations),
                law=list(m.law),
                has_action=in_turn and can_act(m),
                deed=m.deed,
            )
            for m in boss.crew
        ],
    )
    return msgspec.structs.replace(shown, **msgspec.structs.asdict(you(state, seat))) if with_own else shown


def you(state: State, seat: int) -> You:
    """A seat's hand: nobody else sees it."""
    return You(hand=list(state.bosses[seat].hand))


SECRET_FIELDS: dict[type[Event], str] = {
    ev.DeckShuffled: "cards",
    ev.CardsDrawn: "cards",
    ev.ExtraCardBought: "card",
    ev.SetupDecided: "redeal",
}
"""The field of each event only its own seat (and EVERYONE) may see; the deck's order has no seat."""


def event_view(event: Event, viewer: Viewer) -> dict[str, Any]:
    """An event as a viewer may see it: drawn cards stay their drawer's, the deck's order EVERYONE's."""
    return redacted(event, viewer, SECRET_FIELDS)
