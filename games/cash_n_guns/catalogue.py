"""Ca$h 'n Guns' loot cards, bullet cards and the New Godfather token, with their numbers, read from the rules."""

from __future__ import annotations

from typing import Annotated, Any, get_args

from msgspec import UNSET, Meta, UnsetType

from games.base import Catalogue, CatalogueCard, Constant
from games.cash_n_guns.events import Bullet
from games.cash_n_guns.loot import (
    CLIP_BANGS,
    DECK,
    DIAMOND_BONUS,
    KIT_HEALS,
    PAINTING_VALUES,
    PILE_SIZE,
    PILES,
    face_value,
    kind,
)
from games.cash_n_guns.state import BANG_WOUNDS, DEAD_AT, START_BANGS, START_CLICKS, TURNS

TOKEN = "godfather_token"
"""The token's name where a client meets it: the `take` move's field, the view's `godfather_token_*`."""


class Entry(CatalogueCard, kw_only=True):
    """A loot card, a bullet card or the token: what a bullet card does, and what a clip or a kit does at once."""

    per_seat: Annotated[int, Meta(description="how many each seat holds at the start")] | UnsetType = UNSET
    wounds: Annotated[int, Meta(description="wounds the bullet card deals when fired (Ca$h 'n Guns)")] | UnsetType = (
        UNSET
    )
    bangs: Annotated[int, Meta(description="Bang! cards a clip adds to its taker's, at once")] | UnsetType = UNSET
    heals: Annotated[int, Meta(description="wounds a first-aid kit removes from its taker, at once")] | UnsetType = (
        UNSET
    )


LOOT_NAMES = {"painting": "painting", "clip": "clip", "first-aid": "first-aid kit"}
BULLETS: dict[str, dict[str, Any]] = {
    "bang": {"name": "Bang!", "per_seat": START_BANGS, "wounds": BANG_WOUNDS},
    "click": {"name": "Click", "per_seat": START_CLICKS, "wounds": 0},
}
EFFECTS: dict[str, dict[str, int]] = {"clip": {"bangs": CLIP_BANGS}, "first-aid": {"heals": KIT_HEALS}}


def _loot(card: str) -> Entry:
    value = face_value(card)
    name = LOOT_NAMES.get(kind(card)) or f"${value:,} {'banknote' if kind(card) == 'cash' else 'diamond'}"
    return Entry(id=card, kind=kind(card), name=name, value=value, **EFFECTS.get(kind(card), {}))


CATALOGUE = Catalogue(
    cards=(
        *(_loot(card) for card in DECK),
        *(Entry(id=bullet, kind="bullet", value=0, **BULLETS[bullet]) for bullet in get_args(Bullet)),
        Entry(id=TOKEN, kind="token", name="New Godfather token", value=0),
    ),
    kinds={
        "cash": "a banknote, worth its value in dollars",
        "diamond": "worth its value in dollars; the living seat with the most diamond cards also gets the "
        "diamond bonus",
        "painting": "worth nothing alone: a seat's paintings score together, by how many it holds (`painting_values`)",
        "clip": "when taken, at once adds `bangs` Bang! cards to its taker's bullet cards; then worth nothing",
        "first-aid": "when taken, at once removes `heals` wound from its taker, if any; then worth nothing",
        "bullet": "`per_seat` of each in every seat's hand at the start, one loaded face down a turn and spent; "
        "a fired Bang! deals `wounds` wounds to its target, a Click none (in `cash_n_guns.shots_resolved`, "
        "`discarded` stands for a card discarded unseen)",
        "token": "a pick of the sharing instead of a loot card, once a turn: its taker is Godfather from the "
        "next turn on; worth nothing",
    },
    constants={
        "painting_values": Constant(
            list(PAINTING_VALUES), "dollars a seat's paintings are worth together, by how many it holds (index)"
        ),
        "diamond_bonus": Constant(
            DIAMOND_BONUS,
            "dollars to the living seat with strictly the most diamond cards (by count, not value) while several "
            "seats live; a tie, or no diamond: nobody",
        ),
        "turns": Constant(TURNS, "turns in a game, one loot pile revealed each"),
        "piles": Constant({"piles": PILES, "cards": PILE_SIZE}, "the loot deck is dealt into piles of cards"),
        "wounds_to_die": Constant(DEAD_AT, "wounds that kill a seat; its loot leaves the game with it"),
    },
)
"""Built from the loot deck, `face_value`, and the constants `evolve` and the tally use."""
