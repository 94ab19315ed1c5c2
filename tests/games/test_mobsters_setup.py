"""Mobsters setup: the shuffle, $1,000 and 7 cards each, the first player, and redealing a hand with no mobster."""

from __future__ import annotations

import pytest

from games.mobsters import RULESET
from games.mobsters import events as ev
from games.mobsters.cards import CARDS, DECK, Kind
from games.mobsters.moves import EndPhase, KeepHand, Redeal
from games.mobsters.state import Phase
from games.table import SetupError, Status
from tests.games.helpers import created, given, refused, when
from tests.games.mobsters_helpers import mobster, of_kind, of_type, stacked_start

PLAIN = [c for c in DECK if CARDS[c].kind is not Kind.MOBSTER]
"""Every card but the mobsters, in rulebook order."""
LUCKY, TONY = mobster("Lucky"), mobster("Tony")


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_two_to_six_seats_each_start_with_1000_and_7_cards(seats: int) -> None:
    hands = [[of_kind(Kind.MOBSTER)[s], *PLAIN[6 * s : 6 * s + 6]] for s in range(seats)]
    table, _ = stacked_start(hands)

    assert table.status is Status.IN_PROGRESS
    assert [b.money for b in table.rules.bosses] == [1000] * seats
    assert [len(b.hand) for b in table.rules.bosses] == [9] + [7] * (seats - 1)  # seat 0 has drawn its 2
    assert len(table.rules.deck) == 161 - 7 * seats - 2


@pytest.mark.parametrize("seats", [1, 7])
def test_one_or_seven_seats_are_refused(seats: int) -> None:
    with pytest.raises(SetupError):
        created(RULESET, seats)


def test_the_shuffled_deck_is_recorded_and_dealt_from_the_top_7_cards_a_seat() -> None:
    events = created(RULESET, 3, {"first_player": 0}, seed=11)
    [shuffled] = of_type(events, ev.DeckShuffled)
    deals = [e for e in of_type(events, ev.CardsDrawn) if e.reason == "deal"]

    assert sorted(shuffled.cards) == sorted(DECK)
    assert shuffled.cards != DECK
    assert [d.cards for d in deals] == [shuffled.cards[0:7], shuffled.cards[7:14], shuffled.cards[14:21]]


def test_the_same_seed_shuffles_alike_and_another_seed_differently() -> None:
    def order(seed: int) -> tuple[str, ...]:
        return of_type(created(RULESET, 3, {"first_player": 0}, seed=seed), ev.DeckShuffled)[0].cards

    assert order(1) == order(1)
    assert order(1) != order(2)


def test_the_first_player_is_drawn_at_random_and_recorded() -> None:
    firsts = set()
    for seed in range(40):
        [chosen] = of_type(created(RULESET, 4, seed=seed), ev.FirstPlayerChosen)
        assert chosen.drawn
        firsts.add(chosen.seat)
    assert firsts == {0, 1, 2, 3}


def test_options_first_player_names_the_first_seat() -> None:
    events = created(RULESET, 4, {"first_player": 2}, seed=3)

    assert of_type(events, ev.FirstPlayerChosen) == [ev.FirstPlayerChosen(seat=2, drawn=False)]


def test_the_first_turn_starts_at_once_when_every_hand_holds_a_mobster() -> None:
    table, events = stacked_start([[LUCKY, *PLAIN[:6]], [TONY, *PLAIN[6:12]]], first=1)

    assert [e.type for e in events][-2:] == ["mobsters.turn_started", "mobsters.cards_drawn"]
    assert table.rules.phase is Phase.DRAW
    assert table.rules.active == 1
    assert RULESET.awaiting(table.rules) == {1: "draw"}


def test_a_seat_dealt_no_mobster_is_awaited_to_redeal_or_keep() -> None:
    table, _ = stacked_start([[LUCKY, *PLAIN[:6]], PLAIN[6:13]])

    assert table.rules.phase is Phase.SETUP
    assert RULESET.awaiting(table.rules) == {1: "redeal"}
    assert RULESET.legal_moves(table.rules, 1) == [Redeal(), KeepHand()]
    assert RULESET.legal_moves(table.rules, 0) == []


def test_a_seat_dealt_a_mobster_may_not_redeal() -> None:
    table, _ = stacked_start([[LUCKY, *PLAIN[:6]], PLAIN[6:13]])

    assert refused(RULESET, table, 0, Redeal()) == "hand_has_mobster"
    assert refused(RULESET, table, 0, KeepHand()) == "hand_has_mobster"
    assert refused(RULESET, table, 0, EndPhase()) == "setup_not_over"


def test_a_redeal_discards_the_hand_face_up_and_draws_7_more() -> None:
    table, _ = stacked_start([[LUCKY, *PLAIN[:6]], PLAIN[6:13]], then=[TONY, *PLAIN[13:19]])

    table, events = when(RULESET, table, 1, Redeal())

    assert events[:2] == [
        ev.CardsDiscarded(seat=1, reason="redeal", cards=tuple(PLAIN[6:13])),
        ev.CardsDrawn(seat=1, reason="redeal", count=7, cards=(TONY, *PLAIN[13:19])),
    ]
    assert table.rules.discard == tuple(PLAIN[6:13])
    assert table.rules.bosses[1].hand == (TONY, *PLAIN[13:19])
    assert table.rules.phase is Phase.DRAW  # the new hand holds Tony: the first turn starts


def test_a_redealt_hand_with_no_mobster_may_be_redealt_again() -> None:
    table, _ = stacked_start([[LUCKY, *PLAIN[:6]], PLAIN[6:13]], then=[*PLAIN[13:20], TONY])

    table, _ = when(RULESET, table, 1, Redeal())
    assert RULESET.awaiting(table.rules) == {1: "redeal"}
    table, _ = when(RULESET, table, 1, Redeal())

    assert TONY in table.rules.bosses[1].hand
    assert table.rules.discard == tuple(PLAIN[6:20])
    assert table.rules.phase is Phase.DRAW


def test_a_seat_may_keep_a_hand_with_no_mobster_and_the_game_starts() -> None:
    table, _ = stacked_start([[LUCKY, *PLAIN[:6]], PLAIN[6:13]])

    table, events = when(RULESET, table, 1, KeepHand())

    assert events[:2] == [ev.HandKept(seat=1), ev.TurnStarted(turn=1, seat=0)]
    assert table.rules.bosses[1].hand == tuple(PLAIN[6:13])
    assert refused(RULESET, table, 1, Redeal()) == "not_setup_phase"


def test_every_seat_dealt_no_mobster_decides_in_any_order_before_the_first_turn() -> None:
    table, _ = stacked_start([PLAIN[:7], PLAIN[7:14], [LUCKY, *PLAIN[14:20]]])

    assert RULESET.awaiting(table.rules) == {0: "redeal", 1: "redeal"}
    table, _ = when(RULESET, table, 1, KeepHand())
    assert RULESET.awaiting(table.rules) == {0: "redeal"}
    assert refused(RULESET, table, 1, Redeal()) == "already_kept"
    table, _ = when(RULESET, table, 0, Redeal())  # the rest of the deck starts with mobsters

    assert table.rules.phase is Phase.DRAW
    assert table.rules.turn == 1


def test_a_redeal_that_draws_the_last_card_ends_the_game_before_the_first_turn() -> None:
    mobsters = of_kind(Kind.MOBSTER)
    hands = [mobsters[0:7], mobsters[7:14], mobsters[14:21], [*mobsters[21:26], *PLAIN[:2]], PLAIN[2:9], PLAIN[9:16]]
    table, _ = stacked_start(hands)
    table, _ = when(RULESET, table, 4, KeepHand())

    redeals = 0
    while table.status is Status.IN_PROGRESS:
        table, events = when(RULESET, table, 5, Redeal())
        redeals += 1

    assert redeals == (161 - 42) // 7
    assert events[-1] == ev.GameEnded(reason="last_card_drawn")
    assert table.rules.deck == ()
    assert RULESET.result(table.rules).winners == (0, 1, 2, 3, 4, 5)


def test_the_started_game_is_built_from_the_recorded_facts_alone() -> None:
    events = created(RULESET, 3, seed=5)
    table = given(RULESET, events)

    assert sum(len(b.hand) for b in table.rules.bosses) + len(table.rules.deck) + len(table.rules.discard) == 161
