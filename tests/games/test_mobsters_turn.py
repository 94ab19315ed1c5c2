"""Mobsters turns: the six phases in order, the Draw phase (two cards, extra cards, the hand limit), clockwise
play, the attendance rule, and the end of the game the moment the last card is drawn."""

from __future__ import annotations

from typing import Any

from games.base import Event
from games.mobsters import RULESET
from games.mobsters import events as ev
from games.mobsters.cards import CARDS, DECK, Kind
from games.mobsters.moves import CommitCrime, Discard, DrawExtra, EndPhase
from games.mobsters.state import Deed, Phase
from games.table import Status, Table, options_of
from tests.games.helpers import refused, when
from tests.games.mobsters_helpers import (
    Dice,
    all_kept,
    game,
    member,
    mobster,
    money,
    moves,
    of_type,
    rolled,
    stacked_start,
)

PLAIN = [c for c in DECK if CARDS[c].kind not in (Kind.MOBSTER, Kind.OPERATION)]
LUCKY, TONY, TINY, ROCCO = mobster("Lucky"), mobster("Tony"), mobster("Tiny"), mobster("Rocco")
LARGE_BANK = "robbery:large-bank"


def end_turn(table: Table[Any], seat: int) -> tuple[Table[Any], list[Event]]:
    """The active seat ends every phase left in its turn."""
    events: list[Event] = []
    start = table.rules.turn
    while table.rules.turn == start and table.status is Status.IN_PROGRESS:
        table, new = when(RULESET, table, seat, EndPhase())
        events += new
    return table, events


# --- the phases ------------------------------------------------------------------------------------------


def test_a_turn_starts_with_its_seat_drawing_two_cards_from_the_top() -> None:
    table, _ = stacked_start([[LUCKY, *PLAIN[:6]], [TONY, *PLAIN[6:12]]], then=PLAIN[12:14])
    table, events = all_kept(table)

    assert events[-1] == ev.CardsDrawn(seat=0, reason="draw", count=2, cards=tuple(PLAIN[12:14]))
    assert table.rules.bosses[0].hand[-2:] == tuple(PLAIN[12:14])
    assert len(table.rules.deck) == 161 - 14 - 2


def test_the_phases_follow_in_order_each_ended_by_end_phase() -> None:
    table = game(2, crews={0: {LUCKY: []}, 1: {TONY: []}})
    phases = [table.rules.phase]
    for _ in range(5):
        table, _ = when(RULESET, table, 0, EndPhase())
        phases.append(table.rules.phase)

    assert phases == [Phase.DRAW, Phase.HIT, Phase.CRIME, Phase.COLLECTION, Phase.RECRUIT, Phase.LAW]


def test_ending_the_law_phase_starts_the_next_seats_turn_with_its_draw() -> None:
    table = game(3, phase="law")

    table, events = when(RULESET, table, 0, EndPhase())

    assert events[0] == ev.TurnStarted(turn=2, seat=1)
    assert of_type(events, ev.CardsDrawn)[0].seat == 1
    assert (table.rules.active, table.rules.phase) == (1, Phase.DRAW)


def test_play_goes_clockwise_and_wraps_around_to_seat_0() -> None:
    table = game(3, first=2, phase="law")

    table, _ = when(RULESET, table, 2, EndPhase())

    assert table.rules.active == 0


def test_only_the_active_seat_moves_and_only_in_its_phase() -> None:
    table = game(2, hands={0: [LARGE_BANK]}, crews={0: {LUCKY: []}})

    assert refused(RULESET, table, 1, EndPhase()) == "not_your_turn"
    assert refused(RULESET, table, 0, CommitCrime(mobster=LUCKY, card=LARGE_BANK)) == "not_crime_phase"
    assert RULESET.awaiting(table.rules) == {0: "draw"}


def test_end_phase_is_needed_even_with_nothing_else_to_do() -> None:
    table = game(2, phase="hit")

    assert RULESET.legal_moves(table.rules, 0) == [EndPhase()]
    assert RULESET.awaiting(table.rules) == {0: "hit"}


def test_each_new_turn_gives_every_mobster_its_action_back() -> None:
    table = game(2, hands={0: [LARGE_BANK]}, crews={0: {LUCKY: []}}, phase="crime")
    table, _ = when(RULESET, table, 0, CommitCrime(mobster=LUCKY, card=LARGE_BANK))
    assert member(table.rules, LUCKY).deed is not None

    table, _ = end_turn(table, 0)
    table, _ = end_turn(table, 1)

    assert (table.rules.active, table.rules.turn) == (0, 3)
    assert member(table.rules, LUCKY).deed is None
    assert DrawExtra(mobster=LUCKY) in RULESET.legal_moves(table.rules, 0)


# --- extra cards ---------------------------------------------------------------------------------------


def test_a_mobster_may_buy_an_extra_card_for_1000_as_its_action() -> None:
    table = game(2, crews={0: {LUCKY: []}}, top=PLAIN[:3])

    table, events = when(RULESET, table, 0, DrawExtra(mobster=LUCKY))

    assert events == [ev.ExtraCardBought(seat=0, mobster=LUCKY, price=1000, card=PLAIN[2])]
    assert money(table) == [0, 1000]
    assert table.rules.bosses[0].hand[-1] == PLAIN[2]
    assert refused(RULESET, table, 0, DrawExtra(mobster=LUCKY)) == "action_spent"


def test_each_mobster_may_buy_one_extra_card() -> None:
    table = game(2, crews={0: {LUCKY: [], TONY: []}}, money={0: 5000})

    table, _ = moves(table, 0, DrawExtra(mobster=LUCKY), DrawExtra(mobster=TONY))

    assert money(table)[0] == 3000
    assert len(table.rules.bosses[0].hand) == 2 + 2  # the turn's two cards and two extra cards


def test_an_extra_card_needs_1000_in_hand() -> None:
    table = game(2, crews={0: {LUCKY: []}}, money={0: 999})

    assert refused(RULESET, table, 0, DrawExtra(mobster=LUCKY)) == "not_enough_money"
    assert RULESET.legal_moves(table.rules, 0) == [EndPhase()]


def test_only_your_own_mobsters_act() -> None:
    table = game(2, crews={0: {LUCKY: []}, 1: {TONY: []}})

    assert refused(RULESET, table, 0, DrawExtra(mobster=TONY)) == "not_your_mobster"
    assert refused(RULESET, table, 0, DrawExtra(mobster="mobster:nobody")) == "not_your_mobster"


# --- the hand limit ------------------------------------------------------------------------------------


def test_ten_cards_after_the_draw_need_no_discard() -> None:
    table = game(2, hands={0: PLAIN[:8]})

    table, _ = when(RULESET, table, 0, EndPhase())

    assert table.rules.phase is Phase.HIT


def test_more_than_10_cards_are_discarded_down_to_10_before_the_hit_phase() -> None:
    table = game(2, hands={0: PLAIN[:9]})

    table, events = when(RULESET, table, 0, EndPhase())

    assert events == [ev.PhaseStarted(seat=0, phase="discard")]
    assert RULESET.awaiting(table.rules) == {0: "discard"}
    hand = table.rules.bosses[0].hand
    assert RULESET.legal_moves(table.rules, 0) == [Discard(cards=(c,)) for c in hand]
    assert refused(RULESET, table, 0, EndPhase()) == "must_discard"

    table, events = when(RULESET, table, 0, Discard(cards=(PLAIN[3],)))

    assert events == [
        ev.CardsDiscarded(seat=0, reason="hand_limit", cards=(PLAIN[3],)),
        ev.PhaseStarted(seat=0, phase="hit"),
    ]
    assert len(table.rules.bosses[0].hand) == 10
    assert table.rules.discard == (PLAIN[3],)


def test_a_discard_may_name_several_cards_but_never_goes_below_10() -> None:
    table = game(2, hands={0: PLAIN[:11]})
    table, _ = when(RULESET, table, 0, EndPhase())

    assert refused(RULESET, table, 0, Discard(cards=tuple(PLAIN[:4]))) == "too_many_discards"
    assert refused(RULESET, table, 0, Discard(cards=(PLAIN[0], PLAIN[0]))) == "duplicate_cards"
    assert refused(RULESET, table, 0, Discard(cards=())) == "no_cards"
    assert refused(RULESET, table, 0, Discard(cards=(PLAIN[40],))) == "card_not_in_hand"
    table, _ = when(RULESET, table, 0, Discard(cards=tuple(PLAIN[:3])))

    assert table.rules.phase is Phase.HIT
    assert len(table.rules.bosses[0].hand) == 10


def test_extra_cards_count_toward_the_hand_limit() -> None:
    table = game(2, hands={0: PLAIN[:8]}, crews={0: {LUCKY: []}})
    table, _ = moves(table, 0, DrawExtra(mobster=LUCKY), EndPhase())

    assert table.rules.phase is Phase.DISCARD


# --- the end ---------------------------------------------------------------------------------------------


def test_the_game_ends_the_moment_the_turns_draw_takes_the_last_card() -> None:
    table = game(2, phase="law", deck_size=1)

    table, events = when(RULESET, table, 0, EndPhase())

    assert events[-2:] == [
        ev.CardsDrawn(seat=1, reason="draw", count=1, cards=events[-2].cards),
        ev.GameEnded(reason="last_card_drawn"),
    ]
    assert table.status is Status.FINISHED
    assert RULESET.awaiting(table.rules) == {}
    assert RULESET.legal_moves(table.rules, 1) == []


def test_the_game_ends_mid_turn_when_an_extra_card_takes_the_last_card() -> None:
    table = game(2, hands={0: PLAIN[:9]}, crews={0: {LUCKY: []}}, deck_size=1)

    table, events = when(RULESET, table, 0, DrawExtra(mobster=LUCKY))

    assert [e.type for e in events] == ["mobsters.extra_card_bought", "mobsters.game_ended"]
    assert table.status is Status.FINISHED
    assert len(table.rules.bosses[0].hand) == 12  # over the limit, but the game is over: no discard
    assert refused(RULESET, table, 0, EndPhase()) == "game_already_finished"


def test_the_game_ends_when_the_draw_takes_exactly_the_last_two_cards() -> None:
    table = game(2, phase="law", deck_size=2)

    table, events = when(RULESET, table, 0, EndPhase())

    assert of_type(events, ev.CardsDrawn)[0].count == 2
    assert events[-1] == ev.GameEnded(reason="last_card_drawn")


def test_the_game_goes_on_while_a_card_is_left() -> None:
    table = game(2, phase="law", deck_size=3)

    table, _ = when(RULESET, table, 0, EndPhase())

    assert table.status is Status.IN_PROGRESS
    assert len(table.rules.deck) == 1


# --- the optional attendance rule --------------------------------------------------------------------------


def test_attendance_rolls_4_to_6_cost_a_mobster_its_action_at_the_start_of_the_draw() -> None:
    crews = {1: {TONY: [], TINY: [], ROCCO: []}}
    table = game(2, crews=crews, phase="law", options={"attendance": True})

    table, events = rolled(table, 0, EndPhase(), rolls=[4, 3, 6])

    assert events[:2] == [
        ev.TurnStarted(turn=2, seat=1),
        ev.AttendanceRolled(
            seat=1,
            rolls=(ev.Roll(mobster=TONY, roll=4), ev.Roll(mobster=TINY, roll=3), ev.Roll(mobster=ROCCO, roll=6)),
        ),
    ]
    assert events[2].type == "mobsters.cards_drawn"  # the rolls come first, then the draw
    assert RULESET.legal_moves(table.rules, 1) == [DrawExtra(mobster=TINY), EndPhase()]
    assert member(table.rules, TONY).deed == Deed(action="absent", roll=4)


def test_attendance_rolls_of_1_to_3_change_nothing() -> None:
    table = game(2, crews={1: {TONY: [], TINY: []}}, phase="law", options={"attendance": True})

    table, _ = rolled(table, 0, EndPhase(), rolls=[1, 3])

    assert RULESET.legal_moves(table.rules, 1) == [DrawExtra(mobster=TONY), DrawExtra(mobster=TINY), EndPhase()]


def test_without_the_attendance_option_nobody_rolls() -> None:
    table = game(2, crews={1: {TONY: []}}, phase="law")

    table, events = rolled(table, 0, EndPhase(), rolls=[])

    assert of_type(events, ev.AttendanceRolled) == []
    assert member(table.rules, TONY).deed is None


def test_the_attendance_option_is_off_by_default_and_declared() -> None:
    assert RULESET.options["attendance"].default is False
    assert RULESET.options["first_player"].names_a_seat


# --- the ruleset --------------------------------------------------------------------------------------------


def test_the_ruleset_offers_one_move_type_per_thing_a_seat_or_mobster_can_do() -> None:
    assert [m.__struct_config__.tag for m in RULESET.moves] == [
        "redeal",
        "keep_hand",
        "draw_extra",
        "discard",
        "hit",
        "destroy",
        "commit_crime",
        "petty_crime",
        "double_income",
        "charge",
        "recruit",
        "attach",
        "arrest",
        "escape",
        "bribe",
        "reassign",
        "end_phase",
    ]
    assert (RULESET.id, RULESET.name, RULESET.min_seats, RULESET.max_seats) == ("mobsters", "Mobsters", 2, 6)
    assert all(e.type.startswith("mobsters.") for e in RULESET.events)


def test_lateness_is_left_to_the_tables_deadline_and_the_random_bot() -> None:
    table = game(2)

    assert RULESET.time_limit(table.rules) is None
    assert RULESET.timeout(table.rules, Dice()) is None
    assert options_of(RULESET)["move_deadline_s"].default is None
