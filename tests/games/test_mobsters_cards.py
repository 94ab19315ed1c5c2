"""Mobsters: the deck is one copy of every card the rulebook lists, with its amounts and bonuses."""

from __future__ import annotations

from collections import Counter

import pytest

from games.mobsters.cards import CARDS, DECK, PETTY_CRIMES, Kind, bonus, earnings
from tests.games.mobsters_helpers import cid, mobster, of_kind, operation


def test_the_deck_holds_161_cards_one_of_each() -> None:
    assert len(DECK) == 161
    assert len(set(DECK)) == 161


def test_the_deck_holds_each_card_type_in_the_rulings_numbers() -> None:
    assert Counter(CARDS[c].kind for c in DECK) == {
        Kind.MOBSTER: 26,
        Kind.ARMED_ROBBERY: 5,
        Kind.MAJOR_CRIME: 12,
        Kind.OPERATION: 26,
        Kind.LAW: 29,
        Kind.ESCAPE: 21,
        Kind.DESTROY: 4,
        Kind.COST: 17,
        Kind.HIT: 21,
    }


def test_card_ids_name_the_type_and_the_rulebook_name() -> None:
    assert cid(Kind.MOBSTER, "The Worm") == "mobster:the-worm"
    assert cid(Kind.HIT, "Hit & Run") == "hit:hit-and-run"
    assert cid(Kind.LAW, "Conviction: Tax Evasion") == "law:conviction-tax-evasion"
    assert all(card.startswith(f"{CARDS[card].kind}:") for card in DECK)


@pytest.mark.parametrize(
    ("kind", "name", "amount"),
    [
        (Kind.ARMED_ROBBERY, "Small Bank", 1000),
        (Kind.ARMED_ROBBERY, "Large Bank", 5000),
        (Kind.MAJOR_CRIME, "Kidnapping", 5000),
        (Kind.MAJOR_CRIME, "Pyramid Scheme", 1000),
        (Kind.OPERATION, "Union Racket", 300),
        (Kind.OPERATION, "Casino", 400),
        (Kind.OPERATION, "Mail Fraud", 100),
        (Kind.COST, "Embezzelment", 2000),
        (Kind.COST, "Christmas Bonus", 500),
    ],
)
def test_amounts_are_the_rulebooks(kind: Kind, name: str, amount: int) -> None:
    assert CARDS[cid(kind, name)].amount == amount


def test_totals_of_the_amounts_match_the_rulebook_lists() -> None:
    assert sum(CARDS[c].amount for c in of_kind(Kind.ARMED_ROBBERY)) == 13_000
    assert sum(CARDS[c].amount for c in of_kind(Kind.MAJOR_CRIME)) == 24_000
    assert sum(CARDS[c].amount for c in of_kind(Kind.OPERATION)) == 5_100
    assert sum(CARDS[c].amount for c in of_kind(Kind.COST)) == 19_000


def test_the_petty_crime_table_is_the_rulebooks() -> None:
    assert {roll: amount for roll, (_, amount) in PETTY_CRIMES.items()} == {
        1: 200,
        2: 50,
        3: 50,
        4: 100,
        5: 100,
        6: 200,
    }


OPERATION_BONUSES = {
    "Lucky": ["Gambling House", "Gambling Boat", "Casino", "Slot Machines", "Bookkeeping"],
    "Knuckles": ["Loansharking", "Usury"],
    "Malone": ["Brothel", "Prostitution Ring"],
    "Tony": ["Protection Racket", "Union Racket"],
    "Numbers": ["Numbers Game"],
    "Tiny": ["Extortion"],
    "Bugsy": ["Speakeasy Dive", "Speakeasy Bar", "Speakeasy Nightclub", "Brewery", "Smuggling Bootleg"],
    "Uncle Lou": ["Fencing", "Pawn Shop"],
}
CRIME_BONUSES = {
    "Jimmy": (500, [(Kind.MAJOR_CRIME, n) for n in ("Fixed Race", "Fixed Match", "Election Fraud")]),
    "Fingers": (1000, [(Kind.MAJOR_CRIME, "Safecracking")]),
    "The Worm": (500, [(Kind.MAJOR_CRIME, n) for n in ("Real Estate Scam", "Investment Scam", "Pyramid Scheme")]),
    "Rocco": (
        200,
        [
            (Kind.ARMED_ROBBERY, n)
            for n in ("Small Bank", "Medium Bank", "Large Bank", "Jewelry Store", "Armored Car Heist")
        ],
    ),
}


@pytest.mark.parametrize("name", list(OPERATION_BONUSES))
def test_an_operation_bonus_is_100_on_exactly_its_kind_of_operation(name: str) -> None:
    boosted = {operation(op) for op in OPERATION_BONUSES[name]}
    for op in of_kind(Kind.OPERATION):
        assert bonus(mobster(name), op) == (100 if op in boosted else 0), op
        assert earnings(mobster(name), op) == CARDS[op].amount + bonus(mobster(name), op)


@pytest.mark.parametrize("name", list(CRIME_BONUSES))
def test_a_crime_bonus_applies_to_exactly_its_crimes(name: str) -> None:
    amount, crimes = CRIME_BONUSES[name]
    boosted = {cid(kind, crime) for kind, crime in crimes}
    for crime in of_kind(Kind.MAJOR_CRIME) + of_kind(Kind.ARMED_ROBBERY):
        assert bonus(mobster(name), crime) == (amount if crime in boosted else 0), crime


def test_rocco_earns_200_more_on_all_five_armed_robberies() -> None:
    assert [bonus(mobster("Rocco"), c) for c in of_kind(Kind.ARMED_ROBBERY)] == [200] * 5


def test_only_the_twelve_bonus_mobsters_earn_bonuses() -> None:
    with_bonus = {CARDS[m].name for m in of_kind(Kind.MOBSTER) if CARDS[m].bonus}
    assert with_bonus == set(OPERATION_BONUSES) | set(CRIME_BONUSES)
    plain = mobster("Pinky")
    assert all(bonus(plain, c) == 0 for c in DECK)
