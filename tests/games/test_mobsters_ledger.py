"""Where a Mobsters seat's money came from: each payment the rules make goes to its source in the seat's ledger, the
ledger always sums to the seat's money, and the result's details give it per seat, the same after a replay."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import given

from games.mobsters import RULESET
from games.mobsters.cards import Kind
from games.mobsters.moves import Charge, CommitCrime, DoubleIncome, DrawExtra, EndPhase
from games.mobsters.state import SOURCES
from games.table import Table
from tests.games.helpers import when
from tests.games.mobsters_helpers import cid, game, mobster, operation
from tests.games.test_mobsters_properties import Game, games_settings, whole_games

LUCKY, ROCCO = mobster("Lucky"), mobster("Rocco")
CASINO = operation("Casino")
BANK = cid(Kind.ARMED_ROBBERY, "Small Bank")
OVERHEAD = cid(Kind.COST, "Overhead")


def ledger(table: Table[Any], seat: int) -> dict[str, int]:
    """The seat's ledger, its sources at zero left out."""
    found: dict[str, int] = msgspec.structs.asdict(table.rules.bosses[seat].ledger)
    return {source: amount for source, amount in found.items() if amount}


def test_income_and_its_doubling_split_into_operations_and_bonuses() -> None:
    table = game(2, crews={0: {LUCKY: [CASINO]}}, phase="crime")
    table, _ = when(RULESET, table, 0, EndPhase())
    table, _ = when(RULESET, table, 0, DoubleIncome(mobster=LUCKY, operation=CASINO))
    assert ledger(table, 0) == {"start": 1000, "operations": 800, "bonuses": 200}


def test_a_crime_pays_the_crimes_and_the_bonus_and_a_cost_is_the_payers() -> None:
    table = game(2, hands={0: [BANK]}, crews={0: {ROCCO: []}}, phase="crime")
    table, _ = when(RULESET, table, 0, CommitCrime(mobster=ROCCO, card=BANK))
    assert ledger(table, 0) == {"start": 1000, "crimes": 1000, "bonuses": 200}
    table = game(2, hands={0: [OVERHEAD]}, phase="collection")
    table, _ = when(RULESET, table, 0, Charge(card=OVERHEAD, target=1))
    assert ledger(table, 1) == {"start": 1000, "costs": -500}


def test_an_extra_card_is_paid_from_the_extra_cards() -> None:
    table = game(2, crews={0: {LUCKY: []}}, phase="draw")
    table, _ = when(RULESET, table, 0, DrawExtra(mobster=LUCKY))
    assert ledger(table, 0) == {"start": 1000, "extra_cards": -1000}


@games_settings
@given(whole_games())
def test_the_ledger_always_sums_to_the_money_and_the_result_gives_it(game: Game) -> None:
    for _, _, state in game.steps:
        for boss in state.bosses:
            assert sum(msgspec.structs.astuple(boss.ledger)) == boss.money
    result = RULESET.result(game.steps[-1][2])
    by_source = result.details["money_by_source"]
    assert [list(seat) for seat in by_source] == [list(SOURCES)] * game.seats
    assert [sum(seat.values()) for seat in by_source] == list(result.scores)
