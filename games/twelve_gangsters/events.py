"""The facts of 12 Gangsters, in the order a round produces them (the move is in `moves.py`)."""

from __future__ import annotations

from games.base import Event


class BossChosen(Event, frozen=True):
    """Who holds the Boss token first: named in `options.first_boss`, or drawn at random."""

    type = "twelve_gangsters.boss_chosen"
    seat: int
    drawn: bool


class GangsterPlayed(Event, frozen=True):
    """A seat chose its gangster for the round; only that seat may see which."""

    type = "twelve_gangsters.gangster_played"
    seat: int
    card: int


class RoundRevealed(Event, frozen=True):
    """Every seat's gangster turned face up together, and what became of each."""

    type = "twelve_gangsters.round_revealed"
    round: int
    boss: int
    plays: tuple[int, ...]
    succeeded: tuple[int, ...]
    stopped: tuple[int, ...]


class BossPassed(Event, frozen=True):
    """The Boss token went to the next seat clockwise."""

    type = "twelve_gangsters.boss_passed"
    seat: int


EVENTS: tuple[type[Event], ...] = (BossChosen, GangsterPlayed, RoundRevealed, BossPassed)
