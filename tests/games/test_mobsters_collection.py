"""Mobsters Collection phase: income with every operation bonus, Law cards that stop income, doubling an
operation's income (bonus included), and Costs of Doing Business that can push a seat into debt."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from games.base import Event
from games.mobsters import RULESET
from games.mobsters import events as ev
from games.mobsters.cards import Kind
from games.mobsters.moves import Charge, DoubleIncome, EndPhase
from games.table import Table
from tests.games.helpers import refused, when
from tests.games.mobsters_helpers import cid, game, mobster, money, moves, operation

LUCKY, TONY, PINKY, TINY = mobster("Lucky"), mobster("Tony"), mobster("Pinky"), mobster("Tiny")
CASINO, UNION, BROTHEL = operation("Casino"), operation("Union Racket"), operation("Brothel")
BEAT_COP = cid(Kind.LAW, "Beat Cop")
PAYOFFS, OVERHEAD = cid(Kind.COST, "Political Payoffs"), cid(Kind.COST, "Overhead")


def collected(crews: Mapping[int, Mapping[str, Sequence[str]]], **kwargs: Any) -> tuple[Table[Any], list[Event]]:
    """Seat 0 ends its Crime phase: the table in its Collection phase, and the events."""
    table = game(3, crews=crews, phase="crime", **kwargs)
    return when(RULESET, table, 0, EndPhase())


def test_income_is_collected_as_the_collection_phase_starts_without_an_action() -> None:
    table, events = collected({0: {PINKY: [CASINO, BROTHEL]}})

    assert events == [
        ev.PhaseStarted(seat=0, phase="collection"),
        ev.IncomeCollected(
            seat=0,
            incomes=(
                ev.Income(mobster=PINKY, operation=CASINO, amount=400, bonus=0),
                ev.Income(mobster=PINKY, operation=BROTHEL, amount=200, bonus=0),
            ),
            total=600,
        ),
    ]
    assert money(table) == [1600, 1000, 1000]
    assert DoubleIncome(mobster=PINKY, operation=CASINO) in RULESET.legal_moves(table.rules, 0)


def test_only_the_active_seats_mobsters_collect() -> None:
    table, _ = collected({0: {PINKY: []}, 1: {TONY: [UNION]}})

    assert money(table) == [1000, 1000, 1000]


@pytest.mark.parametrize(
    ("name", "op", "paid"),
    [
        ("Lucky", "Casino", 400 + 100),
        ("Lucky", "Slot Machines", 100 + 100),
        ("Lucky", "Bookkeeping", 200 + 100),
        ("Knuckles", "Usury", 200 + 100),
        ("Malone", "Prostitution Ring", 200 + 100),
        ("Tony", "Union Racket", 300 + 100),
        ("Numbers", "Numbers Game", 200 + 100),
        ("Tiny", "Extortion", 100 + 100),
        ("Bugsy", "Speakeasy Nightclub", 400 + 100),
        ("Bugsy", "Smuggling Bootleg", 200 + 100),
        ("Uncle Lou", "Pawn Shop", 100 + 100),
        ("Lucky", "Brothel", 200),
        ("Tony", "Counterfeiting", 400),
        ("Jimmy", "Casino", 400),
    ],
)
def test_an_operation_pays_the_bonus_of_the_mobster_that_holds_it(name: str, op: str, paid: int) -> None:
    table, events = collected({0: {mobster(name): [operation(op)]}})

    assert events[-1].total == paid
    assert money(table)[0] == 1000 + paid


def test_a_mobster_under_a_law_card_collects_no_income() -> None:
    table, events = collected({0: {TONY: [UNION], LUCKY: [CASINO]}}, law={TONY: [BEAT_COP]})

    assert [i.operation for i in events[-1].incomes] == [CASINO]
    assert money(table)[0] == 1000 + 500


def test_doubling_pays_an_operations_income_again_bonus_included_as_an_action() -> None:
    table, _ = collected({0: {LUCKY: [CASINO, BROTHEL]}})

    table, events = when(RULESET, table, 0, DoubleIncome(mobster=LUCKY, operation=CASINO))

    assert events == [ev.IncomeDoubled(seat=0, mobster=LUCKY, operation=CASINO, amount=500)]
    assert money(table)[0] == 1000 + 500 + 200 + 500
    assert refused(RULESET, table, 0, DoubleIncome(mobster=LUCKY, operation=BROTHEL)) == "action_spent"


def test_doubling_needs_an_operation_the_mobster_holds_and_its_action() -> None:
    table, _ = collected({0: {LUCKY: [CASINO], TONY: [UNION]}}, law={TONY: [BEAT_COP]})

    assert refused(RULESET, table, 0, DoubleIncome(mobster=LUCKY, operation=UNION)) == "operation_not_held"
    assert refused(RULESET, table, 0, DoubleIncome(mobster=TONY, operation=UNION)) == "mobster_under_law"
    assert refused(RULESET, table, 0, DoubleIncome(mobster=PINKY, operation=CASINO)) == "not_your_mobster"


def test_a_cost_of_doing_business_makes_an_opponent_pay_the_bank_even_into_debt() -> None:
    table, _ = collected({}, hands={0: [PAYOFFS, OVERHEAD]})

    table, events = when(RULESET, table, 0, Charge(card=PAYOFFS, target=1))

    assert events == [ev.CostCharged(seat=0, card=PAYOFFS, target=1, amount=2000)]
    assert money(table) == [1000, -1000, 1000]
    assert table.rules.discard == (PAYOFFS,)


def test_any_number_of_costs_may_be_played_and_they_need_no_mobster() -> None:
    table, _ = collected({}, hands={0: [PAYOFFS, OVERHEAD]})

    table, _ = moves(table, 0, Charge(card=PAYOFFS, target=2), Charge(card=OVERHEAD, target=2))

    assert money(table) == [1000, 1000, -1500]


def test_costs_are_played_on_opponents_only_and_from_hand() -> None:
    table, _ = collected({}, hands={0: [PAYOFFS, TINY]})

    assert refused(RULESET, table, 0, Charge(card=PAYOFFS, target=0)) == "target_is_yours"
    assert refused(RULESET, table, 0, Charge(card=PAYOFFS, target=3)) == "no_such_seat"
    assert refused(RULESET, table, 0, Charge(card=TINY, target=1)) == "wrong_card"
    assert refused(RULESET, table, 0, Charge(card=OVERHEAD, target=1)) == "card_not_in_hand"
    assert RULESET.legal_moves(table.rules, 0) == [
        Charge(card=PAYOFFS, target=1),
        Charge(card=PAYOFFS, target=2),
        EndPhase(),
    ]


def test_costs_are_played_only_in_the_collection_phase() -> None:
    table = game(3, hands={0: [PAYOFFS]}, phase="crime")

    assert refused(RULESET, table, 0, Charge(card=PAYOFFS, target=1)) == "not_collection_phase"
