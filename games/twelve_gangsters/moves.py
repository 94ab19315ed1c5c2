"""The one move of 12 Gangsters."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from games.base import Move


class Play(Move, frozen=True, tag="play"):
    """Choose this round's gangster, face down."""

    card: Annotated[int, Meta(description="the gangster played: its number, one still in the seat's hand")]


MOVES: tuple[type[Move], ...] = (Play,)
