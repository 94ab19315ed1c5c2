"""What each viewer may see of a Ca$h 'n Guns game and of its events.

Public: the turn, the phase, the Godfather, the loot on the table, the token, and per seat its health,
how many bullet cards it holds, what it has done this turn, its aim once the window has closed, its
courage once revealed, and how many loot cards it holds. Private to a seat (and shown to EVERYONE): its
Bang!/Click split, its loaded card, its aim while the window is open, its courage choice, its loot cards.
The future piles are shown to EVERYONE only.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import UNSET, Meta, UnsetType

from games.base import EVERYONE, Event, Viewer, redacted
from games.cash_n_guns import events as ev
from games.cash_n_guns.events import Bullet
from games.cash_n_guns.loot import loot_value
from games.cash_n_guns.state import TURNS, Phase, State

SECRET_FIELDS: dict[type[Event], str] = {
    ev.LootDealt: "piles",
    ev.BulletLoaded: "card",
    ev.Aimed: "target",
    ev.CourageChosen: "stand",
}
"""The field of each event only its own seat (and EVERYONE) may see; later events reveal it."""


class You(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A seat's own: its Bang!/Click split, its loaded card, its aim while the window is open, its courage
    choice and its loot cards. Shown to the seat under `you`, and to everyone in `seats` once the game is over."""

    bang_cards: Annotated[int, Meta(description="how many Bang! cards the seat holds")] | UnsetType = UNSET
    click_cards: Annotated[int, Meta(description="how many Click cards the seat holds")] | UnsetType = UNSET
    loaded_card: (
        Annotated[Bullet | None, Meta(description="the bullet card loaded this turn; null until it loads")] | UnsetType
    ) = UNSET
    aiming_at: Annotated[int | None, Meta(description="the seat it aims at this turn; null: nobody")] | UnsetType = (
        UNSET
    )
    courage: (
        Annotated[
            bool | None, Meta(description="its courage this turn: true stands, false lies down; null until it chooses")
        ]
        | UnsetType
    ) = UNSET
    loot: Annotated[list[str], Meta(description="the loot card ids it holds")] | UnsetType = UNSET
    loot_value: Annotated[int, Meta(description="what its loot is worth, in dollars")] | UnsetType = UNSET


class SeatView(You):
    """A seat as the table sees it: its health, its bullet cards, what it has done this turn, and its loot count."""

    # Not keyword-only, unlike You: msgspec lays out these fields first, so a seat's own follow them.
    seat: Annotated[int, Meta(description="the seat's number")]
    alive: Annotated[bool, Meta(description="whether the seat is still alive")]
    wounds: Annotated[int, Meta(description="how many wounds it has taken")]
    bullet_cards: Annotated[int, Meta(description="how many bullet cards it holds")]
    has_loaded: Annotated[bool, Meta(description="whether it has loaded this turn")]
    has_aimed: Annotated[bool, Meta(description="whether it has aimed this turn")]
    target: Annotated[int | None, Meta(description="the seat it aims at, once the window has closed; else null")]
    has_chosen: Annotated[bool, Meta(description="whether it has chosen its courage this turn")]
    stands: Annotated[
        bool | None, Meta(description="its courage once revealed: true stands, false lies down; else null")
    ]
    standing: Annotated[bool, Meta(description="whether it stands in this turn's sharing (it takes loot)")]
    loot_count: Annotated[int, Meta(description="how many loot cards it holds")]


class StateView(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The turn and its phase, the Godfather, the loot on the table, and every seat; the future piles once
    the game is over."""

    turn: Annotated[int, Meta(description="the current turn, from 1")]
    turns: Annotated[int, Meta(description="how many turns the game has")]
    phase: Annotated[Phase, Meta(description="the phase of the turn")]
    godfather: Annotated[
        int, Meta(description="the Godfather's seat (0 at turn 0, before the first Godfather is chosen)")
    ]
    table_loot: Annotated[list[str], Meta(description="the loot card ids on the table")]
    godfather_token_available: Annotated[
        bool, Meta(description="whether the New Godfather token may be taken this turn")
    ]
    godfather_token_taken_by: Annotated[
        int | None, Meta(description="the seat that took the New Godfather token this turn; null: none has")
    ]
    piles_left: Annotated[int, Meta(description="how many loot piles are left for the turns to come")]
    lost_loot: Annotated[list[str], Meta(description="loot card ids out of the game for good")]
    ordered: Annotated[int | None, Meta(description="the seat the Godfather ordered to change target; null: none")]
    sharer: Annotated[int | None, Meta(description="the seat whose pick it is in the sharing; null outside it")]
    last_shots: Annotated[ev.ShotsResolved | None, Meta(description="the last turn's shots; null before the first")]
    ended: Annotated[str | None, Meta(description="why the game ended; null while it goes on")]
    seats: Annotated[list[SeatView], Meta(description="every seat, by seat")]
    piles: (
        Annotated[list[list[str]], Meta(description="the loot piles of the turns to come: shown once the game is over")]
        | UnsetType
    ) = UNSET


def view(state: State, viewer: Viewer) -> StateView:
    """The public state of the game and every seat; EVERYONE also sees every seat's own and the future piles."""
    everyone = viewer == EVERYONE
    return StateView(
        turn=state.turn,
        turns=TURNS,
        phase=state.phase,
        godfather=state.godfather,
        table_loot=list(state.table_loot),
        godfather_token_available=state.token_available,
        godfather_token_taken_by=state.token_taker,
        piles_left=len(state.piles),
        lost_loot=list(state.lost),
        ordered=state.ordered,
        sharer=state.sharer,
        last_shots=state.last_shots,
        ended=state.ended,
        seats=[_seat(state, s, everyone) for s in range(state.seats)],
        piles=[list(pile) for pile in state.piles] if everyone else UNSET,
    )


def _seat(state: State, seat: int, with_own: bool) -> SeatView:
    gangster = state.gangsters[seat]
    window_closed = state.phase not in (Phase.LOAD, Phase.AIM)
    revealed = state.phase in (Phase.BULLETS, Phase.SHARING, Phase.OVER)
    shown = SeatView(
        seat=seat,
        alive=gangster.alive,
        wounds=gangster.wounds,
        bullet_cards=gangster.bangs + gangster.clicks,
        has_loaded=gangster.loaded is not None,
        has_aimed=gangster.aimed,
        target=gangster.target if window_closed else None,
        has_chosen=gangster.stand is not None,
        stands=gangster.stand if revealed else None,
        standing=gangster.standing,
        loot_count=len(gangster.loot),
    )
    return msgspec.structs.replace(shown, **msgspec.structs.asdict(you(state, seat))) if with_own else shown


def you(state: State, seat: int) -> You:
    """A seat's secrets: its bullet cards, its loaded card, its aim and courage, its loot."""
    gangster = state.gangsters[seat]
    return You(
        bang_cards=gangster.bangs,
        click_cards=gangster.clicks,
        loaded_card=gangster.loaded,
        aiming_at=gangster.target,
        courage=gangster.stand,
        loot=list(gangster.loot),
        loot_value=loot_value(gangster.loot),
    )


def event_view(event: Event, viewer: Viewer) -> dict[str, Any]:
    """An event as a viewer may see it: a seat's secret stays its own until a later event reveals it."""
    return redacted(event, viewer, SECRET_FIELDS)
