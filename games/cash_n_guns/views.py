"""What each viewer may see of a Ca$h 'n Guns game and of its events.

Public: the turn, the phase, the Godfather, the loot on the table, the token, and per seat its health,
how many bullet cards it holds, what it has done this turn, its aim once the window has closed, its
courage once revealed, and how many loot cards it holds. Private to a seat (and shown to EVERYONE): its
Bang!/Click split, its loaded card, its aim while the window is open, its courage choice, its loot cards.
The future piles are shown to EVERYONE only.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

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

    bang_cards: int | UnsetType = UNSET
    click_cards: int | UnsetType = UNSET
    loaded_card: Bullet | UnsetType | None = UNSET
    aiming_at: int | UnsetType | None = UNSET
    courage: bool | UnsetType | None = UNSET
    loot: list[str] | UnsetType = UNSET
    loot_value: int | UnsetType = UNSET


class SeatView(You):
    """A seat as the table sees it: its health, its bullet cards, what it has done this turn, and its loot count."""

    # Not keyword-only, unlike You: msgspec lays out these fields first, so a seat's own follow them.
    seat: int
    alive: bool
    wounds: int
    bullet_cards: int
    has_loaded: bool
    has_aimed: bool
    target: int | None
    has_chosen: bool
    stands: bool | None
    standing: bool
    loot_count: int


class StateView(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The turn and its phase, the Godfather, the loot on the table, and every seat; the future piles once
    the game is over."""

    turn: int
    turns: int
    phase: Phase
    godfather: int
    table_loot: list[str]
    godfather_token_available: bool
    godfather_token_taken_by: int | None
    piles_left: int
    lost_loot: list[str]
    ordered: int | None
    sharer: int | None
    last_shots: ev.ShotsResolved | None
    ended: str | None
    seats: list[SeatView]
    piles: list[list[str]] | UnsetType = UNSET


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
