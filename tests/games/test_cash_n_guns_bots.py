"""The `smart` bot of Ca$h 'n Guns: a legal move in every phase, decided from its seat's view alone, sensible
choices in plain situations (the likelier ones, where the choice is hidden and so mixed), and far more victories
than random seats."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from games import mixing
from games import table as tables
from games.base import Move
from games.bots import random_bot
from games.cash_n_guns import RULESET
from games.cash_n_guns.bots import Seen, smart_bot, smart_policy
from games.cash_n_guns.moves import Courage, Load, SkipPrivilege, Take
from games.cash_n_guns.state import Phase
from games.selfplay import simulate
from tests.games.cng_helpers import aim, hold_up, load, moves, new_game, stacked, turn
from tests.games.helpers import apply, created, given

Table = tables.Table[Any]
DECISIONS = {"load", "aim", "privilege", "retarget", "courage", "take"}
SECRET_UNTIL_THE_BULLETS = {Phase.LOAD, Phase.AIM, Phase.PRIVILEGE, Phase.RETARGET, Phase.COURAGE}


def move_of(body: dict[str, Any]) -> Move:
    move_type = RULESET.move_type(body["type"])
    assert move_type is not None, body
    return msgspec.convert(body, move_type)


def played(table: Table, seat: int, body: dict[str, Any]) -> Table:
    """The table after the seat's move, through the table functions (the rules must take it)."""
    return apply(RULESET, table, tables.play(RULESET, table, seat, move_of(body)))


def smart_move(table: Table, seat: int) -> dict[str, Any]:
    """The smart bot's move for the seat, from the seat's view, with a generator seeded by the moment."""
    return smart_bot(tables.plain_view(RULESET, table, seat), random.Random(f"bot:{table.version}:{seat}"))


def chances(table: Table, seat: int) -> list[tuple[dict[str, Any], float]]:
    """The smart bot's distribution for the seat: each move it may make, with its chance."""
    return smart_policy(tables.plain_view(RULESET, table, seat), random.Random(f"bot:{table.version}:{seat}"))


def chance_of(table: Table, seat: int, move: dict[str, Any]) -> float:
    return sum(p for m, p in chances(table, seat) if m == move)


def started(seats: int, rng: random.Random) -> Table:
    return given(RULESET, created(RULESET, seats, seed=rng.randrange(10**6)))


# --- legal moves ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [4, 5, 6, 7, 8])
def test_the_smart_bot_answers_a_legal_move_in_every_phase(seats: int) -> None:
    """Random games, each decision asked of the smart bot; then the smart move or a random one is played (and
    now and then the aiming window runs out), so the games wander through every kind of state."""
    rng = random.Random(seats)
    asked: set[str] = set()
    for _ in range(5):
        table = started(seats, rng)
        while table.status is not tables.Status.FINISHED:
            if table.rules.phase is Phase.AIM and rng.random() < 0.05:
                late = RULESET.timeout(table.rules, rng)
                assert late is not None
                table = apply(RULESET, table, late)
                continue
            seat, decision = rng.choice(sorted(RULESET.awaiting(table.rules).items()))
            view = tables.plain_view(RULESET, table, seat)

            body = smart_bot(view, random.Random(rng.random()))

            assert body in view["you"]["legal_moves"], (decision, body)
            asked.add(decision)
            table = played(table, seat, body if rng.random() < 0.5 else random_bot(view, rng))
    assert asked == DECISIONS


def test_the_smart_bot_is_determined_by_its_view_and_generator() -> None:
    rng = random.Random(3)
    for _ in range(3):
        table = started(6, rng)
        while table.status is not tables.Status.FINISHED:
            seat = min(RULESET.awaiting(table.rules))
            view = tables.plain_view(RULESET, table, seat)

            body = smart_bot(view, random.Random(7))

            assert smart_bot(view, random.Random(7)) == body
            table = played(table, seat, body)


# --- only its own view ---------------------------------------------------------------------------------------


def random_moment(seats: int, rng: random.Random, wanted: Callable[[Table], bool]) -> Table:
    """A game played at random for a while, then on until `wanted` holds of it (afresh if it ends first)."""
    while True:
        table = started(seats, rng)
        moves_first = rng.randrange(2, 200)
        while table.status is not tables.Status.FINISHED:
            if moves_first <= 0 and wanted(table):
                return table
            seat = rng.choice(sorted(RULESET.awaiting(table.rules)))
            table = played(table, seat, random_bot(tables.plain_view(RULESET, table, seat), rng))
            moves_first -= 1


def same_decisions_until_the_bullets(one: Table, two: Table, me: int, rng: random.Random) -> int:
    """Both tables played on with the same moves until the bullets reveal how they differ; at each of my
    decisions the smart bot's distribution must be the same at both. How many of my decisions were compared."""
    compared = 0
    this_turn = one.rules.turn
    while (
        one.rules.turn == two.rules.turn == this_turn and {one.rules.phase, two.rules.phase} <= SECRET_UNTIL_THE_BULLETS
    ):
        assert one.rules != two.rules  # the tables differ, in the other seat's secret only
        seat = rng.choice(sorted(RULESET.awaiting(one.rules)))
        if seat == me:
            assert chances(one, me) == chances(two, me)
            body = smart_move(one, me)
            compared += 1
        else:
            body = random_bot(tables.plain_view(RULESET, one, seat), rng)
        one, two = played(one, seat, body), played(two, seat, body)
    return compared


@pytest.mark.parametrize("seats", [4, 6, 8])
def test_the_smart_bot_decides_the_same_whatever_card_another_seat_loaded(seats: int) -> None:
    def with_both(table: Table, seat: int) -> bool:
        return bool(table.rules.gangsters[seat].bangs and table.rules.gangsters[seat].clicks)

    def loading(table: Table) -> bool:
        return table.rules.phase is Phase.LOAD and any(with_both(table, s) for s in RULESET.awaiting(table.rules))

    rng = random.Random(seats)
    compared = 0
    for _ in range(12):
        table = random_moment(seats, rng, loading)
        other = rng.choice([s for s in RULESET.awaiting(table.rules) if with_both(table, s)])
        me = rng.choice([s for s, g in enumerate(table.rules.gangsters) if g.alive and s != other])
        one = apply(RULESET, table, tables.play(RULESET, table, other, Load(card="bang")))
        two = apply(RULESET, table, tables.play(RULESET, table, other, Load(card="click")))

        compared += same_decisions_until_the_bullets(one, two, me, rng)

    assert compared >= 12  # a load, an aim, a courage... for most of the twelve


@pytest.mark.parametrize("seats", [4, 6, 8])
def test_the_smart_bot_decides_the_same_whatever_courage_another_seat_chose(seats: int) -> None:
    def choosing(table: Table) -> bool:
        return table.rules.phase is Phase.COURAGE and len(RULESET.awaiting(table.rules)) >= 2

    rng = random.Random(100 + seats)
    for _ in range(12):
        table = random_moment(seats, rng, choosing)
        other, me = rng.sample(sorted(RULESET.awaiting(table.rules)), 2)
        one = apply(RULESET, table, tables.play(RULESET, table, other, Courage(stand=True)))
        two = apply(RULESET, table, tables.play(RULESET, table, other, Courage(stand=False)))

        assert same_decisions_until_the_bullets(one, two, me, rng) == 1


@pytest.mark.parametrize("seats", [4, 5])
def test_with_four_others_or_fewer_its_courage_weighs_every_combination(seats: int) -> None:
    """Each other seat lies down, or stands with a Click or a Bang!: every combination is weighed by its chance,
    whatever the generator, so the distribution is the view's alone."""

    def choosing(table: Table) -> bool:
        return table.rules.phase is Phase.COURAGE and 0 in RULESET.awaiting(table.rules)

    rng = random.Random(seats)
    for _ in range(6):
        table = random_moment(seats, rng, choosing)
        view = tables.plain_view(RULESET, table, 0)
        seen = Seen(view)

        weighed = seen.hidden_courage(random.Random(1))

        assert len(weighed) == 3 ** len(seen.others)
        assert sum(weight for weight, _, _ in weighed) == pytest.approx(1.0)
        assert weighed == seen.hidden_courage(random.Random(2))
        assert smart_policy(view, random.Random(1)) == smart_policy(view, random.Random(2))


# --- plain situations ----------------------------------------------------------------------------------------


def two_wounds_on_seat_0(godfather: int = 1, piles: Any = None) -> Table:
    """Turn 1: seats 1 and 2 fire a Bang! each at seat 0, who is on two wounds for turn 2."""
    table, _ = turn(new_game(4, godfather=godfather, piles=piles), {0: 1, 1: 0, 2: 0, 3: 1}, {1: "bang", 2: "bang"})
    assert table.rules.gangsters[0].wounds == 2 and table.rules.turn == 2
    return table


def test_it_stands_at_least_as_often_as_not_when_no_gun_points_at_it() -> None:
    """On the first turn a share of one pile moves its chance of winning less than the courage's price: a coin toss
    there buys the predictability spent where a wound or a death is at stake."""
    table, _ = aim(load(new_game(4, godfather=1))[0], {0: 1, 1: 2, 2: 3, 3: 1})
    table, _ = moves(table, [(1, SkipPrivilege())])

    assert chance_of(table, 0, {"type": "courage", "stand": True}) >= 0.5


def test_unhurt_with_one_gun_on_it_and_a_full_table_it_stands_as_often_as_not() -> None:
    table, _ = aim(load(new_game(4, godfather=1))[0], {0: 1, 1: 2, 2: 0, 3: 1})
    table, _ = moves(table, [(1, SkipPrivilege())])

    assert chance_of(table, 0, {"type": "courage", "stand": True}) >= 0.5


def test_it_mostly_lies_down_on_two_wounds_with_three_guns_on_it() -> None:
    table, _ = load(two_wounds_on_seat_0())
    table, _ = aim(table, {0: 1, 1: 0, 2: 0, 3: 0})
    table, _ = moves(table, [(1, SkipPrivilege())])

    assert chance_of(table, 0, {"type": "courage", "stand": False}) == pytest.approx(mixing.CEILING)


def test_the_godfather_orders_the_seat_aiming_at_it_to_aim_elsewhere() -> None:
    table, _ = aim(load(new_game(4, godfather=0))[0], {0: 1, 1: 2, 2: 0, 3: 1})

    assert smart_move(table, 0) == {"type": "order_retarget", "seat": 2}


def test_the_godfather_lets_the_aims_stand_when_no_gun_points_at_it() -> None:
    table, _ = aim(load(new_game(4, godfather=0))[0], {0: 1, 1: 2, 2: 3, 3: 1})

    assert smart_move(table, 0) == {"type": "skip_privilege"}


def test_it_aims_a_bang_at_the_rival_it_would_kill_as_often_as_at_any() -> None:
    table, _ = turn(new_game(4, godfather=0), {0: 1, 1: 0, 2: 3, 3: 2}, loads={0: "bang", 2: "bang"})
    table, _ = turn(table, {0: 1, 1: 0, 2: 3, 3: 2}, loads={2: "bang"})
    assert [g.wounds for g in table.rules.gangsters] == [0, 1, 0, 2]
    table, _ = load(table, {0: "bang"})

    likeliest = max(p for _, p in chances(table, 0))
    assert chance_of(table, 0, {"type": "aim", "target": 3}) == pytest.approx(likeliest)
    assert likeliest <= mixing.most(3)  # never a sure aim


def test_it_loads_a_bang_when_it_has_no_turn_to_spare() -> None:
    table = new_game(4, godfather=0)
    for _ in range(5):
        table, _ = turn(table, {0: 1, 1: 2, 2: 3, 3: 0}, loads={0: "click"}, stands=dict.fromkeys(range(4), False))
    assert table.rules.turn == 6 and table.rules.gangsters[0].bangs == 3

    assert chances(table, 0) == [({"type": "load", "card": "bang"}, 1.0)]  # its Clicks are spent: nothing to hide


def test_it_mostly_loads_a_click_on_two_wounds_while_it_has_turns_to_spare() -> None:
    assert chance_of(two_wounds_on_seat_0(), 0, {"type": "load", "card": "click"}) == pytest.approx(0.65)


def test_it_takes_the_godfather_token_when_it_costs_no_card() -> None:
    table, _ = hold_up(new_game(4, godfather=1), {0: 1, 1: 2, 2: 3, 3: 0}, stands={1: False, 2: False, 3: False})
    assert table.rules.sharer == 0  # alone: every card is its own anyway

    assert smart_move(table, 0) == {"type": "take", "godfather_token": True}


def test_it_takes_a_painting_to_grow_its_set_over_a_banknote() -> None:
    pile = ("painting-01", "painting-02", "painting-03", "cash-20000-01", "cash-10000-01", "cash-5000-01")
    table, _ = hold_up(
        new_game(4, godfather=0, piles=stacked(*pile)), {0: 1, 1: 2, 2: 3, 3: 0}, stands={1: False, 2: False, 3: False}
    )
    picks = [Take(godfather_token=True), Take(loot="painting-01"), Take(loot="painting-02")]
    table, _ = moves(table, [(0, pick) for pick in picks])
    assert table.rules.sharer == 0

    assert smart_move(table, 0) == {"type": "take", "loot": "painting-03"}


def test_it_takes_a_first_aid_kit_on_two_wounds_over_a_banknote() -> None:
    piles = stacked(*(f"cash-5000-0{i}" for i in range(1, 9)), "first-aid-1", "cash-20000-01")
    table, _ = hold_up(
        two_wounds_on_seat_0(piles=piles), {0: 1, 1: 2, 2: 3, 3: 1}, stands={1: False, 2: False, 3: False}
    )
    table, _ = moves(table, [(0, Take(godfather_token=True))])
    assert table.rules.sharer == 0 and {"first-aid-1", "cash-20000-01"} <= set(table.rules.table_loot)

    assert smart_move(table, 0) == {"type": "take", "loot": "first-aid-1"}


# --- against random seats ------------------------------------------------------------------------------------


def test_the_smart_bot_beats_random_seats_by_a_margin() -> None:
    report = simulate(RULESET, ["smart", "random", "random", "random"], games=100, seed=1)

    smart, *randoms = report["seats"]
    assert smart["win_rate"] > 2 * report["fair_share"]  # fair share 25%; measured about 70% over 1000 games
    assert all(smart["mean_score"] > 2 * other["mean_score"] for other in randoms)


def test_the_smart_bot_beats_its_fair_share_at_eight_seats() -> None:
    report = simulate(RULESET, ["smart", *["random"] * 7], games=40, seed=1)

    assert report["kinds"]["smart"]["win_rate"] > 3 * report["fair_share"]  # measured about 5 times
