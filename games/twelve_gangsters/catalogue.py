"""12 Gangsters' cards with their numbers, read from the rules: a gangster's id is its number and its value."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from games.base import Catalogue, CatalogueCard, Constant
from games.twelve_gangsters.state import GANGSTERS, MAX_SEATS, MIN_SEATS, hand

PLAYERS = range(MIN_SEATS, MAX_SEATS + 1)


class Entry(CatalogueCard, kw_only=True):
    """A gangster: how many of it a seat holds, and in which games."""

    per_seat: Annotated[int, Meta(description="how many each seat holds at the start")]
    players: Annotated[list[int], Meta(description="the player counts whose games use the card (12 Gangsters)")]


CATALOGUE = Catalogue(
    cards=tuple(
        Entry(
            id=gangster,
            kind="gangster",
            name=f"gangster {gangster}",
            value=gangster,
            per_seat=1,
            players=[n for n in PLAYERS if gangster in hand(n)],
        )
        for gangster in GANGSTERS
    ),
    kinds={
        "gangster": "each seat holds one of each, in its colour, and plays one face down a round; a gangster "
        "below the Boss's succeeds, above it is stopped, equal to it succeeds and stops the Boss's (the Boss "
        "succeeds when nobody equals it). A seat scores the values of its gangsters that succeed.",
    },
    constants={
        "rounds": Constant(
            {str(n): len(hand(n)) for n in PLAYERS},
            "rounds by number of players: one gangster a round, so also how many each seat holds",
        ),
    },
)
"""Built from GANGSTERS and `hand`, which `initial_state` deals from."""
