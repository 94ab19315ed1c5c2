"""Mobsters Hit phase: hits (1-3 miss, 4-6 kill), the dead mobster's operations reassigned by its controller,
and Destroy Operation cards."""

from __future__ import annotations

from typing import Any

import pytest

from games.mobsters import RULESET
from games.mobsters import events as ev
from games.mobsters.cards import Kind
from games.mobsters.moves import Destroy, EndPhase, Hit, Reassign
from games.mobsters.state import Deed
from games.table import Status, Table
from tests.games.helpers import refused, when
from tests.games.mobsters_helpers import cid, game, member, mobster, of_kind, operation, rolled

LUCKY, TONY, TINY, ROCCO = mobster("Lucky"), mobster("Tony"), mobster("Tiny"), mobster("Rocco")
SNIPER, CAR_BOMB = cid(Kind.HIT, "Sniper"), cid(Kind.HIT, "Car Bomb")
ARSON = cid(Kind.DESTROY, "Arson")
CASINO, UNION, BROTHEL = operation("Casino"), operation("Union Racket"), operation("Brothel")
BEAT_COP, WIRE_TAP = cid(Kind.LAW, "Beat Cop"), cid(Kind.LAW, "Wire Tap")


def hit_game(**kwargs: Any) -> Table[Any]:
    """Seat 0's Hit phase: Lucky holds a Sniper and a Car Bomb; seat 1's Tony runs a Union Racket and a Brothel."""
    crews = kwargs.pop("crews", {0: {LUCKY: []}, 1: {TONY: [UNION, BROTHEL], TINY: []}})
    return game(3, hands={0: [SNIPER, CAR_BOMB, ARSON]}, crews=crews, phase="hit", **kwargs)


@pytest.mark.parametrize("roll", [1, 2, 3])
def test_a_hit_roll_of_1_to_3_misses_and_the_hit_card_is_spent(roll: int) -> None:
    table = hit_game()

    table, events = rolled(table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TONY), [roll])

    assert events == [
        ev.HitAttempted(seat=0, mobster=LUCKY, card=SNIPER, victim=TONY, target_seat=1, roll=roll, killed=False)
    ]
    assert member(table.rules, TONY).operations == (UNION, BROTHEL)
    assert table.rules.discard == (SNIPER,)
    assert SNIPER not in table.rules.bosses[0].hand


@pytest.mark.parametrize("roll", [4, 5, 6])
def test_a_hit_roll_of_4_to_6_kills_the_target(roll: int) -> None:
    table = hit_game(crews={0: {LUCKY: []}, 1: {TONY: [], TINY: []}})

    table, events = rolled(table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TONY), [roll])

    assert events[0].killed
    assert events[1] == ev.MobsterKilled(seat=1, mobster=TONY, law=(), operations=())
    assert [m.card for m in table.rules.bosses[1].crew] == [TINY]
    assert table.rules.discard == (SNIPER, TONY)


def test_a_killed_mobster_is_discarded_with_its_law_cards() -> None:
    table = hit_game(crews={0: {LUCKY: []}, 1: {TONY: [], TINY: []}}, law={TONY: [BEAT_COP, WIRE_TAP]})

    table, events = rolled(table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TONY), [6])

    assert events[1].law == (BEAT_COP, WIRE_TAP)
    assert table.rules.discard == (SNIPER, TONY, BEAT_COP, WIRE_TAP)


def test_a_hit_spends_the_hitters_action_hit_or_miss() -> None:
    table = hit_game()
    table, _ = rolled(table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TONY), [2])

    assert refused(RULESET, table, 0, Hit(mobster=LUCKY, card=CAR_BOMB, victim=TONY)) == "action_spent"
    assert member(table.rules, LUCKY).deed == Deed(action="hit", card=SNIPER, on=TONY, roll=2)


def test_a_hit_needs_a_hit_card_from_hand_and_a_mobster_of_another_seat() -> None:
    table = hit_game(crews={0: {LUCKY: [], ROCCO: []}, 1: {TONY: []}})

    assert refused(RULESET, table, 0, Hit(mobster=LUCKY, card=of_kind(Kind.HIT)[0], victim=TONY)) == "card_not_in_hand"
    assert refused(RULESET, table, 0, Hit(mobster=LUCKY, card=ARSON, victim=TONY)) == "wrong_card"
    assert refused(RULESET, table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=ROCCO)) == "target_is_yours"
    assert refused(RULESET, table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TINY)) == "mobster_not_in_play"


def test_after_a_kill_its_controller_at_once_decides_where_each_operation_goes() -> None:
    table = hit_game()

    table, _ = rolled(table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TONY), [4])

    assert RULESET.awaiting(table.rules) == {1: "reassign"}
    assert RULESET.legal_moves(table.rules, 1) == [
        Reassign(operation=UNION, mobster=TINY),
        Reassign(operation=UNION, mobster=None),
        Reassign(operation=BROTHEL, mobster=TINY),
        Reassign(operation=BROTHEL, mobster=None),
    ]
    assert RULESET.legal_moves(table.rules, 0) == []
    assert refused(RULESET, table, 0, EndPhase()) == "awaiting_reassignment"


def test_each_operation_goes_to_another_of_the_seats_mobsters_or_to_the_discard_pile() -> None:
    table = hit_game()
    table, _ = rolled(table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TONY), [4])

    table, events = when(RULESET, table, 1, Reassign(operation=BROTHEL, mobster=TINY))
    assert events == [ev.OperationReassigned(seat=1, operation=BROTHEL, mobster=TINY)]
    assert RULESET.awaiting(table.rules) == {1: "reassign"}
    table, _ = when(RULESET, table, 1, Reassign(operation=UNION, mobster=None))

    assert member(table.rules, TINY).operations == (BROTHEL,)
    assert table.rules.discard == (SNIPER, TONY, UNION)
    assert RULESET.awaiting(table.rules) == {0: "hit"}
    assert member(table.rules, TINY).deed is None  # taking an operation is nobody's action


def test_reassigning_is_the_dead_mobsters_controllers_decision_among_its_own_mobsters() -> None:
    table = hit_game(crews={0: {LUCKY: []}, 1: {TONY: [UNION]}, 2: {TINY: []}})
    table, _ = rolled(table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TONY), [5])

    assert RULESET.awaiting(table.rules) == {0: "hit"}  # seat 1 had no other mobster: nothing to decide
    table = hit_game(crews={0: {LUCKY: []}, 1: {TONY: [UNION], ROCCO: []}, 2: {TINY: []}})
    table, _ = rolled(table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TONY), [5])

    assert refused(RULESET, table, 2, Reassign(operation=UNION, mobster=TINY)) == "not_your_decision"
    assert refused(RULESET, table, 1, Reassign(operation=UNION, mobster=TINY)) == "not_your_mobster"
    assert refused(RULESET, table, 1, Reassign(operation=CASINO, mobster=ROCCO)) == "operation_not_orphaned"
    assert refused(RULESET, table, 1, Reassign(operation=UNION, mobster="")) == "not_your_mobster"


def test_with_no_mobster_left_every_operation_of_the_dead_mobster_is_discarded() -> None:
    table = hit_game(crews={0: {LUCKY: []}, 1: {TONY: [UNION, BROTHEL]}})

    table, events = rolled(table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TONY), [4])

    assert events[-1] == ev.OperationsDiscarded(seat=1, operations=(UNION, BROTHEL))
    assert table.rules.discard == (SNIPER, TONY, UNION, BROTHEL)
    assert table.rules.bosses[1].crew == ()
    assert RULESET.awaiting(table.rules) == {0: "hit"}


def test_a_mobster_under_law_may_take_a_dead_mobsters_operation() -> None:
    table = hit_game(law={TINY: [BEAT_COP]})
    table, _ = rolled(table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TONY), [4])

    table, _ = when(RULESET, table, 1, Reassign(operation=UNION, mobster=TINY))

    assert member(table.rules, TINY).operations == (UNION,)


def test_no_reassignment_is_taken_when_none_is_pending() -> None:
    table = hit_game()

    assert refused(RULESET, table, 1, Reassign(operation=UNION, mobster=TINY)) == "no_reassignment_pending"


# --- destroy operation ------------------------------------------------------------------------------------------


def test_a_destroy_operation_card_discards_another_seats_operation_as_an_action() -> None:
    table = hit_game()

    table, events = when(RULESET, table, 0, Destroy(mobster=LUCKY, card=ARSON, operation=UNION))

    assert events == [
        ev.OperationDestroyed(seat=0, mobster=LUCKY, card=ARSON, target_seat=1, holder=TONY, operation=UNION)
    ]
    assert member(table.rules, TONY).operations == (BROTHEL,)
    assert table.rules.discard == (ARSON, UNION)
    assert refused(RULESET, table, 0, Hit(mobster=LUCKY, card=SNIPER, victim=TONY)) == "action_spent"


def test_destroy_needs_the_card_and_an_operation_of_another_seat() -> None:
    table = hit_game(crews={0: {LUCKY: [CASINO]}, 1: {TONY: [UNION]}})

    assert refused(RULESET, table, 0, Destroy(mobster=LUCKY, card=ARSON, operation=CASINO)) == "target_is_yours"
    assert refused(RULESET, table, 0, Destroy(mobster=LUCKY, card=ARSON, operation=BROTHEL)) == "operation_not_in_play"
    assert refused(RULESET, table, 0, Destroy(mobster=LUCKY, card=SNIPER, operation=UNION)) == "wrong_card"
    assert refused(RULESET, table, 0, Destroy(mobster=TONY, card=ARSON, operation=UNION)) == "not_your_mobster"


def test_an_operation_of_a_mobster_under_law_may_be_destroyed() -> None:
    table = hit_game(law={TONY: [BEAT_COP]})

    table, _ = when(RULESET, table, 0, Destroy(mobster=LUCKY, card=ARSON, operation=BROTHEL))

    assert member(table.rules, TONY).operations == (UNION,)


def test_hits_and_destroys_are_listed_for_every_free_mobster_card_and_target() -> None:
    table = hit_game()

    legal = RULESET.legal_moves(table.rules, 0)

    assert Hit(mobster=LUCKY, card=CAR_BOMB, victim=TINY) in legal
    assert Destroy(mobster=LUCKY, card=ARSON, operation=BROTHEL) in legal
    assert len(legal) == 2 * 2 + 2 + 1  # 2 hit cards x 2 targets, 2 operations, end_phase
    assert table.status is Status.IN_PROGRESS
