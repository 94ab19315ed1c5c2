"""Mobsters Recruit and Law phases: mobsters into play, operations attached, Law Enforcement cards placed,
escaped and bribed away."""

from __future__ import annotations

from typing import Any

from games.mobsters import RULESET
from games.mobsters import events as ev
from games.mobsters.cards import Kind
from games.mobsters.moves import Arrest, Attach, Bribe, EndPhase, Escape, Recruit
from games.mobsters.state import Deed
from games.table import Table
from tests.games.helpers import refused, when
from tests.games.mobsters_helpers import cid, game, member, mobster, money, moves, operation

LUCKY, TONY, PINKY, TINY, MALONE = (mobster(n) for n in ("Lucky", "Tony", "Pinky", "Tiny", "Malone"))
CASINO, UNION, BROTHEL, FENCING = (operation(n) for n in ("Casino", "Union Racket", "Brothel", "Fencing"))
BEAT_COP, WIRE_TAP, SNITCH = (cid(Kind.LAW, n) for n in ("Beat Cop", "Wire Tap", "Snitch"))
ALIBI, PAROLE = cid(Kind.ESCAPE, "Alibi"), cid(Kind.ESCAPE, "Parole")
SNIPER = cid(Kind.HIT, "Sniper")


# --- recruit ---------------------------------------------------------------------------------------------------


def test_any_mobsters_in_hand_come_into_play_in_the_recruit_phase() -> None:
    table = game(2, hands={0: [LUCKY, TONY]}, phase="recruit")

    table, events = moves(table, 0, Recruit(card=LUCKY), Recruit(card=TONY))

    assert events == [ev.MobsterRecruited(seat=0, card=LUCKY), ev.MobsterRecruited(seat=0, card=TONY)]
    assert [m.card for m in table.rules.bosses[0].crew] == [LUCKY, TONY]
    assert LUCKY not in table.rules.bosses[0].hand


def test_a_mobster_put_into_play_has_spent_its_action_this_turn() -> None:
    table = game(2, hands={0: [LUCKY, CASINO]}, phase="recruit")

    table, _ = when(RULESET, table, 0, Recruit(card=LUCKY))

    assert member(table.rules, LUCKY).deed == Deed(action="recruited")
    assert refused(RULESET, table, 0, Attach(mobster=LUCKY, operation=CASINO)) == "action_spent"
    assert RULESET.legal_moves(table.rules, 0) == [EndPhase()]


def test_a_new_mobster_acts_in_its_controllers_next_turn() -> None:
    table = game(2, hands={0: [LUCKY]}, phase="recruit")
    table, _ = moves(table, 0, Recruit(card=LUCKY), EndPhase(), EndPhase())
    table, _ = moves(table, 1, *[EndPhase()] * 6)

    assert table.rules.active == 0
    assert member(table.rules, LUCKY).deed is None


def test_only_mobster_cards_are_recruited() -> None:
    table = game(2, hands={0: [CASINO]}, phase="recruit")

    assert refused(RULESET, table, 0, Recruit(card=CASINO)) == "wrong_card"
    assert refused(RULESET, table, 0, Recruit(card=LUCKY)) == "card_not_in_hand"


def test_a_mobster_attaches_an_operation_from_hand_as_its_action() -> None:
    table = game(2, hands={0: [CASINO, BROTHEL]}, crews={0: {LUCKY: []}}, phase="recruit")

    table, events = when(RULESET, table, 0, Attach(mobster=LUCKY, operation=CASINO))

    assert events == [ev.OperationAttached(seat=0, mobster=LUCKY, operation=CASINO, source=None)]
    assert member(table.rules, LUCKY).operations == (CASINO,)
    assert money(table) == [1000, 1000]  # it pays from the next Collection phase
    assert refused(RULESET, table, 0, Attach(mobster=LUCKY, operation=BROTHEL)) == "action_spent"


def test_a_mobster_takes_an_operation_from_another_of_its_controllers_mobsters() -> None:
    table = game(2, crews={0: {PINKY: [CASINO, UNION], LUCKY: []}}, phase="recruit")

    table, events = when(RULESET, table, 0, Attach(mobster=LUCKY, operation=CASINO))

    assert events == [ev.OperationAttached(seat=0, mobster=LUCKY, operation=CASINO, source=PINKY)]
    assert member(table.rules, PINKY).operations == (UNION,)
    assert member(table.rules, LUCKY).operations == (CASINO,)
    assert member(table.rules, PINKY).deed is None  # giving an operation up is not the giver's action


def test_an_operation_may_be_taken_off_a_mobster_under_law() -> None:
    table = game(2, crews={0: {PINKY: [CASINO], LUCKY: []}}, law={PINKY: [BEAT_COP]}, phase="recruit")

    table, _ = when(RULESET, table, 0, Attach(mobster=LUCKY, operation=CASINO))

    assert member(table.rules, LUCKY).operations == (CASINO,)


def test_a_mobster_may_hold_any_number_of_operations() -> None:
    table = game(2, hands={0: [FENCING]}, crews={0: {LUCKY: [CASINO, UNION, BROTHEL]}}, phase="recruit")

    table, _ = when(RULESET, table, 0, Attach(mobster=LUCKY, operation=FENCING))

    assert member(table.rules, LUCKY).operations == (CASINO, UNION, BROTHEL, FENCING)


def test_attaching_refuses_other_seats_operations_held_ones_other_cards_and_law_bound_mobsters() -> None:
    crews = {0: {LUCKY: [CASINO], PINKY: []}, 1: {TONY: [UNION]}}
    table = game(2, hands={0: [SNIPER, BROTHEL]}, crews=crews, law={PINKY: [BEAT_COP]}, phase="recruit")

    assert refused(RULESET, table, 0, Attach(mobster=LUCKY, operation=UNION)) == "operation_not_available"
    assert refused(RULESET, table, 0, Attach(mobster=LUCKY, operation=CASINO)) == "operation_already_held"
    assert refused(RULESET, table, 0, Attach(mobster=LUCKY, operation=SNIPER)) == "wrong_card"
    assert refused(RULESET, table, 0, Attach(mobster=PINKY, operation=BROTHEL)) == "mobster_under_law"
    assert refused(RULESET, table, 0, Attach(mobster=TONY, operation=BROTHEL)) == "not_your_mobster"
    assert RULESET.legal_moves(table.rules, 0) == [Attach(mobster=LUCKY, operation=BROTHEL), EndPhase()]


# --- law ---------------------------------------------------------------------------------------------------------


def law_game(**kwargs: Any) -> Table[Any]:
    """Seat 0's Law phase; seat 0 runs Lucky and Pinky, seat 1 runs Tony."""
    crews = kwargs.pop("crews", {0: {LUCKY: [], PINKY: []}, 1: {TONY: []}})
    return game(2, crews=crews, phase="law", **kwargs)


def test_any_number_of_law_cards_go_on_opponents_mobsters() -> None:
    table = law_game(hands={0: [BEAT_COP, WIRE_TAP]})

    table, events = moves(table, 0, Arrest(card=BEAT_COP, mobster=TONY), Arrest(card=WIRE_TAP, mobster=TONY))

    assert events == [
        ev.LawPlaced(seat=0, card=BEAT_COP, target_seat=1, mobster=TONY),
        ev.LawPlaced(seat=0, card=WIRE_TAP, target_seat=1, mobster=TONY),
    ]
    assert member(table.rules, TONY).law == (BEAT_COP, WIRE_TAP)


def test_law_cards_go_only_on_opponents_mobsters_in_play() -> None:
    table = law_game(hands={0: [BEAT_COP, ALIBI]})

    assert refused(RULESET, table, 0, Arrest(card=BEAT_COP, mobster=LUCKY)) == "target_is_yours"
    assert refused(RULESET, table, 0, Arrest(card=BEAT_COP, mobster=TINY)) == "mobster_not_in_play"
    assert refused(RULESET, table, 0, Arrest(card=ALIBI, mobster=TONY)) == "wrong_card"


def test_an_escape_law_card_discards_one_law_card_from_one_of_your_mobsters() -> None:
    table = law_game(hands={0: [ALIBI]}, law={PINKY: [BEAT_COP, WIRE_TAP]})

    table, events = when(RULESET, table, 0, Escape(card=ALIBI, law=WIRE_TAP))

    assert events == [ev.LawEscaped(seat=0, card=ALIBI, mobster=PINKY, law=WIRE_TAP)]
    assert member(table.rules, PINKY).law == (BEAT_COP,)
    assert table.rules.discard == (ALIBI, WIRE_TAP)


def test_any_number_of_escape_law_cards_may_be_played() -> None:
    table = law_game(hands={0: [ALIBI, PAROLE]}, law={PINKY: [BEAT_COP, WIRE_TAP]})

    table, _ = moves(table, 0, Escape(card=ALIBI, law=WIRE_TAP), Escape(card=PAROLE, law=BEAT_COP))

    assert member(table.rules, PINKY).law == ()


def test_escape_law_frees_only_your_own_mobsters() -> None:
    crews = {0: {LUCKY: []}, 1: {TONY: []}}
    table = law_game(crews=crews, hands={0: [ALIBI, BEAT_COP]}, law={TONY: [SNITCH]})

    assert refused(RULESET, table, 0, Escape(card=ALIBI, law=SNITCH)) == "law_not_on_your_mobster"
    assert refused(RULESET, table, 0, Escape(card=BEAT_COP, law=SNITCH)) == "wrong_card"


def test_a_mobster_pays_3000_to_remove_a_law_card_from_another_of_your_mobsters() -> None:
    table = law_game(law={PINKY: [BEAT_COP]}, money={0: 4000})

    table, events = when(RULESET, table, 0, Bribe(mobster=LUCKY, law=BEAT_COP))

    assert events == [ev.LawBribed(seat=0, mobster=LUCKY, holder=PINKY, law=BEAT_COP, price=3000)]
    assert money(table)[0] == 1000
    assert member(table.rules, PINKY).law == ()
    assert table.rules.discard == (BEAT_COP,)


def test_a_bribe_needs_3000_in_hand_and_a_mobster_free_to_act() -> None:
    table = law_game(law={PINKY: [BEAT_COP]}, money={0: 2999})

    assert refused(RULESET, table, 0, Bribe(mobster=LUCKY, law=BEAT_COP)) == "not_enough_money"
    assert refused(RULESET, table, 0, Bribe(mobster=PINKY, law=BEAT_COP)) == "mobster_under_law"


def test_a_bribe_frees_only_your_own_mobsters_and_is_one_action() -> None:
    crews = {0: {LUCKY: [], PINKY: [], MALONE: []}, 1: {TONY: []}}
    table = law_game(crews=crews, law={TONY: [SNITCH], PINKY: [BEAT_COP], MALONE: [WIRE_TAP]}, money={0: 9000})

    assert refused(RULESET, table, 0, Bribe(mobster=LUCKY, law=SNITCH)) == "law_not_on_your_mobster"
    table, _ = when(RULESET, table, 0, Bribe(mobster=LUCKY, law=BEAT_COP))
    assert refused(RULESET, table, 0, Bribe(mobster=LUCKY, law=WIRE_TAP)) == "action_spent"


def test_a_mobster_freed_of_its_last_law_card_has_its_action_back() -> None:
    table = law_game(hands={0: [ALIBI, PAROLE]}, law={PINKY: [BEAT_COP, WIRE_TAP], LUCKY: [SNITCH]}, money={0: 3000})

    table, _ = when(RULESET, table, 0, Escape(card=ALIBI, law=BEAT_COP))
    assert refused(RULESET, table, 0, Bribe(mobster=PINKY, law=SNITCH)) == "mobster_under_law"
    table, _ = when(RULESET, table, 0, Escape(card=PAROLE, law=WIRE_TAP))
    table, _ = when(RULESET, table, 0, Bribe(mobster=PINKY, law=SNITCH))

    assert member(table.rules, LUCKY).law == ()


def test_law_moves_are_made_only_in_the_law_phase() -> None:
    table = game(2, hands={0: [BEAT_COP]}, crews={1: {TONY: []}}, phase="recruit")

    assert refused(RULESET, table, 0, Arrest(card=BEAT_COP, mobster=TONY)) == "not_law_phase"
