"""The facts of 12 Gangsters, in the order a round produces them (the move is in `moves.py`)."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from games.base import Event


class BossChosen(Event, frozen=True):
    """Who holds the Boss token first: named in `options.first_boss`, or drawn at random."""

    type = "twelve_gangsters.boss_chosen"
    seat: Annotated[int, Meta(description="the seat that holds the Boss token first")]
    drawn: Annotated[bool, Meta(description="whether it was drawn at random (no `first_boss` set)")]


class GangsterPlayed(Event, frozen=True):
    """A seat chose its gangster for the round; only that seat may see which."""

    type = "twelve_gangsters.gangster_played"
    seat: Annotated[int, Meta(description="the seat that chose")]
    card: Annotated[int, Meta(description="the gangster chosen, face down: seen by its seat only until the end")]


class RoundRevealed(Event, frozen=True):
    """Every seat's gangster turned face up together, and what became of each."""

    type = "twelve_gangsters.round_revealed"
    round: Annotated[int, Meta(description="the round revealed, from 1")]
    boss: Annotated[int, Meta(description="the seat that held the Boss token this round")]
    plays: Annotated[tuple[int, ...], Meta(description="each seat's gangster, by seat")]
    succeeded: Annotated[tuple[int, ...], Meta(description="the seats whose gangster succeeded (face up, scored)")]
    stopped: Annotated[tuple[int, ...], Meta(description="the seats whose gangster was stopped (face down, unscored)")]


class BossPassed(Event, frozen=True):
    """The Boss token went to the next seat clockwise."""

    type = "twelve_gangsters.boss_passed"
    seat: Annotated[int, Meta(description="the seat that holds the Boss token now")]


EVENTS: tuple[type[Event], ...] = (BossChosen, GangsterPlayed, RoundRevealed, BossPassed)
