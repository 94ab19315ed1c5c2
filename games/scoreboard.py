"""What an arena's games say of each bot kind: its wins against its fair share, with 95% intervals, and how long
its decisions took.

A kind's games are its seats' games: a kind in two seats of a game plays it twice. A shared victory counts as a win
for each winner, so the kinds' win rates may add up to more than 1. The interval is Wilson's over those seat-games,
as if they were independent; two seats of one kind in one game are not quite, so read it as a little narrow there.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.base import Result
from games.wilson import wilson


@dataclass(frozen=True)
class KindScore:
    kind: str
    games: int
    """Seat-games: each seat the kind took in each game."""
    wins: int
    win_rate: float
    low: float
    high: float
    """The win rate's 95% interval (Wilson)."""
    fair_share: float
    """1 / seats: what any kind wins at a table of equals."""
    decisions: int
    mean_s: float | None
    p99_s: float | None
    """Each bot call's time in seconds, mean and 99th percentile (None: not timed)."""

    @property
    def vs_fair(self) -> tuple[float, float, float]:
        """The win rate and its interval, each over the fair share."""
        return self.win_rate / self.fair_share, self.low / self.fair_share, self.high / self.fair_share


def score(
    games: Iterable[tuple[Sequence[str], Result]], times: Iterable[tuple[str, float]] = ()
) -> dict[str, KindScore]:
    """Each kind's score over these games (the kind in each seat, and the game's result), with its bot calls'
    `times` (kind, seconds); kinds in the order they were first seated."""
    seat_games: dict[str, int] = {}
    wins: dict[str, int] = {}
    seats = 0
    for kinds, result in games:
        seats = len(kinds)
        for seat, kind in enumerate(kinds):
            seat_games[kind] = seat_games.get(kind, 0) + 1
            wins[kind] = wins.get(kind, 0) + (seat in result.winners)
    taken: dict[str, list[float]] = {}
    for kind, seconds in times:
        taken.setdefault(kind, []).append(seconds)
    board = {}
    for kind, played in seat_games.items():
        low, high = wilson(wins[kind], played)
        calls = sorted(taken.get(kind, []))
        board[kind] = KindScore(
            kind=kind,
            games=played,
            wins=wins[kind],
            win_rate=wins[kind] / played,
            low=low,
            high=high,
            fair_share=1 / seats,
            decisions=len(calls),
            mean_s=sum(calls) / len(calls) if calls else None,
            p99_s=percentile(calls, 0.99) if calls else None,
        )
    return board


def percentile(ordered: Sequence[float], q: float) -> float:
    """The nearest-rank percentile of sorted values: the smallest one at least a fraction `q` of them reach."""
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]
