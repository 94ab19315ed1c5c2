"""Mobsters Crime phase and actions: major crimes and armed robberies with their bonuses, the Petty Crime table,
one action per mobster, and Law cards that take a mobster's action away."""

from __future__ import annotations

from typing import Any

import pytest

from games.mobsters import RULESET
from games.mobsters import events as ev
from games.mobsters.cards import Kind
from games.mobsters.moves import CommitCrime, DrawExtra, EndPhase, PettyCrime
from games.table import Table
from tests.games.helpers import refused, when
from tests.games.mobsters_helpers import cid, game, member, mobster, money, moves, operation, rolled

PINKY, LUCKY, TONY = mobster("Pinky"), mobster("Lucky"), mobster("Tony")
KIDNAPPING, LARGE_BANK = cid(Kind.MAJOR_CRIME, "Kidnapping"), cid(Kind.ARMED_ROBBERY, "Large Bank")
SNIPER, BEAT_COP = cid(Kind.HIT, "Sniper"), cid(Kind.LAW, "Beat Cop")
CASINO = operation("Casino")


def crime_game(hand: list[str], crew: dict[str, list[str]] | None = None, **kwargs: Any) -> Table[Any]:
    """Seat 0's Crime phase with this hand and crew (Pinky alone by default)."""
    return game(2, hands={0: hand}, crews={0: crew if crew is not None else {PINKY: []}}, phase="crime", **kwargs)


def test_a_major_crime_is_discarded_and_pays_its_amount_from_the_bank() -> None:
    table = crime_game([KIDNAPPING])

    table, events = when(RULESET, table, 0, CommitCrime(mobster=PINKY, card=KIDNAPPING))

    assert events == [ev.CrimeCommitted(seat=0, mobster=PINKY, card=KIDNAPPING, amount=5000, bonus=0)]
    assert money(table) == [6000, 1000]
    assert table.rules.discard == (KIDNAPPING,)


def test_an_armed_robbery_is_discarded_and_pays_its_amount() -> None:
    table = crime_game([LARGE_BANK])

    table, _ = when(RULESET, table, 0, CommitCrime(mobster=PINKY, card=LARGE_BANK))

    assert money(table) == [6000, 1000]


@pytest.mark.parametrize(
    ("name", "kind", "crime", "paid"),
    [
        ("Jimmy", Kind.MAJOR_CRIME, "Fixed Race", 1000 + 500),
        ("Jimmy", Kind.MAJOR_CRIME, "Fixed Match", 1000 + 500),
        ("Jimmy", Kind.MAJOR_CRIME, "Election Fraud", 2000 + 500),
        ("Jimmy", Kind.MAJOR_CRIME, "Kidnapping", 5000),
        ("Fingers", Kind.MAJOR_CRIME, "Safecracking", 3000 + 1000),
        ("Fingers", Kind.MAJOR_CRIME, "Museum Break-in", 3000),
        ("The Worm", Kind.MAJOR_CRIME, "Real Estate Scam", 2000 + 500),
        ("The Worm", Kind.MAJOR_CRIME, "Investment Scam", 2000 + 500),
        ("The Worm", Kind.MAJOR_CRIME, "Pyramid Scheme", 1000 + 500),
        ("The Worm", Kind.MAJOR_CRIME, "Forgery", 2000),
        ("Rocco", Kind.ARMED_ROBBERY, "Small Bank", 1000 + 200),
        ("Rocco", Kind.ARMED_ROBBERY, "Armored Car Heist", 2000 + 200),
        ("Rocco", Kind.MAJOR_CRIME, "Murder for Hire", 1000),
        ("Pinky", Kind.ARMED_ROBBERY, "Medium Bank", 3000),
    ],
)
def test_a_crime_pays_the_bonus_of_the_mobster_that_commits_it(name: str, kind: Kind, crime: str, paid: int) -> None:
    card = cid(kind, crime)
    table = crime_game([card], {mobster(name): []})

    table, [event] = when(RULESET, table, 0, CommitCrime(mobster=mobster(name), card=card))

    assert event.amount + event.bonus == paid
    assert money(table)[0] == 1000 + paid


def test_a_crime_needs_a_major_crime_or_armed_robbery_card_from_hand() -> None:
    table = crime_game([SNIPER])

    assert refused(RULESET, table, 0, CommitCrime(mobster=PINKY, card=SNIPER)) == "wrong_card"
    assert refused(RULESET, table, 0, CommitCrime(mobster=PINKY, card=KIDNAPPING)) == "card_not_in_hand"


@pytest.mark.parametrize(
    ("roll", "crime", "amount"),
    [
        (1, "Minor Extortion", 200),
        (2, "Mugging", 50),
        (3, "Burglary", 50),
        (4, "Con-Job", 100),
        (5, "Auto-theft", 100),
        (6, "Minor Hold-up", 200),
    ],
)
def test_a_petty_crime_pays_by_the_petty_crime_table(roll: int, crime: str, amount: int) -> None:
    table = crime_game([])

    table, events = rolled(table, 0, PettyCrime(mobster=PINKY), [roll])

    assert events == [ev.PettyCrimeCommitted(seat=0, mobster=PINKY, roll=roll, crime=crime, amount=amount)]
    assert money(table)[0] == 1000 + amount


def test_petty_crimes_earn_no_bonus() -> None:
    table = crime_game([], {mobster("Rocco"): []})

    table, _ = rolled(table, 0, PettyCrime(mobster=mobster("Rocco")), [6])

    assert money(table)[0] == 1200


def test_only_a_mobster_with_no_operation_commits_a_petty_crime() -> None:
    table = crime_game([], {LUCKY: [CASINO], PINKY: []})

    assert refused(RULESET, table, 0, PettyCrime(mobster=LUCKY)) == "mobster_has_operations"
    assert PettyCrime(mobster=PINKY) in RULESET.legal_moves(table.rules, 0)
    assert PettyCrime(mobster=LUCKY) not in RULESET.legal_moves(table.rules, 0)


def test_a_mobster_commits_one_crime_a_turn() -> None:
    table = crime_game([KIDNAPPING, LARGE_BANK])
    table, _ = when(RULESET, table, 0, CommitCrime(mobster=PINKY, card=KIDNAPPING))

    assert refused(RULESET, table, 0, CommitCrime(mobster=PINKY, card=LARGE_BANK)) == "action_spent"
    assert refused(RULESET, table, 0, PettyCrime(mobster=PINKY)) == "action_spent"
    assert RULESET.legal_moves(table.rules, 0) == [EndPhase()]


def test_each_mobster_has_its_own_action() -> None:
    table = crime_game([KIDNAPPING, LARGE_BANK], {PINKY: [], TONY: []})

    table, _ = moves(table, 0, CommitCrime(mobster=PINKY, card=KIDNAPPING), CommitCrime(mobster=TONY, card=LARGE_BANK))

    assert money(table)[0] == 11_000


def test_an_action_spent_in_one_phase_is_gone_for_the_rest_of_the_turn() -> None:
    table = game(2, hands={0: [KIDNAPPING]}, crews={0: {PINKY: []}})
    table, _ = moves(table, 0, DrawExtra(mobster=PINKY), EndPhase(), EndPhase())

    assert refused(RULESET, table, 0, CommitCrime(mobster=PINKY, card=KIDNAPPING)) == "action_spent"


def test_a_mobster_under_a_law_card_has_no_action() -> None:
    table = crime_game([KIDNAPPING], law={PINKY: [BEAT_COP]})

    assert refused(RULESET, table, 0, CommitCrime(mobster=PINKY, card=KIDNAPPING)) == "mobster_under_law"
    assert refused(RULESET, table, 0, PettyCrime(mobster=PINKY)) == "mobster_under_law"
    assert RULESET.legal_moves(table.rules, 0) == [EndPhase()]


def test_the_action_a_mobster_spent_is_shown_with_it() -> None:
    table = crime_game([])

    table, _ = rolled(table, 0, PettyCrime(mobster=PINKY), [2])

    deed = member(table.rules, PINKY).deed
    assert deed is not None and (deed.action, deed.roll) == ("petty_crime", 2)
