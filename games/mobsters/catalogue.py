"""Every Mobsters card with its amount and the mobsters' bonuses, read from the card tables and `bonus`, which the
rules pay by, and the rules' prices and dice."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import UNSET, Meta, UnsetType

from games.base import Catalogue, CatalogueCard, Constant
from games.mobsters.cards import CARDS, DECK, PETTY_CRIMES, Card, Kind, bonus
from games.mobsters.state import (
    ABSENT_FROM,
    BRIBE_PRICE,
    DRAWS,
    EXTRA_CARD_PRICE,
    HAND,
    HAND_LIMIT,
    KILLS_FROM,
    START_MONEY,
)

MOBSTERS = [card for card in DECK if CARDS[card].kind is Kind.MOBSTER]


class Boost(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A mobster that earns more on a card, and how much more."""

    mobster: Annotated[str, Meta(description="a mobster card id")]
    bonus: Annotated[int, Meta(description="dollars more when that mobster holds or commits this card")]


class Entry(CatalogueCard, kw_only=True):
    """A card: its family, and whom a bonus links it to, either way."""

    family: (
        Annotated[
            str, Meta(description="Mobsters: the family of an operation or crime, or the one a mobster earns more on")
        ]
        | UnsetType
    ) = UNSET
    bonus: Annotated[int, Meta(description="a mobster's extra dollars on each card of its family")] | UnsetType = UNSET
    boosts: Annotated[list[str], Meta(description="the operations and crimes a mobster earns more on")] | UnsetType = (
        UNSET
    )
    boosted_by: Annotated[list[Boost], Meta(description="the mobsters that earn more on this card")] | UnsetType = UNSET


def _card(card: Card) -> Entry:
    """A card's entry: its amount as `value`, its family, and whom a bonus links it to, either way."""
    boosting = card.kind is Kind.MOBSTER and card.bonus
    boosted_by = [Boost(mobster=m, bonus=bonus(m, card.id)) for m in MOBSTERS if m != card.id and bonus(m, card.id)]
    return Entry(
        id=card.id,
        kind=str(card.kind),
        name=card.name,
        value=card.amount,
        family=UNSET if card.family is None else card.family,
        bonus=card.bonus if boosting else UNSET,
        boosts=[target for target in DECK if target != card.id and bonus(card.id, target)] if boosting else UNSET,
        boosted_by=boosted_by or UNSET,
    )


CATALOGUE = Catalogue(
    cards=tuple(_card(CARDS[card]) for card in DECK),
    kinds={
        str(Kind.MOBSTER): "put into play, it has one action a turn; it earns `bonus` dollars more on each operation "
        "it holds and each crime it commits of its `family` (`boosts`)",
        str(Kind.ARMED_ROBBERY): "discarded by a mobster's action to collect `value` dollars from the bank, plus "
        "the mobster's bonus",
        str(Kind.MAJOR_CRIME): "discarded by a mobster's action to collect `value` dollars from the bank, plus the "
        "mobster's bonus",
        str(Kind.OPERATION): "attached to a mobster, it pays `value` dollars (plus the holder's bonus) each "
        "Collection phase while the holder has no Law card",
        str(Kind.LAW): "placed on a rival's mobster: while any is on it, the mobster has no action and collects "
        "no income",
        str(Kind.ESCAPE): "discarded to remove one Law card from one of your mobsters",
        str(Kind.DESTROY): "discarded by a mobster's action to discard an operation of another seat",
        str(Kind.COST): "played on a rival, who pays `value` dollars to the bank (money may go below zero)",
        str(Kind.HIT): "discarded by a mobster's action on a rival's mobster, then a die is rolled: `kills_from` "
        "or more kills it",
    },
    constants={
        "start_money": Constant(START_MONEY, "dollars each seat starts with"),
        "hand": Constant(HAND, "cards dealt to each seat, and drawn again on a redeal"),
        "draws": Constant(DRAWS, "cards drawn at the start of a turn"),
        "hand_limit": Constant(HAND_LIMIT, "cards a seat may keep after the Draw phase"),
        "extra_card_price": Constant(EXTRA_CARD_PRICE, "dollars a mobster's action pays for an extra card"),
        "bribe_price": Constant(BRIBE_PRICE, "dollars a mobster's action pays to remove a Law card"),
        "kills_from": Constant(KILLS_FROM, "a hit's die roll from which the target is killed (up to 6)"),
        "absent_from": Constant(ABSENT_FROM, "the attendance roll from which a mobster loses its action (option)"),
        "petty_crimes": Constant(
            {str(roll): {"crime": crime, "value": amount} for roll, (crime, amount) in PETTY_CRIMES.items()},
            "a petty crime's die roll, the crime and the dollars it brings (a mobster with no operation)",
        ),
    },
)
"""Built from CARDS and `bonus`: the same table and function `decide` and the income use."""
