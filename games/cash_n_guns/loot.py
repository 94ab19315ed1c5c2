"""The 64 loot cards of Ca$h 'n Guns, their values, and the end-of-game tally.

Every card has a stable id: `cash-<value>-<nn>`, `diamond-<value>-<n>`, `painting-<nn>`, `clip-<n>`,
`first-aid-<n>`. A card's kind and face value are read from its id, so the deck needs no lookup table.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from games.base import Result, rank_seats

BANKNOTES = {5000: 15, 10000: 15, 20000: 10}
DIAMONDS = {1000: 5, 5000: 3, 10000: 1}
PAINTINGS, CLIPS, FIRST_AID_KITS = 10, 3, 2
PAINTING_VALUES = (0, 4000, 12000, 30000, 60000, 100000, 150000, 200000, 300000, 400000, 500000)
"""The value of a seat's paintings by how many it holds (index = count)."""
DIAMOND_BONUS = 60000
CLIP_BANGS = 1
"""Bang! cards a clip adds to its taker's bullet cards, at once."""
KIT_HEALS = 1
"""Wounds a first-aid kit removes from its taker, at once (never below none)."""
PILES, PILE_SIZE = 8, 8


def _numbered(prefix: str, count: int, width: int) -> list[str]:
    return [f"{prefix}-{n:0{width}d}" for n in range(1, count + 1)]


def _build_deck() -> tuple[str, ...]:
    cards = [card for value, n in BANKNOTES.items() for card in _numbered(f"cash-{value}", n, 2)]
    cards += [card for value, n in DIAMONDS.items() for card in _numbered(f"diamond-{value}", n, 1)]
    cards += _numbered("painting", PAINTINGS, 2) + _numbered("clip", CLIPS, 1)
    return (*cards, *_numbered("first-aid", FIRST_AID_KITS, 1))


DECK: tuple[str, ...] = _build_deck()
"""Every loot card, in a fixed order; shuffled and dealt at the start of each game."""


@functools.cache  # asked millions of times a game by the bots' estimates, of a few dozen cards
def kind(card: str) -> str:
    """`cash`, `diamond`, `painting`, `clip` or `first-aid`."""
    return "first-aid" if card.startswith("first-aid") else card.split("-", 1)[0]


@functools.cache
def face_value(card: str) -> int:
    """The printed value of a banknote or a diamond; 0 for anything else."""
    return int(card.split("-")[1]) if kind(card) in ("cash", "diamond") else 0


def deal(deck: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """A shuffled deck cut into 8 piles of 8, one per turn."""
    return tuple(tuple(deck[i : i + PILE_SIZE]) for i in range(0, PILES * PILE_SIZE, PILE_SIZE))


def breakdown(loot: Sequence[str]) -> dict[str, int]:
    """What a seat's loot is worth, before the diamond bonus."""
    paintings = sum(kind(c) == "painting" for c in loot)
    return {
        "banknotes": sum(face_value(c) for c in loot if kind(c) == "cash"),
        "diamonds": sum(face_value(c) for c in loot if kind(c) == "diamond"),
        "diamond_cards": sum(kind(c) == "diamond" for c in loot),
        "paintings": PAINTING_VALUES[paintings],
        "painting_cards": paintings,
    }


def loot_value(loot: Sequence[str]) -> int:
    """Banknotes + diamonds + paintings, without the diamond bonus."""
    worth = breakdown(loot)
    return worth["banknotes"] + worth["diamonds"] + worth["paintings"]


def diamond_bonus_seat(loots: Sequence[Sequence[str]], alive: Sequence[bool]) -> int | None:
    """The living seat with strictly the most diamond cards (by count, not value); None on a tie or with none."""
    counts = {s: sum(kind(c) == "diamond" for c in loot) for s, loot in enumerate(loots) if alive[s]}
    best = max(counts.values(), default=0)
    if best == 0:
        return None
    leaders = [s for s, n in counts.items() if n == best]
    return leaders[0] if len(leaders) == 1 else None


def tally(loots: Sequence[Sequence[str]], alive: Sequence[bool], wounds: Sequence[int], ended: str) -> Result:
    """Only the living may win: by score, then by most wounds.

    A lone survivor wins outright and scores what it holds: the diamond bonus is a contest among several
    living seats, so with one seat alive nobody gets it."""
    survivors = [s for s in range(len(loots)) if alive[s]]
    bonus_seat = diamond_bonus_seat(loots, alive) if len(survivors) > 1 else None
    seats: list[dict[str, Any]] = []
    for s, loot in enumerate(loots):
        worth = breakdown(loot) if alive[s] else dict.fromkeys(breakdown(()), 0)
        bonus = DIAMOND_BONUS if s == bonus_seat else 0
        total = worth["banknotes"] + worth["diamonds"] + worth["paintings"] + bonus
        seats.append({"seat": s, "alive": alive[s], "wounds": wounds[s], **worth, "bonus": bonus, "total": total})
    details = {
        "seats": seats,
        "diamond_bonus": bonus_seat,
        "lone_survivor": survivors[0] if len(survivors) == 1 else None,
        "ended": ended,
    }
    return rank_seats(
        scores=[seat["total"] for seat in seats],
        tie_breakers=[("wounds", list(wounds))],
        eligible=list(alive),
        details=details,
    )
