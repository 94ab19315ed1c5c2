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

from games.base import EVERYONE, Event, Viewer, redacted
from games.cash_n_guns import events as ev
from games.cash_n_guns.loot import loot_value
from games.cash_n_guns.state import TURNS, Phase, State

SECRET_FIELDS: dict[type[Event], str] = {
    ev.LootDealt: "piles",
    ev.BulletLoaded: "card",
    ev.Aimed: "target",
    ev.CourageChosen: "stand",
}
"""The field of each event only its own seat (and EVERYONE) may see; later events reveal it."""


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """The public state of the game and every seat; a seat also gets its own secrets under `you`."""
    body: dict[str, Any] = {
        "turn": state.turn,
        "turns": TURNS,
        "phase": str(state.phase),
        "godfather": state.godfather,
        "table_loot": list(state.table_loot),
        "godfather_token_available": state.token_available,
        "godfather_token_taken_by": state.token_taker,
        "piles_left": len(state.piles),
        "lost_loot": list(state.lost),
        "ordered": state.ordered,
        "sharer": state.sharer,
        "last_shots": msgspec.to_builtins(state.last_shots) if state.last_shots else None,
        "ended": state.ended,
        "seats": [_public(state, s) | (_private(state, s) if viewer == EVERYONE else {}) for s in range(state.seats)],
    }
    if viewer == EVERYONE:
        body["piles"] = [list(pile) for pile in state.piles]
    if isinstance(viewer, int):
        body["you"] = _private(state, viewer)
    return body


def _public(state: State, seat: int) -> dict[str, Any]:
    gangster = state.gangsters[seat]
    window_closed = state.phase not in (Phase.LOAD, Phase.AIM)
    revealed = state.phase in (Phase.BULLETS, Phase.SHARING, Phase.OVER)
    return {
        "seat": seat,
        "alive": gangster.alive,
        "wounds": gangster.wounds,
        "bullet_cards": gangster.bangs + gangster.clicks,
        "has_loaded": gangster.loaded is not None,
        "has_aimed": gangster.aimed,
        "target": gangster.target if window_closed else None,
        "has_chosen": gangster.stand is not None,
        "stands": gangster.stand if revealed else None,
        "standing": gangster.standing,
        "loot_count": len(gangster.loot),
    }


def _private(state: State, seat: int) -> dict[str, Any]:
    gangster = state.gangsters[seat]
    return {
        "bang_cards": gangster.bangs,
        "click_cards": gangster.clicks,
        "loaded_card": gangster.loaded,
        "aiming_at": gangster.target,
        "courage": gangster.stand,
        "loot": list(gangster.loot),
        "loot_value": loot_value(gangster.loot),
    }


def event_view(event: Event, viewer: Viewer) -> dict[str, Any]:
    """An event as a viewer may see it: a seat's secret stays its own until a later event reveals it."""
    return redacted(event, viewer, SECRET_FIELDS)
