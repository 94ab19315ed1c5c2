"""The one move of 12 Gangsters."""

from __future__ import annotations

from games.base import Move


class Play(Move, frozen=True, tag="play"):
    """Choose this round's gangster, face down."""

    card: int


MOVES: tuple[type[Move], ...] = (Play,)
