"""Mobsters' cheap evaluation: each seat's chance of winning from its money, crew and hand, and what is to come."""

from __future__ import annotations

import math

from games.mobsters import RULESET
from games.mobsters.cards import DECK
from games.mobsters.evaluate import HANDICAPPED_ROUNDS, collections, evaluate, handicap, projected, softmax, strengths
from games.mobsters.state import Boss, Mobster, Phase, State
from games.search import handicapped
from games.selfplay import play_out
from tests.games.mobsters_helpers import mobster, operation

LUCKY, TONY, CASINO = mobster("Lucky"), mobster("Tony"), operation("Casino")


def state(*bosses: Boss, deck: int = 60, phase: Phase = Phase.HIT, active: int = 0) -> State:
    return State(
        seats=len(bosses),
        attendance=False,
        open_setup=False,
        first_player=None,
        bosses=bosses,
        deck=DECK[:deck],
        phase=phase,
        turn=5,
        active=active,
    )


def test_the_chances_add_up_to_one_and_of_seats_alike_the_sooner_to_play_is_the_likelier() -> None:
    chances = evaluate(state(Boss(), Boss(), Boss(), active=1))
    assert math.isclose(sum(chances), 1)
    assert chances[1] > chances[2] > chances[0]


def test_more_money_is_never_worse_however_much_is_to_come() -> None:
    for seats in (2, 3, 4):
        for deck in range(0, len(DECK) + 1, 5):
            others = [Boss()] * (seats - 1)
            richer, poorer = (evaluate(state(Boss(money=m), *others, deck=deck, active=1))[0] for m in (1500, 1000))
            assert richer > poorer, (seats, deck)


def test_money_and_an_earning_crew_raise_a_seats_chance_and_the_law_lowers_it() -> None:
    richer = evaluate(state(Boss(money=3000), Boss()))
    assert richer[0] > 0.5 > richer[1]
    earning = Boss(crew=(Mobster(card=LUCKY, operations=(CASINO,)),))
    assert evaluate(state(earning, Boss(crew=(Mobster(card=TONY),))))[0] > 0.5
    arrested = Boss(crew=(Mobster(card=LUCKY, operations=(CASINO,), law=("law:beat-cop",)),))
    assert evaluate(state(arrested, Boss()))[0] < evaluate(state(earning, Boss()))[0]


def test_the_income_to_come_is_counted_over_the_collections_left_in_turn_order() -> None:
    # 8 cards: 3 turns to come (2.5 cards a turn): this turn's and the third are the active seat's
    assert collections(state(Boss(), Boss(), deck=8, phase=Phase.HIT)) == [2, 1]
    # its Collection this turn made, the turns to come start with the next seat's: one is its own
    assert collections(state(Boss(), Boss(), deck=8, phase=Phase.RECRUIT)) == [1, 2]
    earning = Boss(crew=(Mobster(card=LUCKY, operations=(CASINO,)),))
    assert (
        evaluate(state(earning, Boss(), deck=8, phase=Phase.HIT))[0]
        > evaluate(state(earning, Boss(), deck=8, phase=Phase.RECRUIT))[0]
    )


def test_between_two_seats_a_seats_final_money_is_guessed_from_its_income_to_come() -> None:
    earning = Boss(crew=(Mobster(card=LUCKY, operations=(CASINO,)),))
    # 8 cards: 3 turns to come; Lucky earns $500 a Collection on the Casino, and $150 an action
    assert projected(state(earning, Boss(), deck=8, phase=Phase.HIT))[0] == 1000 + 2 * 650  # this turn's and the third
    assert projected(state(earning, Boss(), deck=8, phase=Phase.RECRUIT))[0] == 1000 + 650


def test_a_card_in_hand_counts_until_the_deck_runs_out() -> None:
    holding = (Boss(hand=(LUCKY, TONY)), Boss())
    assert evaluate(state(*holding, deck=60))[0] > 0.5
    assert math.isclose(evaluate(state(*holding, deck=0))[0], evaluate(state(Boss(), Boss(), deck=0))[0])


def test_a_lead_is_worth_more_near_the_end() -> None:
    leading = (Boss(money=3000), Boss())
    assert evaluate(state(*leading, deck=4))[0] > evaluate(state(*leading, deck=100))[0]


def test_the_favourite_of_a_game_of_smart_bots_wins_more_often_than_chance() -> None:
    """The winner's mean chance scores better than even chances would, over turns of whole games."""
    loss = even = 0.0
    for seats in (2, 3, 4):
        for seed in range(8):
            states, winners = played(seats, 500 + seed)
            for s in states[len(states) // 10 :: max(1, len(states) // 8)]:
                if s.phase is not Phase.SETUP:
                    loss -= math.log(sum(evaluate(s)[w] for w in winners))
                    even -= math.log(len(winners) / seats)
    assert loss < 0.9 * even


def test_a_seat_that_plays_at_random_is_handicapped_the_more_the_more_rounds_it_will_play() -> None:
    assert handicap(state(Boss(), Boss(), Boss(), deck=0)) == 0
    # 3 seats, 2.5 cards a turn: 15 cards are two rounds, 30 four; the handicap stops growing at two
    near, two, four = (handicap(state(Boss(), Boss(), Boss(), deck=deck)) for deck in (5, 15, 30))
    assert 0 < near < two == four
    assert HANDICAPPED_ROUNDS == 2
    assert RULESET.searching.handicap is handicap


def test_the_handicap_judges_a_random_seat_among_smart_ones_better_than_the_weights_alone() -> None:
    """The weights were fitted to smart players: beside two of them a random bot's seat wins far less often than they
    judge, and the handicap brings its chance nearer to what it wins."""
    judged = judged_handicapped = 0.0
    for seed in range(12):
        kinds = ["smart", "smart", "smart"]
        kinds[seed % 3] = "random"
        states, winners = played(3, 700 + seed, kinds)
        for s in states[len(states) // 10 :: max(1, len(states) // 8)]:
            if s.phase is Phase.SETUP:
                continue
            chances = softmax(strengths(s))
            weaker = handicapped(chances, {kinds.index("random")}, handicap(s))  # as the search does
            judged -= math.log(sum(chances[w] for w in winners))
            judged_handicapped -= math.log(sum(weaker[w] for w in winners))
    assert judged_handicapped < 0.85 * judged


def played(seats: int, seed: int, kinds: list[str] | None = None) -> tuple[list[State], tuple[int, ...]]:
    """Every state a game of smart bots (or of `kinds`) asks a decision in, and its winners."""
    states: list[State] = []
    table = play_out(RULESET, kinds or ["smart"] * seats, seed, watch=lambda t, s, _: states.append(t.rules))
    return states, RULESET.result(table.rules).winners
