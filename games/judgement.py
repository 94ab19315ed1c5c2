"""What a judge of the game says of a seat's position: its chance to win now, after each of its legal moves, and
the move the strongest bot would make. The search (a bot that plays out what a seat's view could hide) answers one;
a finished game's review (service/application/review.py) asks one for each decision of each seat."""

from __future__ import annotations

from typing import Any

import msgspec


class Judged(msgspec.Struct, frozen=True):
    """A legal move, the seat's estimated chance to win once it is made, and how many of the judge's samples
    tried it (0: not told)."""

    move: dict[str, Any]
    chance: float
    visits: int = 0


class Judgement(msgspec.Struct, frozen=True):
    """A seat's position as a judge sees it from the seat's own view: `chance`, its estimated chance to win now
    (0 to 1); `moves`, each legal move with the chance after it; `best`, the move the strongest bot would make,
    drawn from `policy` (where the choice is hidden, a mix: see games/mixing.py); `iterations`, how many samples
    the judge took (0: not told)."""

    chance: float
    moves: tuple[Judged, ...]
    best: dict[str, Any]
    policy: tuple[tuple[dict[str, Any], float], ...] = ()
    iterations: int = 0

    def chance_after(self, move: dict[str, Any]) -> float | None:
        """The judged chance after this move (however its fields are ordered, its lists typed); None if the judge
        did not weigh it."""
        wanted = canonical(move)
        return next((m.chance for m in self.moves if canonical(m.move) == wanted), None)


def canonical(move: dict[str, Any]) -> bytes:
    """A move body as JSON with its keys sorted: two spellings of one move are the same bytes."""
    return msgspec.json.encode(move, order="sorted")
