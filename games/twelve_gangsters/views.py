"""What each viewer may see of a 12 Gangsters game and of its events.

Public: the round, the Boss, and per seat how many gangsters it holds, whether it has chosen this round, its
piles (face-up gangsters that succeeded, face-down ones that were stopped), its score, and the last round
revealed. Private to a seat (and shown to EVERYONE): its hand and the gangster it chose this round.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import UNSET, Meta, UnsetType

from games.base import EVERYONE, Event, Viewer, redacted
from games.twelve_gangsters.events import GangsterPlayed, RoundRevealed
from games.twelve_gangsters.state import State


class You(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A seat's own: its hand and the gangster it chose this round (null until it chooses). Shown to the seat
    under `you`, and to everyone in `seats` once the game is over."""

    hand: Annotated[list[int], Meta(description="the gangsters the seat still holds")] | UnsetType = UNSET
    chosen: (
        Annotated[int | None, Meta(description="the gangster it chose this round; null until it chooses")] | UnsetType
    ) = UNSET


class SeatView(You):
    """A seat's piles: face-up gangsters that succeeded, face-down ones that were stopped."""

    # Not keyword-only, unlike You: msgspec lays out these fields first, so a seat's own follow its piles.
    seat: Annotated[int, Meta(description="the seat's number")]
    cards_left: Annotated[int, Meta(description="how many gangsters it still holds")]
    has_chosen: Annotated[bool, Meta(description="whether it has chosen its gangster this round")]
    succeeded: Annotated[list[int], Meta(description="its face-up pile: gangsters that succeeded")]
    stopped: Annotated[list[int], Meta(description="its face-down pile: gangsters that were stopped")]
    score: Annotated[int, Meta(description="the sum of its gangsters that succeeded")]


class StateView(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The round, the Boss, every seat's piles, and the last round revealed."""

    round: Annotated[int, Meta(description="the current round, from 1")]
    rounds: Annotated[int, Meta(description="how many rounds the game has")]
    boss: Annotated[int | None, Meta(description="the seat that holds the Boss token; null before the first is chosen")]
    seats: Annotated[list[SeatView], Meta(description="every seat's piles, by seat")]
    last_round: Annotated[RoundRevealed | None, Meta(description="the last round revealed; null before the first")]


def view(state: State, viewer: Viewer) -> StateView:
    """Public: piles, scores, who has chosen; EVERYONE also sees every seat's own (`you`)."""
    return StateView(
        round=min(state.round, state.rounds),
        rounds=state.rounds,
        boss=state.boss,
        seats=[_seat(state, s, viewer == EVERYONE) for s in range(state.seats)],
        last_round=state.history[-1] if state.history else None,
    )


def _seat(state: State, seat: int, with_own: bool) -> SeatView:
    shown = SeatView(
        seat=seat,
        cards_left=len(state.hands[seat]),
        has_chosen=state.chosen[seat] is not None,
        succeeded=list(state.succeeded[seat]),
        stopped=list(state.stopped[seat]),
        score=sum(state.succeeded[seat]),
    )
    return msgspec.structs.replace(shown, **msgspec.structs.asdict(you(state, seat))) if with_own else shown


def you(state: State, seat: int) -> You:
    """A seat's hand and its choice: nobody else sees them."""
    return You(hand=list(state.hands[seat]), chosen=state.chosen[seat])


SECRET_FIELDS: dict[type[Event], str] = {GangsterPlayed: "card"}
"""A chosen gangster is the chooser's secret until the round is revealed."""


def event_view(event: Event, viewer: Viewer) -> dict[str, Any]:
    """A chosen gangster is the chooser's secret until the round is revealed."""
    return redacted(event, viewer, SECRET_FIELDS)
