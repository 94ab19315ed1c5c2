"""The state of a Ca$h 'n Guns game, its setup, and the questions the rules ask of it (`evolve.py` changes it)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

import msgspec

from games.cash_n_guns import events as ev

TURNS = 8
START_BANGS, START_CLICKS = 3, 5
DEAD_AT = 3
"""Wounds that kill."""
BANG_WOUNDS = 1
"""Wounds one Bang! deals when it is fired; a Click deals none."""


class Phase(StrEnum):
    """Where a turn stands. `between_turns`, `bullets` never last beyond the command that reached them."""

    BETWEEN_TURNS = "between_turns"
    LOAD = "load"
    AIM = "aim"
    PRIVILEGE = "privilege"
    RETARGET = "retarget"
    COURAGE = "courage"
    BULLETS = "bullets"
    SHARING = "sharing"
    OVER = "over"


class Gangster(msgspec.Struct, frozen=True, kw_only=True):
    """One seat: its health, bullet cards in hand, this turn's choices and its loot."""

    alive: bool = True
    wounds: int = 0
    bangs: int = START_BANGS
    clicks: int = START_CLICKS
    loaded: ev.Bullet | None = None
    aimed: bool = False
    target: int | None = None
    stand: bool | None = None
    standing: bool = False
    loot: tuple[str, ...] = ()


class State(msgspec.Struct, frozen=True, kw_only=True):
    seats: int
    first_godfather: int | None
    aim_window_s: int
    gangsters: tuple[Gangster, ...]
    piles: tuple[tuple[str, ...], ...] = ()
    table_loot: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()
    """Loot out of the game for good: left untaken after the 8th turn, or on the table when the game ended."""
    godfather: int = 0
    turn: int = 0
    phase: Phase = Phase.BETWEEN_TURNS
    token_available: bool = False
    token_taker: int | None = None
    ordered: int | None = None
    sharer: int | None = None
    last_shots: ev.ShotsResolved | None = None
    ended: str | None = None


def initial_state(seats: int, options: Mapping[str, Any]) -> State:
    """Each seat holds 5 Click and 3 Bang! cards and no wound; nothing is dealt yet."""
    return State(
        seats=seats,
        first_godfather=options.get("first_godfather"),
        aim_window_s=options.get("aim_window_s") or 15,
        gangsters=(Gangster(),) * seats,
    )


# --- questions about a state ------------------------------------------------------------------------------


def living(state: State) -> list[int]:
    """The seats still alive, in seat order."""
    return [s for s, g in enumerate(state.gangsters) if g.alive]


def clockwise_from(state: State, seat: int, *, inclusive: bool) -> list[int]:
    """Every seat in clockwise order starting at `seat` (or just after it)."""
    start = seat if inclusive else seat + 1
    return [(start + step) % state.seats for step in range(state.seats)]


def next_standing(state: State, seat: int, *, inclusive: bool) -> int | None:
    """The nearest standing seat clockwise from `seat`, None if nobody stands (asked after every pick of a sharing:
    a loop, not `clockwise_from`'s list)."""
    start, gangsters = seat if inclusive else seat + 1, state.gangsters
    for step in range(state.seats):
        if gangsters[(start + step) % state.seats].standing:
            return (start + step) % state.seats
    return None


def alternative_targets(state: State, seat: int) -> list[int]:
    """Where an ordered seat may aim instead: a living seat other than itself and its current target."""
    current = state.gangsters[seat].target
    return [t for t in living(state) if t not in (seat, current)]


def orderable(state: State) -> list[int]:
    """The seats the Godfather may order: other living seats aiming at someone, with somewhere else to aim."""
    return [
        s
        for s in living(state)
        if s != state.godfather and state.gangsters[s].target is not None and alternative_targets(state, s)
    ]


def next_godfather(state: State) -> int:
    """The token's taker; else the Godfather stays; a dead Godfather passes to the nearest living seat clockwise."""
    if state.token_taker is not None:
        return state.token_taker
    if state.gangsters[state.godfather].alive:
        return state.godfather
    return next(s for s in clockwise_from(state, state.godfather, inclusive=False) if state.gangsters[s].alive)
