"""Mobsters' catalogue against the rules: every card of the shuffled deck, and each crime, operation, cost and
petty crime paying what the catalogue says, with the bonus of the mobsters it names and of no other."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from games.mobsters import RULESET
from games.mobsters import events as ev
from games.mobsters.cards import kind
from games.mobsters.moves import Charge, CommitCrime, EndPhase, PettyCrime
from tests.games.helpers import created, when
from tests.games.mobsters_helpers import game, mobster, money, rolled

CARDS = {card["id"]: card for card in msgspec.to_builtins(RULESET.catalogue.cards)}
CONSTANTS = {name: constant.value for name, constant in RULESET.catalogue.constants.items()}
PINKY = mobster("Pinky")
"""A mobster with no bonus."""


def of(*kinds: str) -> list[str]:
    return [card for card, entry in CARDS.items() if entry["kind"] in kinds]


def boost(card: str, by: str) -> int:
    """What the catalogue says this mobster earns more on this card."""
    return next((b["bonus"] for b in CARDS[card].get("boosted_by", ()) if b["mobster"] == by), 0)


def earners(card: str) -> list[str]:
    """The mobsters the catalogue says earn more on the card, and one that does not."""
    return [*(b["mobster"] for b in CARDS[card].get("boosted_by", ())), PINKY]


def test_the_shuffled_deck_is_the_catalogue_card_for_card() -> None:
    for seed in range(3):
        shuffled = next(e for e in created(RULESET, 3, seed=seed) if isinstance(e, ev.DeckShuffled))
        assert sorted(shuffled.cards) == sorted(CARDS)
        assert all(CARDS[card]["kind"] == kind(card) for card in shuffled.cards)


def test_what_a_mobster_boosts_is_what_boosts_it() -> None:
    for card, entry in CARDS.items():
        for target in entry.get("boosts", ()):
            assert boost(target, card) == entry["bonus"] > 0
        for booster in entry.get("boosted_by", ()):
            assert card in CARDS[booster["mobster"]]["boosts"]
            assert CARDS[booster["mobster"]]["family"] == entry["family"]


@pytest.mark.parametrize("crime", of("crime", "robbery"))
def test_a_crime_pays_its_value_and_the_catalogues_bonus(crime: str) -> None:
    for by in earners(crime):
        table = game(2, hands={0: [crime]}, crews={0: {by: []}}, phase="crime")
        table, _ = when(RULESET, table, 0, CommitCrime(mobster=by, card=crime))
        assert money(table)[0] == 1000 + CARDS[crime]["value"] + boost(crime, by), (crime, by)


@pytest.mark.parametrize("operation", of("operation"))
def test_an_operation_pays_its_value_and_the_catalogues_bonus_each_collection(operation: str) -> None:
    for by in earners(operation):
        table = game(2, crews={0: {by: [operation]}}, phase="crime")
        table, _ = when(RULESET, table, 0, EndPhase())
        assert money(table)[0] == 1000 + CARDS[operation]["value"] + boost(operation, by), (operation, by)


def test_a_cost_makes_its_target_pay_its_value() -> None:
    for cost in of("cost"):
        table = game(2, hands={0: [cost]}, crews={0: {PINKY: []}}, phase="collection")
        table, _ = when(RULESET, table, 0, Charge(card=cost, target=1))
        assert money(table) == [1000, 1000 - CARDS[cost]["value"]], cost


def test_a_petty_crime_pays_what_the_catalogues_table_says() -> None:
    table: Any = game(2, crews={0: {PINKY: []}}, phase="crime")
    for roll, crime in CONSTANTS["petty_crimes"].items():
        _, events = rolled(table, 0, PettyCrime(mobster=PINKY), [int(roll)])
        assert (events[0].crime, events[0].amount) == (crime["crime"], crime["value"])


def test_cards_that_pay_nothing_by_themselves_are_worth_nothing() -> None:
    for card in of("mobster", "law", "escape", "destroy", "hit"):
        assert CARDS[card]["value"] == 0, card
