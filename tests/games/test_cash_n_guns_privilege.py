"""Ca$h 'n Guns, one test per rule or ruling: the Godfather's privilege, courage, the dead, the finished game."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from games.base import IllegalMoveError
from games.cash_n_guns import RULESET
from games.cash_n_guns.events import (
    CourageChosen,
    CourageRevealed,
    PrivilegeSkipped,
    Retargeted,
    RetargetOrdered,
    ShotsResolved,
)
from games.cash_n_guns.legality import problem
from games.cash_n_guns.moves import Courage, Load, OrderRetarget, Retarget, SkipPrivilege, Take
from games.cash_n_guns.state import Phase
from games.table import Status, Table
from tests.games.cng_helpers import aim, hold_up, load, moves, new_game, of_type, ring, share, timeout, turn
from tests.games.helpers import refused, when

# --- the Godfather's privilege ------------------------------------------------------------------------------


def aimed(aims: dict[int, int], seats: int = 4, godfather: int = 0) -> Table[Any]:
    """A table in the privilege phase after these aims (missing seats are late)."""
    table, _ = load(new_game(seats, godfather))
    return aim(table, aims)[0]


def test_the_godfather_orders_an_aiming_seat_which_must_change_target() -> None:
    table = aimed({0: 1, 1: 2, 2: 3, 3: 0})
    assert RULESET.awaiting(table.rules) == {0: "privilege"}

    table, events = when(RULESET, table, 0, OrderRetarget(seat=2))
    assert events == [RetargetOrdered(godfather=0, seat=2)]
    assert RULESET.awaiting(table.rules) == {2: "retarget"}
    table, events = when(RULESET, table, 2, Retarget(target=1))

    assert events == [Retargeted(seat=2, previous=3, target=1)]
    assert table.rules.gangsters[2].target == 1
    assert RULESET.awaiting(table.rules) == dict.fromkeys(range(4), "courage")


def test_a_forced_retarget_is_where_the_bullet_goes() -> None:
    _, events = hold_up(new_game(4), ring(4), loads={2: "bang"}, order=(2, 1))

    assert of_type(events, ShotsResolved)[0].hits == (0, 1, 0, 0)


def test_the_godfather_may_skip_the_privilege() -> None:
    table, events = when(RULESET, aimed(ring(4)), 0, SkipPrivilege())

    assert events == [PrivilegeSkipped(godfather=0, automatic=False)]
    assert [g.target for g in table.rules.gangsters] == [1, 2, 3, 0]
    assert table.rules.phase is Phase.COURAGE


def test_only_the_godfather_has_the_privilege() -> None:
    table = aimed(ring(4), godfather=1)

    assert refused(RULESET, table, 0, OrderRetarget(seat=2)) == "not_godfather"
    assert refused(RULESET, table, 2, SkipPrivilege()) == "not_godfather"
    assert RULESET.legal_moves(table.rules, 0) == []


def test_the_godfather_orders_another_seat_not_himself() -> None:
    table = aimed(ring(4))

    assert refused(RULESET, table, 0, OrderRetarget(seat=0)) == "cannot_order_self"


def test_a_seat_aiming_at_nobody_cannot_be_ordered() -> None:
    table = aimed({0: 1, 1: 2, 2: 3})

    assert refused(RULESET, table, 0, OrderRetarget(seat=3)) == "seat_not_aiming"
    assert RULESET.legal_moves(table.rules, 0) == [OrderRetarget(seat=1), OrderRetarget(seat=2), SkipPrivilege()]


def test_the_godfather_need_not_aim_to_order_a_seat() -> None:
    table = aimed({1: 2, 2: 3, 3: 1})

    assert OrderRetarget(seat=3) in RULESET.legal_moves(table.rules, 0)


def test_the_ordered_seat_must_aim_at_a_living_seat_other_than_itself_and_its_target() -> None:
    table = new_game(5)
    table, _ = turn(table, aims={1: 4, 2: 4, 3: 4}, loads={1: "bang", 2: "bang", 3: "bang"})  # seat 4 dies
    table, _ = load(table)
    table, _ = aim(table, {0: 1, 1: 2, 2: 3, 3: 0})
    table, _ = when(RULESET, table, 0, OrderRetarget(seat=1))

    assert refused(RULESET, table, 1, Retarget(target=2)) == "same_target"
    assert refused(RULESET, table, 1, Retarget(target=1)) == "cannot_aim_at_self"
    assert refused(RULESET, table, 1, Retarget(target=4)) == "target_not_alive"
    assert refused(RULESET, table, 1, Retarget(target=7)) == "no_such_seat"
    assert refused(RULESET, table, 2, Retarget(target=0)) == "not_ordered"
    assert RULESET.legal_moves(table.rules, 1) == [Retarget(target=0), Retarget(target=3)]


def test_with_two_seats_alive_nobody_can_be_ordered_and_the_privilege_is_skipped() -> None:
    table = new_game(4)
    table, _ = turn(table, aims={0: 3, 1: 3, 2: 3}, loads=dict.fromkeys((0, 1, 2), "bang"))  # seat 3 dies
    table, _ = turn(table, aims={0: 2, 1: 2}, loads={0: "bang", 1: "bang"})
    table, _ = turn(table, aims={0: 2, 1: 2}, loads={0: "bang"})  # seat 2 dies: 0 and 1 are left
    assert [g.alive for g in table.rules.gangsters] == [True, True, False, False]
    table, _ = load(table)

    table, events = aim(table, {0: 1, 1: 0})

    assert events[-1] == PrivilegeSkipped(godfather=0, automatic=True)
    assert table.rules.phase is Phase.COURAGE


def test_a_seat_with_no_other_target_cannot_be_ordered() -> None:
    table = aimed(ring(4))
    gangsters = tuple(
        msgspec.structs.replace(g, alive=s in (0, 1), target=1 - s if s < 2 else None)
        for s, g in enumerate(table.rules.gangsters)
    )
    two_left = msgspec.structs.replace(table.rules, gangsters=gangsters)

    found = problem(two_left, 0, OrderRetarget(seat=1))
    assert found is not None
    assert found[0] == "no_other_target"


def test_the_privilege_is_skipped_when_nobody_aims() -> None:
    table, _ = load(new_game(4))

    table, events = timeout(table)

    assert events[1] == PrivilegeSkipped(godfather=0, automatic=True)
    assert table.rules.phase is Phase.COURAGE


# --- courage --------------------------------------------------------------------------------------------------


def test_courage_choices_are_revealed_together_once_every_living_seat_has_chosen() -> None:
    table, _ = aim(load(new_game(4))[0], ring(4))
    table, _ = when(RULESET, table, 0, SkipPrivilege())
    table, events = moves(table, [(0, Courage(stand=True)), (1, Courage(stand=False)), (2, Courage(stand=True))])

    assert of_type(events, CourageRevealed) == []
    assert RULESET.awaiting(table.rules) == {3: "courage"}
    table, events = when(RULESET, table, 3, Courage(stand=False))

    assert events[:2] == [CourageChosen(seat=3, stand=False), CourageRevealed(stands=(True, False, True, False))]


def test_choosing_twice_is_refused() -> None:
    table, _ = aim(load(new_game(4))[0], ring(4))
    table, _ = when(RULESET, table, 0, SkipPrivilege())
    table, _ = when(RULESET, table, 1, Courage(stand=True))

    assert refused(RULESET, table, 1, Courage(stand=False)) == "already_chose"
    assert refused(RULESET, new_game(4), 1, Courage(stand=False)) == "not_courage_phase"


def test_the_dead_do_not_play() -> None:
    table = new_game(4)
    table, _ = turn(table, aims={1: 0, 2: 0, 3: 0}, loads={1: "bang", 2: "bang", 3: "bang"})

    assert refused(RULESET, table, 0, Load(card="click")) == "seat_not_alive"
    assert RULESET.legal_moves(table.rules, 0) == []
    table, _ = load(table)
    assert 0 not in RULESET.awaiting(table.rules)


def test_moves_are_refused_once_the_game_is_over() -> None:
    table = new_game(4)
    for _ in range(8):
        table, _ = turn(table, aims={})
    assert table.status is Status.FINISHED

    assert refused(RULESET, table, 0, Load(card="click")) == "game_already_finished"
    with pytest.raises(IllegalMoveError) as refusal:
        RULESET.decide(table.rules, 0, Take(godfather_token=True), random.Random(0))
    assert refusal.value.code == "game_already_finished"
    assert share(table)[1] == []
