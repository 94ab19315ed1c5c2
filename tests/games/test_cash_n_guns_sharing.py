"""Ca$h 'n Guns, one test per rule or ruling: the bullets, wounds and deaths; the sharing, the New Godfather
token, clips and first-aid kits; loot nobody takes."""

from __future__ import annotations

from games.cash_n_guns import RULESET
from games.cash_n_guns.events import GameEnded, LootRevealed, LootTaken, ShotsResolved, TokenTaken, TurnEnded
from games.cash_n_guns.moves import Load, Take
from games.cash_n_guns.state import Phase
from games.table import Status
from tests.games.cng_helpers import hold_up, new_game, of_type, ring, share, stacked, turn
from tests.games.helpers import refused, when

FILLER = tuple(f"cash-5000-{n:02d}" for n in range(1, 9))
"""Eight banknotes: a first pile with nothing special in it."""


def takers(events: list) -> list[int]:
    return [e.seat for e in events if isinstance(e, LootTaken | TokenTaken)]


# --- bullets -----------------------------------------------------------------------------------------------


def test_two_seats_shooting_each_other_are_both_wounded() -> None:
    table, events = hold_up(new_game(4), aims={0: 1, 1: 0, 2: 3, 3: 2}, loads={0: "bang", 1: "bang"})

    assert of_type(events, ShotsResolved)[0] == ShotsResolved(
        turn=1, cards=("bang", "bang", "click", "click"), hits=(1, 1, 0, 0), died=()
    )
    assert [g.wounds for g in table.rules.gangsters] == [1, 1, 0, 0]


def test_a_seat_hit_by_two_bangs_takes_two_wounds() -> None:
    table, events = hold_up(new_game(4), aims={0: 2, 1: 2, 2: 3, 3: 0}, loads={0: "bang", 1: "bang"})

    assert of_type(events, ShotsResolved)[0].hits == (0, 0, 2, 0)
    assert table.rules.gangsters[2].wounds == 2
    assert table.rules.gangsters[2].alive


def test_a_click_does_nothing() -> None:
    table, events = hold_up(new_game(4), aims=ring(4))

    assert of_type(events, ShotsResolved)[0].cards == ("click",) * 4
    assert [g.wounds for g in table.rules.gangsters] == [0] * 4


def test_a_seat_that_lies_down_and_the_seat_aiming_at_it_discard_their_cards_unseen() -> None:
    table, events = hold_up(new_game(4), aims={0: 1, 1: 0, 2: 3, 3: 2}, loads={0: "bang", 1: "bang"}, stands={1: False})

    shots = of_type(events, ShotsResolved)[0]
    assert shots.cards == ("discarded", "discarded", "click", "click")
    assert shots.hits == (0, 0, 0, 0)
    assert [(g.bangs, g.clicks) for g in table.rules.gangsters[:2]] == [(2, 5), (2, 5)]


def test_every_loaded_card_is_spent_whether_revealed_or_discarded() -> None:
    table, _ = hold_up(new_game(4), aims={0: 1, 1: 0}, stands={2: False})

    assert [g.bangs + g.clicks for g in table.rules.gangsters] == [7, 7, 7, 7]
    assert [g.loaded for g in table.rules.gangsters] == [None] * 4


def test_a_wounded_seat_counts_as_lying_down_and_takes_no_share() -> None:
    table, events = turn(new_game(4), aims={0: 1, 1: 2, 2: 3, 3: 0}, loads={0: "bang"})

    assert not table.rules.gangsters[1].standing
    assert 1 not in takers(events)
    assert set(takers(events)) == {0, 2, 3}


def test_three_wounds_kill_at_once_and_the_dead_take_no_share() -> None:
    table, events = turn(new_game(4), aims={1: 0, 2: 0, 3: 0}, loads=dict.fromkeys((1, 2, 3), "bang"))

    assert of_type(events, ShotsResolved)[0].died == (0,)
    assert not table.rules.gangsters[0].alive
    assert 0 not in takers(events)
    assert 0 not in RULESET.awaiting(table.rules)


def test_a_seat_with_two_wounds_hit_twice_dies_with_four() -> None:
    table, _ = turn(new_game(4), aims={1: 0, 2: 0, 3: 1}, loads={1: "bang", 2: "bang"})
    table, events = turn(table, aims={1: 0, 2: 0, 3: 1}, loads={1: "bang", 2: "bang"})

    assert of_type(events, ShotsResolved)[0].died == (0,)
    assert table.rules.gangsters[0].wounds == 4


def test_a_dead_seats_loot_leaves_the_game_with_it() -> None:
    table, _ = turn(new_game(4), aims={}, stands={1: False, 2: False, 3: False})  # seat 0 takes all 8
    loot = table.rules.gangsters[0].loot
    assert len(loot) == 8

    table, _ = turn(table, aims={1: 0, 2: 0, 3: 0}, loads=dict.fromkeys((1, 2, 3), "bang"))

    assert table.rules.gangsters[0].loot == loot  # left with the dead, never shared again
    assert not set(loot) & set(table.rules.table_loot)
    assert not set(loot) & {c for g in table.rules.gangsters[1:] for c in g.loot}


# --- the sharing ----------------------------------------------------------------------------------------------


def test_the_sharing_starts_with_the_godfather_and_goes_clockwise_round_and_round() -> None:
    table, events = turn(new_game(4, godfather=2), aims={})

    assert takers(events) == [2, 3, 0, 1, 2, 3, 0, 1]
    assert of_type(events, TurnEnded)[0].carried == ()
    assert [len(g.loot) for g in table.rules.gangsters] == [2, 2, 2, 2]


def test_a_wounded_godfather_lets_the_nearest_standing_seat_clockwise_start() -> None:
    table, events = hold_up(new_game(4, godfather=1), aims={0: 1, 1: 0, 3: 0}, loads={0: "bang"}, stands={2: False})

    assert RULESET.awaiting(table.rules) == {3: "take"}
    _, events = share(table)
    assert takers(events) == [3, 0, 3, 0, 3, 0, 3, 0]


def test_a_godfather_lying_down_lets_the_next_standing_seat_start() -> None:
    table, _ = hold_up(new_game(4, godfather=3), aims={}, stands={3: False})

    assert RULESET.awaiting(table.rules) == {0: "take"}


def test_a_lone_standing_seat_takes_everything() -> None:
    table, events = turn(new_game(5), aims={}, stands={0: False, 1: False, 3: False, 4: False})

    assert takers(events) == [2] * 8
    assert len(table.rules.gangsters[2].loot) == 8


def test_the_legal_picks_are_every_card_on_the_table_and_the_token() -> None:
    table, _ = hold_up(new_game(4, piles=stacked(*FILLER)), aims={})

    assert RULESET.legal_moves(table.rules, 0) == [*(Take(loot=c) for c in FILLER), Take(godfather_token=True)]
    assert RULESET.legal_moves(table.rules, 1) == []


def test_picking_out_of_turn_or_what_is_not_there_is_refused() -> None:
    table, _ = hold_up(new_game(4, piles=stacked(*FILLER)), aims={})

    assert refused(RULESET, table, 1, Take(loot=FILLER[0])) == "not_your_turn"
    assert refused(RULESET, table, 0, Take(loot="cash-5000-15")) == "loot_not_available"
    assert refused(RULESET, table, 0, Take(loot="gold-bar")) == "loot_not_available"
    assert refused(RULESET, table, 0, Take()) == "invalid_take"
    assert refused(RULESET, table, 0, Take(loot=FILLER[0], godfather_token=True)) == "invalid_take"
    assert refused(RULESET, new_game(4), 0, Take(loot=FILLER[0])) == "not_sharing_phase"


def test_the_token_is_one_pick_and_its_taker_is_godfather_next_turn() -> None:
    table, events = turn(new_game(4, godfather=0, piles=stacked(*FILLER)), aims={}, picks=[FILLER[0], None])

    assert events[events.index(TokenTaken(seat=1)) + 1] == LootTaken(seat=2, card=FILLER[1])
    assert takers(events) == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    assert of_type(events, TurnEnded)[0].godfather == 1
    assert table.rules.godfather == 1
    assert table.rules.token_available  # available again in the new turn


def test_the_token_can_be_taken_once_per_turn() -> None:
    table, _ = hold_up(new_game(4, piles=stacked(*FILLER)), aims={})
    table, _ = when(RULESET, table, 0, Take(godfather_token=True))

    assert refused(RULESET, table, 1, Take(godfather_token=True)) == "token_already_taken"
    assert Take(godfather_token=True) not in RULESET.legal_moves(table.rules, 1)


def test_the_godfather_stays_when_nobody_takes_the_token() -> None:
    table, events = turn(new_game(4, godfather=2), aims={})

    assert of_type(events, TurnEnded)[0].godfather == 2
    assert table.rules.godfather == 2


def test_the_sharing_ends_when_the_loot_cards_are_gone_even_with_the_token_left() -> None:
    table, _ = hold_up(new_game(4), aims={})
    table, events = share(table)

    assert len(of_type(events, LootTaken)) == 8
    assert of_type(events, TokenTaken) == []
    assert isinstance(events[-1], LootRevealed)


def test_a_dead_godfather_passes_to_the_nearest_living_seat_clockwise_when_nobody_takes_the_token() -> None:
    table, _ = turn(new_game(5, godfather=1), aims={0: 2, 3: 2, 4: 2}, loads=dict.fromkeys((0, 3, 4), "bang"))
    assert not table.rules.gangsters[2].alive
    assert table.rules.godfather == 1

    table, events = turn(table, aims={0: 1, 3: 1, 4: 1}, loads=dict.fromkeys((0, 3, 4), "bang"))

    assert of_type(events, ShotsResolved)[0].died == (1,)
    assert of_type(events, TurnEnded)[0].godfather == 3  # seat 2 is dead too


def test_a_dead_godfather_passes_to_the_token_taker_if_any() -> None:
    loads = dict.fromkeys((1, 2, 3), "bang")
    table = new_game(4, godfather=0, piles=stacked(*FILLER))
    table, events = turn(table, aims={1: 0, 2: 0, 3: 0}, loads=loads, picks=[FILLER[0], None])

    assert takers(events)[:2] == [1, 2]
    assert table.rules.godfather == 2


def test_when_nobody_stands_the_loot_joins_the_next_turns_loot() -> None:
    table = new_game(4, godfather=3, piles=stacked(*FILLER))
    first, second = table.rules.table_loot, table.rules.piles[0]

    table, events = hold_up(table, aims={}, stands=dict.fromkeys(range(4), False))

    assert of_type(events, TurnEnded) == [TurnEnded(turn=1, godfather=3, carried=first, lost=())]
    assert table.rules.turn == 2
    assert table.rules.table_loot == first + second
    _, events = turn(table, aims={})
    assert len(of_type(events, LootTaken)) == 16


def test_loot_nobody_takes_in_the_eighth_turn_is_lost() -> None:
    table = new_game(4)
    for _ in range(7):
        table, _ = turn(table, aims={})
    last = table.rules.table_loot

    table, events = hold_up(table, aims={}, stands=dict.fromkeys(range(4), False))

    assert of_type(events, TurnEnded)[0].lost == last
    assert events[-1] == GameEnded(reason="eighth_turn")
    assert table.rules.lost == last
    assert table.rules.table_loot == ()
    assert table.status is Status.FINISHED


# --- clips and first-aid kits -----------------------------------------------------------------------------


def test_a_clip_adds_a_bang_card_at_once_a_ninth_bullet_card() -> None:
    piles = stacked("clip-1", *FILLER[:4], "clip-2", "clip-3")  # seats 1 and 2 take the other clips
    table, _ = turn(new_game(4, godfather=0, piles=piles), aims={})

    assert (table.rules.gangsters[0].bangs, table.rules.gangsters[0].clicks) == (4, 4)
    for _ in range(7):
        table, _ = turn(table, aims={}, loads={0: "bang" if table.rules.gangsters[0].bangs else "click"})
    assert table.status is Status.FINISHED
    assert table.rules.gangsters[0].bangs + table.rules.gangsters[0].clicks == 1  # a card left unused


def test_a_clip_bang_can_be_loaded_like_any_other() -> None:
    table, _ = turn(new_game(4, godfather=0, piles=stacked("clip-1")), aims={})
    for _ in range(3):
        table, _ = turn(table, aims={}, loads={0: "bang"})

    table, _ = when(RULESET, table, 0, Load(card="bang"))  # its fourth Bang!

    assert table.rules.gangsters[0].bangs == 0


def test_a_first_aid_kit_removes_a_wound_at_once() -> None:
    table = new_game(4, godfather=0, piles=stacked(*FILLER, "first-aid-1"))
    table, _ = turn(table, aims={1: 0}, loads={1: "bang"})
    assert table.rules.gangsters[0].wounds == 1

    table, _ = hold_up(table, aims={})
    table, _ = when(RULESET, table, 0, Take(loot="first-aid-1"))

    assert table.rules.gangsters[0].wounds == 0
    assert "first-aid-1" in table.rules.gangsters[0].loot


def test_a_first_aid_kit_does_nothing_without_a_wound() -> None:
    table, _ = hold_up(new_game(4, godfather=0, piles=stacked("first-aid-2")), aims={})

    table, _ = when(RULESET, table, 0, Take(loot="first-aid-2"))

    assert table.rules.gangsters[0].wounds == 0
    assert table.rules.phase is Phase.SHARING
