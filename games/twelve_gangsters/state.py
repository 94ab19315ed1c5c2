"""The state of a 12 Gangsters game and its setup: every seat's hand and piles, this round's choices, the Boss."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from games.twelve_gangsters.events import RoundRevealed


class State(msgspec.Struct, frozen=True, kw_only=True):
    seats: int
    rounds: int
    first_boss: int | None
    hands: tuple[tuple[int, ...], ...]
    chosen: tuple[int | None, ...]
    succeeded: tuple[tuple[int, ...], ...]
    stopped: tuple[tuple[int, ...], ...]
    boss: int | None = None
    round: int = 1
    history: tuple[RoundRevealed, ...] = ()


MIN_SEATS, MAX_SEATS = 3, 6
GANGSTERS: tuple[int, ...] = tuple(range(1, 13))
"""The gangsters of one colour. A gangster is worth its number: a seat scores the numbers that succeed."""


def hand(seats: int) -> tuple[int, ...]:
    """What each seat holds, one gangster a round: all twelve, but 1-10 with five players (11 and 12 are out)."""
    return GANGSTERS[:10] if seats == 5 else GANGSTERS


def initial_state(seats: int, options: Mapping[str, Any]) -> State:
    """Each seat holds its colour's gangsters and plays one a round until they are gone."""
    return State(
        seats=seats,
        rounds=len(hand(seats)),
        first_boss=options.get("first_boss"),
        hands=(hand(seats),) * seats,
        chosen=(None,) * seats,
        succeeded=((),) * seats,
        stopped=((),) * seats,
    )
