"""How each fact of 12 Gangsters changes the state: `evolve`, one small function per event type."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from games.base import Event, dispatcher
from games.twelve_gangsters.events import BossChosen, BossPassed, GangsterPlayed, RoundRevealed
from games.twelve_gangsters.state import State

T = TypeVar("T")


def _set(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """The values with the one at `index` replaced."""
    return (*values[:index], value, *values[index + 1 :])


def _revealed(state: State, event: RoundRevealed) -> State:
    """The played gangsters leave the hands for the piles: face up if they succeeded, face down if stopped."""
    plays, succeeded = event.plays, event.succeeded
    return msgspec.structs.replace(
        state,
        hands=tuple(tuple(c for c in hand if c != plays[s]) for s, hand in enumerate(state.hands)),
        chosen=(None,) * state.seats,
        succeeded=tuple(p + ((plays[s],) if s in succeeded else ()) for s, p in enumerate(state.succeeded)),
        stopped=tuple(p + (() if s in succeeded else (plays[s],)) for s, p in enumerate(state.stopped)),
        round=state.round + 1,
        history=(*state.history, event),
    )


_replace = msgspec.structs.replace
EVOLVERS: dict[type[Event], Callable[[State, Any], State]] = {
    BossChosen: lambda s, e: _replace(s, boss=e.seat),
    GangsterPlayed: lambda s, e: _replace(s, chosen=_set(s.chosen, e.seat, e.card)),
    RoundRevealed: _revealed,
    BossPassed: lambda s, e: _replace(s, boss=e.seat),
}
"""How each fact changes the state, by event type."""

evolve = dispatcher(EVOLVERS, "12 Gangsters")
"""The state after one fact."""
