"""Mobsters setup: the shuffle, $1,000 and 7 cards each, the first player, and the secret setup decision (keep or,
for a hand with no mobster, redeal); `open_setup`, the setup stored games were played under."""

from __future__ import annotations

import pytest

from games.base import EVERYONE, SPECTATOR
from games.mobsters import RULESET
from games.mobsters import events as ev
from games.mobsters.cards import CARDS, DECK, Kind
from games.mobsters.moves import EndPhase, KeepHand, Redeal
from games.mobsters.state import Phase
from games.refusals import SetupError
from games.table import Status
from tests.games.helpers import created, given, refused, when
from tests.games.mobsters_helpers import all_kept, decided, mobster, of_kind, of_type, stacked_start

PLAIN = [c for c in DECK if CARDS[c].kind is not Kind.MOBSTER]
"""Every card but the mobsters, in rulebook order."""
LUCKY, TONY = mobster("Lucky"), mobster("Tony")
OPEN = {"open_setup": True}


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_two_to_six_seats_each_start_with_1000_and_7_cards(seats: int) -> None:
    hands = [[of_kind(Kind.MOBSTER)[s], *PLAIN[6 * s : 6 * s + 6]] for s in range(seats)]
    table, _ = stacked_start(hands)
    table, _ = all_kept(table)

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


# --- the secret setup decision ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_every_seat_is_awaited_for_its_setup_decision_mobster_or_not(seats: int) -> None:
    hands = [
        PLAIN[7 * s : 7 * s + 7] if s % 2 else [of_kind(Kind.MOBSTER)[s], *PLAIN[7 * s : 7 * s + 6]]
        for s in range(seats)
    ]
    table, events = stacked_start(hands)

    assert events[-1] == ev.FirstPlayerChosen(seat=0, drawn=False)
    assert table.rules.phase is Phase.SETUP
    assert RULESET.awaiting(table.rules) == dict.fromkeys(range(seats), "setup")


def test_only_a_hand_with_no_mobster_is_offered_and_allowed_a_redeal() -> None:
    table, _ = stacked_start([[LUCKY, *PLAIN[:6]], PLAIN[6:13]])

    assert RULESET.legal_moves(table.rules, 0) == [KeepHand()]
    assert RULESET.legal_moves(table.rules, 1) == [Redeal(), KeepHand()]
    assert refused(RULESET, table, 0, Redeal()) == "hand_has_mobster"
    assert refused(RULESET, table, 0, EndPhase()) == "setup_not_over"


def test_a_decision_is_face_down_until_every_seat_has_decided() -> None:
    table, _ = stacked_start([[LUCKY, *PLAIN[:6]], PLAIN[6:13], PLAIN[13:20]])

    table, events = decided(table, (1, Redeal()), (0, KeepHand()))

    assert events == [ev.SetupDecided(seat=1, redeal=True), ev.SetupDecided(seat=0, redeal=False)]
    assert RULESET.event_view(events[0], 1) == {"seat": 1, "redeal": True}
    assert RULESET.event_view(events[0], EVERYONE) == {"seat": 1, "redeal": True}
    assert RULESET.event_view(events[1], 0) == {"seat": 0, "redeal": False}
    for viewer in (2, SPECTATOR):
        assert [RULESET.event_view(e, viewer) for e in events] == [{"seat": 1}, {"seat": 0}]
    assert table.rules.bosses[1].hand == tuple(PLAIN[6:13])  # nothing is redealt yet
    assert RULESET.awaiting(table.rules) == {2: "setup"}
    assert RULESET.legal_moves(table.rules, 1) == []
    assert refused(RULESET, table, 1, KeepHand()) == "already_decided"
    assert refused(RULESET, table, 0, KeepHand()) == "already_decided"


def test_the_last_decision_reveals_them_all_and_the_redeals_follow_in_seat_order() -> None:
    hands = [PLAIN[:7], [LUCKY, *PLAIN[7:13]], PLAIN[13:20]]
    table, _ = stacked_start(hands, then=[TONY, *PLAIN[20:26], *PLAIN[26:33]])

    table, events = decided(table, (2, Redeal()), (1, KeepHand()), (0, Redeal()))

    assert events[2:] == [
        ev.SetupDecided(seat=0, redeal=True),
        ev.SetupRevealed(kept=(1,), redealing=(0, 2)),
        ev.CardsDiscarded(seat=0, reason="redeal", cards=tuple(PLAIN[:7])),
        ev.CardsDrawn(seat=0, reason="redeal", count=7, cards=(TONY, *PLAIN[20:26])),
        ev.CardsDiscarded(seat=2, reason="redeal", cards=tuple(PLAIN[13:20])),
        ev.CardsDrawn(seat=2, reason="redeal", count=7, cards=tuple(PLAIN[26:33])),
    ]
    assert table.rules.discard == (*PLAIN[:7], *PLAIN[13:20])
    assert table.rules.bosses[1].hand == (LUCKY, *PLAIN[7:13])


def test_after_a_redeal_every_seat_that_redealt_decides_again_whatever_its_new_hand() -> None:
    hands = [PLAIN[:7], [LUCKY, *PLAIN[7:13]], PLAIN[13:20]]
    table, _ = stacked_start(hands, then=[TONY, *PLAIN[20:26], *PLAIN[26:33]])
    table, _ = decided(table, (0, Redeal()), (1, KeepHand()), (2, Redeal()))

    assert table.rules.phase is Phase.SETUP
    assert RULESET.awaiting(table.rules) == {0: "setup", 2: "setup"}  # seat 0 now holds Tony, seat 2 no mobster
    assert RULESET.legal_moves(table.rules, 0) == [KeepHand()]
    assert RULESET.legal_moves(table.rules, 1) == []
    assert refused(RULESET, table, 1, KeepHand()) == "already_kept"
    assert RULESET.legal_moves(table.rules, 2) == [Redeal(), KeepHand()]


def test_a_redealt_hand_with_no_mobster_may_be_redealt_again_and_again() -> None:
    table, _ = stacked_start([[LUCKY, *PLAIN[:6]], PLAIN[6:13]], then=[*PLAIN[13:20], *PLAIN[20:27], TONY])

    table, _ = decided(table, (0, KeepHand()), (1, Redeal()))
    assert table.rules.bosses[1].hand == tuple(PLAIN[13:20])
    table, _ = decided(table, (1, Redeal()))
    assert table.rules.bosses[1].hand == tuple(PLAIN[20:27])
    table, events = decided(table, (1, Redeal()))

    assert TONY in table.rules.bosses[1].hand
    assert table.rules.discard == tuple(PLAIN[6:27])
    assert RULESET.awaiting(table.rules) == {1: "setup"}
    table, events = decided(table, (1, KeepHand()))
    assert events[:3] == [
        ev.SetupDecided(seat=1, redeal=False),
        ev.SetupRevealed(kept=(1,), redealing=()),
        ev.TurnStarted(turn=1, seat=0),
    ]


def test_a_hand_with_no_mobster_may_be_kept_and_the_first_turn_starts_once_nobody_redeals() -> None:
    table, _ = stacked_start([[LUCKY, *PLAIN[:6]], PLAIN[6:13]], first=1)

    table, events = decided(table, (1, KeepHand()), (0, KeepHand()))

    assert events[:3] == [
        ev.SetupDecided(seat=1, redeal=False),
        ev.SetupDecided(seat=0, redeal=False),
        ev.SetupRevealed(kept=(0, 1), redealing=()),
    ]
    assert events[3] == ev.TurnStarted(turn=1, seat=1)
    assert table.rules.bosses[1].hand[:7] == tuple(PLAIN[6:13])
    assert RULESET.awaiting(table.rules) == {1: "draw"}
    assert refused(RULESET, table, 0, Redeal()) == "not_setup_phase"


def test_a_new_wait_begins_with_each_round_of_setup_decisions() -> None:
    table, _ = stacked_start([[LUCKY, *PLAIN[:6]], PLAIN[6:13]], then=PLAIN[13:20])
    table, _ = decided(table, (0, KeepHand()))
    first_wait = table.wait_since

    table, _ = decided(table, (1, Redeal()))  # the lone seat left decides, and decides again

    assert RULESET.awaiting(table.rules) == {1: "setup"}
    assert table.wait_since > first_wait


def test_a_redeal_that_draws_the_last_card_ends_the_game_before_the_first_turn() -> None:
    mobsters = of_kind(Kind.MOBSTER)
    hands = [mobsters[0:7], mobsters[7:14], mobsters[14:21], [*mobsters[21:26], *PLAIN[:2]], PLAIN[2:9], PLAIN[9:16]]
    table, _ = stacked_start(hands)
    table, _ = decided(table, *((s, KeepHand()) for s in range(5)), (5, Redeal()))

    redeals = 1
    while table.status is Status.IN_PROGRESS:
        table, events = when(RULESET, table, 5, Redeal())
        redeals += 1

    assert redeals == (161 - 42) // 7
    assert events[-1] == ev.GameEnded(reason="last_card_drawn")
    assert table.rules.deck == ()
    assert RULESET.result(table.rules).winners == (0, 1, 2, 3, 4, 5)


def test_the_redeals_after_the_one_that_empties_the_deck_are_not_carried_out() -> None:
    mobsters = of_kind(Kind.MOBSTER)
    hands = [
        mobsters[0:7],
        [*mobsters[7:14]],
        PLAIN[:7],
        PLAIN[7:14],
        [*mobsters[14:21]],
        [*mobsters[21:26], *PLAIN[14:16]],
    ]
    table, _ = stacked_start(hands)
    # Seats 2 and 3 redeal until seat 2's redeal (the first in seat order) takes the deck's last 7 cards
    # (119 = 17 redeals of 7); seat 3's is then not carried out.
    table, _ = decided(table, *((s, KeepHand()) for s in (0, 1, 4, 5)))
    for _ in range(8):
        table, _ = decided(table, (2, Redeal()), (3, Redeal()))
    assert len(table.rules.deck) == 7
    second, third = table.rules.bosses[2].hand, table.rules.bosses[3].hand
    table, events = decided(table, (3, Redeal()), (2, Redeal()))

    assert [e.type for e in events[2:]] == [
        "mobsters.setup_revealed",
        "mobsters.cards_discarded",
        "mobsters.cards_drawn",
        "mobsters.game_ended",
    ]
    assert events[3] == ev.CardsDiscarded(seat=2, reason="redeal", cards=second)
    assert table.rules.discard[-7:] == second
    assert table.rules.bosses[3].hand == third
    assert table.status is Status.FINISHED


def test_the_started_game_is_built_from_the_recorded_facts_alone() -> None:
    events = created(RULESET, 3, seed=5)
    table = given(RULESET, events)

    assert sum(len(b.hand) for b in table.rules.bosses) + len(table.rules.deck) + len(table.rules.discard) == 161


# --- open_setup: how games created before the secret setup were played ---------------------------------------


def test_open_setup_awaits_only_the_seats_dealt_no_mobster() -> None:
    table, _ = stacked_start([[LUCKY, *PLAIN[:6]], PLAIN[6:13]], options=OPEN)

    assert RULESET.awaiting(table.rules) == {1: "setup"}
    assert RULESET.legal_moves(table.rules, 1) == [Redeal(), KeepHand()]
    assert RULESET.legal_moves(table.rules, 0) == []
    assert refused(RULESET, table, 0, KeepHand()) == "hand_has_mobster"


def test_open_setup_starts_at_once_when_every_hand_holds_a_mobster() -> None:
    table, events = stacked_start([[LUCKY, *PLAIN[:6]], [TONY, *PLAIN[6:12]]], first=1, options=OPEN)

    assert [e.type for e in events][-2:] == ["mobsters.turn_started", "mobsters.cards_drawn"]
    assert RULESET.awaiting(table.rules) == {1: "draw"}


def test_open_setup_redeals_and_keeps_in_public_at_once() -> None:
    table, _ = stacked_start([[LUCKY, *PLAIN[:6]], PLAIN[6:13], PLAIN[13:20]], then=PLAIN[20:27], options=OPEN)

    table, events = when(RULESET, table, 1, Redeal())
    assert events == [
        ev.CardsDiscarded(seat=1, reason="redeal", cards=tuple(PLAIN[6:13])),
        ev.CardsDrawn(seat=1, reason="redeal", count=7, cards=tuple(PLAIN[20:27])),
    ]
    assert RULESET.awaiting(table.rules) == {1: "setup", 2: "setup"}
    table, events = when(RULESET, table, 2, KeepHand())
    assert events == [ev.HandKept(seat=2)]
    assert RULESET.event_view(events[0], SPECTATOR) == {"seat": 2}
    assert refused(RULESET, table, 2, Redeal()) == "already_kept"
    table, events = when(RULESET, table, 1, KeepHand())
    assert events[:2] == [ev.HandKept(seat=1), ev.TurnStarted(turn=1, seat=0)]
