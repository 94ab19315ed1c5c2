"""Ca$h 'n Guns, one test per rule or ruling: setup, the deck, the first Godfather, loading, the hold-up.

The privilege and courage are in test_cash_n_guns_privilege.py, bullets and the sharing in
test_cash_n_guns_sharing.py, the end and scores in test_cash_n_guns_scoring.py, what each viewer sees in
test_cash_n_guns_views.py.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.cash_n_guns import RULESET
from games.cash_n_guns.events import (
    Aimed,
    BulletLoaded,
    GodfatherChosen,
    GunsDrawn,
    HoldUpStarted,
    LootDealt,
    LootRevealed,
    ShotsResolved,
)
from games.cash_n_guns.loot import DECK, kind
from games.cash_n_guns.moves import Aim, Load
from games.cash_n_guns.state import Phase
from games.refusals import SetupError
from games.table import Status, options_of
from tests.games.cng_helpers import (
    aim,
    hold_up,
    load,
    moves,
    new_game,
    of_type,
    ring,
    stacked,
    timeout,
    turn,
)
from tests.games.helpers import created, given, refused, when

# --- seats, deck and the first Godfather ------------------------------------------------------------------


@pytest.mark.parametrize("seats", [4, 5, 6, 7, 8])
def test_four_to_eight_seats_start_a_game_waiting_for_every_seat_to_load(seats: int) -> None:
    events = created(RULESET, seats, {"first_godfather": 0})

    assert [e.type for e in events] == [
        "game_created",
        "game_started",
        "cash_n_guns.loot_dealt",
        "cash_n_guns.godfather_chosen",
        "cash_n_guns.loot_revealed",
    ]
    table = given(RULESET, events)
    assert table.status is Status.IN_PROGRESS
    assert RULESET.awaiting(table.rules) == dict.fromkeys(range(seats), "load")


@pytest.mark.parametrize("seats", [3, 9])
def test_three_or_nine_seats_are_refused(seats: int) -> None:
    with pytest.raises(SetupError) as refusal:
        created(RULESET, seats)

    assert refusal.value.code == "invalid_seat_count"


def test_each_seat_starts_with_five_clicks_three_bangs_and_no_wound() -> None:
    table = new_game(5)

    for gangster in table.rules.gangsters:
        assert (gangster.clicks, gangster.bangs, gangster.wounds, gangster.alive) == (5, 3, 0, True)
    assert RULESET.legal_moves(table.rules, 2) == [Load(card="bang"), Load(card="click")]


def test_the_loot_deck_holds_the_64_cards_of_the_rulings_each_with_a_unique_id() -> None:
    assert len(DECK) == len(set(DECK)) == 64
    assert Counter(kind(c) for c in DECK) == {"cash": 40, "diamond": 9, "painting": 10, "clip": 3, "first-aid": 2}
    assert Counter(c.rsplit("-", 1)[0] for c in DECK if kind(c) in ("cash", "diamond")) == {
        "cash-5000": 15,
        "cash-10000": 15,
        "cash-20000": 10,
        "diamond-1000": 5,
        "diamond-5000": 3,
        "diamond-10000": 1,
    }
    assert {"cash-5000-03", "diamond-1000-2", "painting-07", "clip-1", "first-aid-2"} <= set(DECK)


def test_loot_is_shuffled_into_eight_piles_of_eight_and_the_first_pile_is_revealed() -> None:
    events = created(RULESET, 4, {"first_godfather": 0}, seed=99)

    dealt = of_type(events, LootDealt)[0]
    assert [len(pile) for pile in dealt.piles] == [8] * 8
    assert sorted(card for pile in dealt.piles for card in pile) == sorted(DECK)
    assert [card for pile in dealt.piles for card in pile] != list(DECK)
    assert of_type(events, LootRevealed) == [LootRevealed(turn=1, cards=dealt.piles[0])]
    table = given(RULESET, events)
    assert table.rules.table_loot == dealt.piles[0]
    assert table.rules.piles == dealt.piles[1:]


def test_the_same_seed_deals_the_same_piles_and_another_seed_others() -> None:
    def piles(seed: int) -> tuple[tuple[str, ...], ...]:
        return of_type(created(RULESET, 6, seed=seed), LootDealt)[0].piles

    assert piles(5) == piles(5)
    assert piles(5) != piles(6)


def test_a_dealt_deck_is_replayed_from_its_event_not_reshuffled() -> None:
    table = new_game(4, piles=stacked("painting-01", "clip-2"))

    assert table.rules.table_loot[:2] == ("painting-01", "clip-2")


@pytest.mark.parametrize("godfather", [0, 3, 5])
def test_first_godfather_option_names_the_first_godfather(godfather: int) -> None:
    events = created(RULESET, 6, {"first_godfather": godfather})

    assert of_type(events, GodfatherChosen) == [GodfatherChosen(seat=godfather, drawn=False)]
    assert given(RULESET, events).rules.godfather == godfather


def test_unset_first_godfather_is_drawn_at_random_and_recorded_as_drawn() -> None:
    drawn = [of_type(created(RULESET, 4, seed=seed), GodfatherChosen)[0] for seed in range(60)]

    assert all(chosen.drawn for chosen in drawn)
    assert {chosen.seat for chosen in drawn} == {0, 1, 2, 3}


@pytest.mark.parametrize("godfather", [-1, 4, "1", True])
def test_a_first_godfather_not_naming_a_seat_is_refused(godfather: object) -> None:
    with pytest.raises(SetupError) as refusal:
        created(RULESET, 4, {"first_godfather": godfather})

    assert refusal.value.code == "invalid_option"


def test_options_declare_the_aim_window_the_move_deadline_and_the_first_godfather() -> None:
    options = options_of(RULESET)  # its own and the table's

    assert (options["aim_window_s"].default, options["aim_window_s"].minimum) == (15, 1)
    assert options["move_deadline_s"].default is None
    assert options["first_godfather"].names_a_seat
    with pytest.raises(SetupError):
        created(RULESET, 4, {"aim_window_s": 0})


# --- loading a bullet card --------------------------------------------------------------------------------


def test_the_hold_up_starts_once_every_living_seat_has_loaded() -> None:
    table, events = moves(new_game(4), [(0, Load(card="bang")), (1, Load(card="click")), (2, Load(card="click"))])

    assert events == [
        BulletLoaded(seat=0, card="bang"),
        BulletLoaded(seat=1, card="click"),
        BulletLoaded(seat=2, card="click"),
    ]
    assert RULESET.awaiting(table.rules) == {3: "load"}
    table, events = when(RULESET, table, 3, Load(card="bang"))
    assert events == [BulletLoaded(seat=3, card="bang"), HoldUpStarted(turn=1, window_s=15)]
    assert RULESET.awaiting(table.rules) == dict.fromkeys(range(4), "aim")


def test_loading_takes_the_card_out_of_the_hand() -> None:
    table, _ = load(new_game(4), {1: "bang"})

    assert (table.rules.gangsters[1].bangs, table.rules.gangsters[1].clicks) == (2, 5)
    assert (table.rules.gangsters[0].bangs, table.rules.gangsters[0].clicks) == (3, 4)


def test_loading_twice_in_a_turn_is_refused() -> None:
    table, _ = when(RULESET, new_game(4), 2, Load(card="click"))

    assert refused(RULESET, table, 2, Load(card="bang")) == "already_loaded"
    assert RULESET.legal_moves(table.rules, 2) == []


def test_a_seat_with_no_bang_left_cannot_load_one() -> None:
    table = new_game(4)
    for _ in range(3):  # seat 0 loads its three Bang!s; nobody aims, so they are discarded
        table, _ = turn(table, aims={}, loads={0: "bang"})

    assert refused(RULESET, table, 0, Load(card="bang")) == "no_such_card"
    assert RULESET.legal_moves(table.rules, 0) == [Load(card="click")]


def test_loading_outside_the_loading_phase_is_refused() -> None:
    table, _ = load(new_game(4))

    assert refused(RULESET, table, 0, Load(card="click")) == "not_loading_phase"


# --- the hold-up --------------------------------------------------------------------------------------------


def test_aiming_at_yourself_is_refused() -> None:
    table, _ = load(new_game(4))

    assert refused(RULESET, table, 2, Aim(target=2)) == "cannot_aim_at_self"
    assert Aim(target=2) not in RULESET.legal_moves(table.rules, 2)


def test_aiming_at_a_dead_seat_is_refused() -> None:
    table = new_game(4)
    table, _ = turn(table, aims={1: 0, 2: 0, 3: 0}, loads={1: "bang", 2: "bang", 3: "bang"})
    assert not table.rules.gangsters[0].alive
    table, _ = load(table)

    assert refused(RULESET, table, 1, Aim(target=0)) == "target_not_alive"
    assert RULESET.legal_moves(table.rules, 1) == [Aim(target=2), Aim(target=3)]


@pytest.mark.parametrize("target", [-1, 4, 99])
def test_aiming_at_a_seat_that_is_not_at_the_table_is_refused(target: int) -> None:
    table, _ = load(new_game(4))

    assert refused(RULESET, table, 0, Aim(target=target)) == "no_such_seat"


def test_a_seat_aims_once_per_hold_up() -> None:
    table, _ = load(new_game(4))
    table, _ = when(RULESET, table, 0, Aim(target=1))

    assert refused(RULESET, table, 0, Aim(target=2)) == "already_aimed"
    assert RULESET.legal_moves(table.rules, 0) == []


def test_aiming_outside_the_window_is_refused() -> None:
    assert refused(RULESET, new_game(4), 0, Aim(target=1)) == "not_aiming_phase"
    table, _ = aim(load(new_game(4))[0], ring(4))
    assert refused(RULESET, table, 0, Aim(target=1)) == "not_aiming_phase"


def test_the_window_stays_open_until_every_living_seat_has_aimed() -> None:
    table, _ = load(new_game(4))
    table, events = moves(table, [(0, Aim(target=1)), (2, Aim(target=1))])

    assert events == [Aimed(seat=0, target=1), Aimed(seat=2, target=1)]
    assert table.rules.phase is Phase.AIM
    assert RULESET.awaiting(table.rules) == {1: "aim", 3: "aim"}
    assert RULESET.time_limit(table.rules) == 15


def test_the_window_closes_early_when_every_living_seat_has_aimed() -> None:
    table, _ = load(new_game(4))
    table, _ = moves(table, [(0, Aim(target=1)), (1, Aim(target=2)), (2, Aim(target=3))])

    table, events = when(RULESET, table, 3, Aim(target=0))

    assert events[:2] == [Aimed(seat=3, target=0), GunsDrawn(aims=(1, 2, 3, 0), late=())]
    assert table.rules.phase is Phase.PRIVILEGE
    assert RULESET.time_limit(table.rules) is None


def test_a_seat_that_has_not_aimed_when_the_window_times_out_aims_at_nobody() -> None:
    table, _ = load(new_game(4))
    table, _ = moves(table, [(0, Aim(target=1)), (2, Aim(target=0))])

    table, events = timeout(table)

    assert events[0] == GunsDrawn(aims=(1, None, 0, None), late=(1, 3))
    assert [g.target for g in table.rules.gangsters] == [1, None, 0, None]
    assert refused(RULESET, table, 1, Aim(target=0)) == "not_aiming_phase"


def test_a_late_seat_discards_its_bang_unseen_and_wounds_nobody() -> None:
    table, events = hold_up(new_game(4), aims={0: 1, 1: 0, 2: 1}, loads={3: "bang"})

    shots = of_type(events, ShotsResolved)[0]
    assert shots.cards[3] == "discarded"
    assert shots.hits == (0, 0, 0, 0)
    assert table.rules.gangsters[3].bangs == 2  # spent all the same


def test_the_time_limit_is_the_aim_window_option_and_only_while_aiming() -> None:
    table = new_game(4, options={"aim_window_s": 5})

    assert RULESET.time_limit(table.rules) is None
    table, events = load(table)
    assert events[-1] == HoldUpStarted(turn=1, window_s=5)
    assert RULESET.time_limit(table.rules) == 5


def test_being_late_outside_the_window_means_nothing_special() -> None:
    table = new_game(4)
    assert RULESET.timeout(table.rules, random.Random(0)) is None
    table, _ = aim(load(table)[0], ring(4))
    assert RULESET.timeout(table.rules, random.Random(0)) is None
