"""The search from a seat's view (`games.search`) and the `hard` bot on it (`games.hard`): legal moves only, the
view alone decides, the budget bounds it, and a review's `judge` says what it found. Every ruleset that has
`determinize` is searched; a few iterations a decision keep these games short and repeatable."""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

import msgspec
import pytest

from games import mixing
from games import table as tables
from games.base import Ruleset
from games.bots import bot_for, kinds
from games.cash_n_guns.bots import smart_policy
from games.hard import hard_policy, judge, policy_of
from games.judgement import Judgement
from games.registry import RULESETS
from games.search import Budget, Found, MoveEstimate, Search, handicapped, placed, search
from games.selfplay import play_out
from games.twelve_gangsters import RULESET as TWELVE_GANGSTERS
from games.twelve_gangsters.moves import Play
from tests.games.helpers import apply, created, given

SEARCHED = [r for r in RULESETS.values() if r.determinize is not None]
FEW = Budget(ms=None, iterations=24)
"""A search of a fixed number of iterations: the same answer on every machine."""
SEATS = {"twelve-gangsters": (3, 5)}
SEEDS = {"mobsters": 1}
"""Games played a table (a Mobsters game is hundreds of decisions)."""
BUDGETS = {"mobsters": Budget(ms=None, iterations=8)}
"""A search of fewer iterations where a game is hundreds of decisions: what is checked is every move, not how good
it is."""


def tables_of(ruleset: Ruleset[Any]) -> list[list[str]]:
    """Seat kinds for the games played: hard seats among smart and random ones, and an all-hard table."""
    own = "smart" if "smart" in ruleset.bots else "random"
    found = []
    for seats in SEATS.get(ruleset.id, (ruleset.min_seats,)):
        found.append(["hard", own, *["random"] * (seats - 2)])
        found.append(["hard"] * seats)
    return found


@pytest.mark.parametrize("ruleset", SEARCHED, ids=lambda r: r.id)
def test_hard_is_a_bot_of_every_ruleset_that_can_be_searched(ruleset: Ruleset[Any]) -> None:
    assert "hard" in kinds(ruleset)
    assert "hard" in tables.bot_kinds(ruleset)


def test_a_ruleset_without_determinize_has_no_hard_bot() -> None:
    unsearched = dataclasses.replace(TWELVE_GANGSTERS, determinize=None)
    assert "hard" not in kinds(unsearched)
    with pytest.raises(ValueError, match="cannot be searched"):
        search(unsearched, {"you": {"seat": 0, "legal_moves": []}}, random.Random(1), FEW)


def hard_moves(
    ruleset: Ruleset[Any], seat_kinds: list[str], seed: int, budget: Budget = FEW
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Every move a hard seat made in one game played to its end, with the view it was made from."""
    moves: list[tuple[dict[str, Any], dict[str, Any]]] = []

    def watch(table: tables.Table[Any], seat: int, body: dict[str, Any]) -> None:
        if seat_kinds[seat] == "hard":
            moves.append((tables.plain_view(ruleset, table, seat), body))

    finished = play_out(ruleset, seat_kinds, seed, watch, budget=budget)
    assert finished.status is tables.Status.FINISHED
    return moves


@pytest.mark.parametrize("ruleset", SEARCHED, ids=lambda r: r.id)
def test_hard_makes_only_legal_moves_to_the_end_of_every_game(ruleset: Ruleset[Any]) -> None:
    for seat_kinds in tables_of(ruleset):
        for seed in range(SEEDS.get(ruleset.id, 3)):
            moves = hard_moves(ruleset, seat_kinds, seed, BUDGETS.get(ruleset.id, FEW))
            assert moves, seat_kinds
            assert all(body in view["you"]["legal_moves"] for view, body in moves)


def twins() -> tuple[tables.Table[Any], tables.Table[Any]]:
    """Two games of three that differ only in what seats 1 and 2 chose face down this round."""
    start = given(TWELVE_GANGSTERS, created(TWELVE_GANGSTERS, 3, {"first_boss": 0}))
    for seat, card in ((0, 4), (1, 9), (2, 1)):  # a first round played in the open
        start = apply(TWELVE_GANGSTERS, start, tables.play(TWELVE_GANGSTERS, start, seat, Play(card=card)))
    one, other = start, start
    for seat, (mine, theirs) in ((1, (12, 2)), (2, (3, 11))):
        one = apply(TWELVE_GANGSTERS, one, tables.play(TWELVE_GANGSTERS, one, seat, Play(card=mine)))
        other = apply(TWELVE_GANGSTERS, other, tables.play(TWELVE_GANGSTERS, other, seat, Play(card=theirs)))
    return one, other


def test_what_others_chose_face_down_changes_nothing_of_hards_choice() -> None:
    one, other = twins()
    assert one.rules.chosen != other.rules.chosen
    view = tables.plain_view(TWELVE_GANGSTERS, one, 0)
    assert view == tables.plain_view(TWELVE_GANGSTERS, other, 0)
    policy = hard_policy(TWELVE_GANGSTERS, FEW)
    drawn = policy(tables.plain_view(TWELVE_GANGSTERS, one, 0), random.Random(4))
    assert drawn == policy(tables.plain_view(TWELVE_GANGSTERS, other, 0), random.Random(4))
    assert len(drawn) > 1  # a hidden choice: mixed
    bot = bot_for(TWELVE_GANGSTERS, "hard", FEW)
    assert bot(view, random.Random(4)) == bot(tables.plain_view(TWELVE_GANGSTERS, other, 0), random.Random(4))


class Stopwatch:
    """A clock that stands still for its first `reads` readings, then says an hour went by."""

    def __init__(self, reads: int) -> None:
        self.left = reads
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.left -= 1
        return 0.0 if self.left >= 0 else 3600.0


def test_the_search_stops_when_its_clock_says_the_budget_is_spent() -> None:
    view = tables.plain_view(TWELVE_GANGSTERS, twins()[0], 0)
    clock = Stopwatch(reads=10)
    found = search(TWELVE_GANGSTERS, view, random.Random(1), Budget(ms=50, clock=clock))
    # read once as it starts, then before every iteration but the first: the 11th read ends it
    assert found.iterations == 10
    assert clock.reads == 11


def test_the_search_stops_short_when_one_more_iteration_would_overrun() -> None:
    """Each iteration seems to take 10 ms of a 25 ms budget: a third would end at 30 ms, so it is not begun."""
    view = tables.plain_view(TWELVE_GANGSTERS, twins()[0], 0)
    readings = iter([0.0, 0.010, 0.020])
    found = search(TWELVE_GANGSTERS, view, random.Random(1), Budget(ms=25, clock=lambda: next(readings)))
    assert found.iterations == 2


def test_the_search_stops_at_its_iterations_when_the_clock_stands_still() -> None:
    view = tables.plain_view(TWELVE_GANGSTERS, twins()[0], 0)
    found = search(TWELVE_GANGSTERS, view, random.Random(1), Budget(ms=10, iterations=7, clock=lambda: 0.0))
    assert found.iterations == 7


def test_the_hard_bot_is_bounded_by_the_budget_it_is_given() -> None:
    view = tables.plain_view(TWELVE_GANGSTERS, twins()[0], 0)
    clock = Stopwatch(reads=30)
    bot_for(TWELVE_GANGSTERS, "hard", Budget(ms=50, clock=clock))(view, random.Random(2))
    assert clock.reads == 31


def test_a_budget_has_a_bound() -> None:
    with pytest.raises(ValueError):
        Budget(ms=None, iterations=None)


def test_judge_gives_the_chance_now_each_moves_chance_and_hards_move() -> None:
    view = tables.plain_view(TWELVE_GANGSTERS, twins()[0], 0)
    judged = judge(TWELVE_GANGSTERS, view, random.Random(3), Budget(ms=None, iterations=300))
    assert isinstance(judged, Judgement)
    assert judged.iterations == 300
    assert 0 <= judged.chance <= 1
    assert [estimate.move for estimate in judged.moves] == view["you"]["legal_moves"]
    assert all(0 <= estimate.chance <= 1 for estimate in judged.moves)
    assert all(estimate.visits == 300 for estimate in judged.moves)  # each of the seat's moves, every iteration
    assert judged.best in view["you"]["legal_moves"]
    assert sum(p for _, p in judged.policy) == pytest.approx(1)
    assert max(p for _, p in judged.policy) <= mixing.most(len(view["you"]["legal_moves"]))
    generator = random.Random(3)
    again = judge(TWELVE_GANGSTERS, view, generator, Budget(ms=None, iterations=300))
    assert again == judged  # the same generator, the same iterations: the same judgement


def test_judge_prefers_the_move_that_wins_the_last_round() -> None:
    """Seat 0 is Boss with two rounds left, one point behind seat 1: its 12 succeeds now (nobody can match it) and
    could not later, when it is no longer Boss."""
    table = given(TWELVE_GANGSTERS, created(TWELVE_GANGSTERS, 3, {"first_boss": 0}))
    rules = table.rules
    state = msgspec.structs.replace(
        rules,
        hands=((12, 1), (11, 1), (2, 1)),
        succeeded=((10,), (2, 9), ()),
        stopped=((2, 3, 4, 5, 6, 7, 8, 9, 11), (3, 4, 5, 6, 7, 8, 10, 12), (3, 4, 5, 6, 7, 8, 9, 10, 11, 12)),
        round=11,
        boss=0,
    )
    view = tables.plain_view(TWELVE_GANGSTERS, msgspec.structs.replace(table, rules=state), 0)
    judged = judge(TWELVE_GANGSTERS, view, random.Random(5), Budget(ms=None, iterations=400))
    chance = {estimate.move["card"]: estimate.chance for estimate in judged.moves}
    assert chance[12] > chance[1]


def test_a_search_that_can_evaluate_stops_at_its_horizon_and_takes_the_evaluations_chances() -> None:
    """A game that says each state is a sure win for seat 2 is never played on: every move of seat 0 is hopeless."""
    told: list[Any] = []

    def evaluate(state: Any) -> list[float]:
        told.append(state)
        return [0.0, 0.0, 1.0]

    evaluated = dataclasses.replace(TWELVE_GANGSTERS, evaluate=evaluate)
    view = tables.plain_view(evaluated, twins()[0], 0)
    found = search(evaluated, view, random.Random(6), Budget(ms=None, iterations=20))
    assert told and all(state.round == view["state"]["round"] + 1 for state in told)  # one round on, no further
    assert found.win_chance == 0
    assert all(estimate.win_chance == 0 for estimate in found.moves)


@pytest.mark.parametrize("ruleset", [r for r in SEARCHED if r.evaluate is not None], ids=lambda r: r.id)
def test_an_evaluation_gives_every_seat_a_chance(ruleset: Ruleset[Any]) -> None:
    assert ruleset.evaluate is not None
    states: list[Any] = []
    play_out(ruleset, ["random"] * ruleset.min_seats, 1, lambda table, seat, body: states.append(table.rules))
    for state in states:
        chances = ruleset.evaluate(state)
        assert len(chances) == ruleset.min_seats
        assert all(0 <= chance <= 1 for chance in chances)
        assert sum(chances) == pytest.approx(1)


def test_a_loaded_card_of_another_seat_changes_nothing_of_hards_choice() -> None:
    """Ca$h 'n Guns twins: seat 1 loads a Bang! in one and a Click in the other; seat 0, still to load, is shown
    the same view of both, and `hard` draws from the same distribution."""
    cash = RULESETS["cash-n-guns"]
    start = given(cash, created(cash, 4, seed=3))
    loads = cash.legal_moves(start.rules, 1)
    assert len({msgspec.json.encode(move) for move in loads}) == 2  # a Bang! and a Click to choose from
    one, other = (apply(cash, start, tables.play(cash, start, 1, move)) for move in loads)
    assert one.rules != other.rules
    view = tables.plain_view(cash, one, 0)
    assert view == tables.plain_view(cash, other, 0) and view["you"]["legal_moves"]
    policy = hard_policy(cash, FEW)
    drawn = policy(view, random.Random(4))
    assert drawn == policy(tables.plain_view(cash, other, 0), random.Random(4))
    assert len(drawn) > 1  # a hidden choice: mixed


def test_each_hidden_decision_pays_its_games_price() -> None:
    """The same estimates are a clear call for a Ca$h 'n Guns load (its estimates differ by hundredths) and a coin
    toss for an aim (by tenths), and for a 12 Gangsters gangster at its price."""
    cash = RULESETS["cash-n-guns"]
    assert cash.searching.price_of("load") < cash.searching.price_of("aim")
    moves = [{"type": "x", "n": 0}, {"type": "x", "n": 1}]

    def found(decision: str) -> Found:
        estimates = [MoveEstimate(moves[0], 50, 0.30, 0.30), MoveEstimate(moves[1], 50, 0.28, 0.28)]
        return Found(estimates, 0.3, 100, 3, simultaneous=True, decision=decision)

    assert policy_of(cash, found("load")) == [(moves[0], mixing.CEILING), (moves[1], pytest.approx(1 - mixing.CEILING))]
    assert policy_of(cash, found("aim")) == [(moves[0], 0.5), (moves[1], 0.5)]
    assert policy_of(TWELVE_GANGSTERS, found("play")) == [(moves[0], 0.5), (moves[1], 0.5)]
    # A price is in fair shares: the same edge over a fair share is the same call at five seats as at three.
    five = Found([MoveEstimate(moves[0], 50, 0.18, 0.18), MoveEstimate(moves[1], 50, 0.168, 0.168)], 0.18, 100, 5, True)
    assert policy_of(cash, dataclasses.replace(five, decision="load")) == policy_of(cash, found("load"))
    in_the_open = dataclasses.replace(found("take"), simultaneous=False)
    assert policy_of(cash, in_the_open) == [(moves[0], 1.0)]


def test_an_open_choice_is_never_a_move_the_search_did_not_play_out() -> None:
    """A long turn compared a window at a time may leave moves unplayed, estimated at the seat's chance now: one
    of those is never chosen, however that chance compares with the moves played out."""
    moves = [{"type": "x", "n": n} for n in range(3)]
    estimates = [MoveEstimate(moves[0], 0, 0.9, 0.9), MoveEstimate(moves[1], 3, 0.2, 0.2)]
    estimates.append(MoveEstimate(moves[2], 5, 0.1, 0.1))
    found = Found(estimates, 0.9, 5, 3, simultaneous=False, decision="take")
    assert policy_of(TWELVE_GANGSTERS, found) == [(moves[1], 1.0)]


def test_the_order_a_long_turn_is_compared_in_comes_from_the_searchs_secret_generator() -> None:
    """The model's choices lead a long turn's comparison; a model that mixes is drawn from the generator the search
    is handed, not from anything a reader of the table knows (such as how many iterations have run)."""

    def mixing_model(view: dict[str, Any], rng: random.Random) -> mixing.Mixed:
        return mixing.certain(rng.choice(view["you"]["legal_moves"]))

    ruleset = dataclasses.replace(
        TWELVE_GANGSTERS, searching=dataclasses.replace(TWELVE_GANGSTERS.searching, model=mixing_model)
    )
    view = tables.plain_view(ruleset, twins()[0], 0)
    legal = [ruleset.parse_move(body) for body in view["you"]["legal_moves"]]
    firsts = {Search(ruleset, view).ranked(legal, 0, random.Random(seed))[0] for seed in range(20)}
    assert len(firsts) > 1


def test_a_search_looks_as_far_as_its_game_says_for_the_seats_at_the_table() -> None:
    """Mobsters looks three decisions on between two seats, one with more; Ca$h 'n Guns five at four seats, one
    with more (each game's __init__.py)."""
    mobsters = RULESETS["mobsters"]
    for seats, horizon in ((2, 3), (3, 1), (4, 1)):
        view = tables.plain_view(mobsters, given(mobsters, created(mobsters, seats, seed=1)), 0)
        assert Search(mobsters, view).horizon == horizon
    assert Search(TWELVE_GANGSTERS, tables.plain_view(TWELVE_GANGSTERS, twins()[0], 0)).horizon == 1
    cash = RULESETS["cash-n-guns"]
    for seats, horizon in ((4, 5), (6, 1)):
        view = tables.plain_view(cash, given(cash, created(cash, seats, seed=1)), 0)
        assert Search(cash, view).horizon == horizon


def test_a_two_seat_mobsters_search_plays_on_to_the_turns_end_before_it_evaluates() -> None:
    """Between two seats every move a Mobsters search weighs is judged at the same point of the game: no state of
    the turn in play is evaluated, only those of a later turn."""
    mobsters = RULESETS["mobsters"]
    told: list[Any] = []

    def evaluate(state: Any) -> list[float]:
        told.append(state)
        return [0.5, 0.5]

    evaluated = dataclasses.replace(mobsters, evaluate=evaluate)
    views: list[dict[str, Any]] = []

    def watch(table: Any, seat: int, body: Any) -> None:
        view = tables.plain_view(mobsters, table, seat)
        if seat == 0 and table.rules.turn > 2 and len(view["you"]["legal_moves"]) > 2:
            views.append(view)

    play_out(mobsters, ["smart", "smart"], 3, watch)
    view = views[0]
    found = search(evaluated, view, random.Random(7), Budget(ms=None, iterations=3))
    assert told and all(state.turn > view["state"]["turn"] for state in told)
    assert all(estimate.visits > 0 for estimate in found.moves)


def test_moves_found_alike_go_the_way_the_model_would_choose() -> None:
    """Two open moves the playouts found worth the same: the one the model would make, though visited less."""
    moves = [{"type": "x", "n": n} for n in range(3)]
    estimates = [MoveEstimate(moves[0], 9, 0.5, 0.5), MoveEstimate(moves[1], 4, 0.5, 0.5, preferred=1.0)]
    estimates.append(MoveEstimate(moves[2], 9, 0.4, 0.4))
    found = Found(estimates, 0.5, 9, 2, simultaneous=False, decision="take")
    assert policy_of(TWELVE_GANGSTERS, found) == [(moves[1], 1.0)]
    better = [dataclasses.replace(estimates[0], reward=0.6), *estimates[1:]]
    assert policy_of(TWELVE_GANGSTERS, dataclasses.replace(found, moves=better)) == [(moves[0], 1.0)]


@pytest.mark.parametrize("ruleset", SEARCHED, ids=lambda r: r.id)
def test_the_model_reads_each_other_seat_as_the_table_shows_it(ruleset: Ruleset[Any]) -> None:
    """The search asks its game's model how another seat would choose from what that seat is shown: the view it
    builds of a state is the table's own, for every seat, all through a game."""
    checked = 0

    def watch(table: tables.Table[Any], seat: int, body: dict[str, Any]) -> None:
        nonlocal checked
        searching = Search(ruleset, tables.plain_view(ruleset, table, seat))
        for other in range(len(table.seats)):
            shown = tables.plain_view(ruleset, table, other, house=True)
            built = searching.seat_view(table.rules, other)
            assert (built["state"], built["you"]) == (shown["state"], shown["you"])
            checked += 1

    play_out(ruleset, ["smart"] * ruleset.min_seats, 2, watch)
    assert checked > 20


def test_the_search_answers_the_choices_its_model_expects() -> None:
    """In the second round of twins(), seat 1 is the Boss. Expected to play its 1, the Boss is stopped by a 1,
    and every higher gangster of seat 0 is stopped; expected to play its 12, every gangster succeeds and the 12
    also stops the Boss. The search's best move follows the model."""
    table = twins()[0]
    view = people(tables.plain_view(TWELVE_GANGSTERS, table, 0))
    assert view["state"]["boss"] == 1

    def expecting(boss_card: int) -> Ruleset[Any]:
        def model(seen: dict[str, Any], rng: random.Random) -> mixing.Mixed:
            card = boss_card if seen["you"]["seat"] == 1 else min(seen["you"]["hand"])
            return mixing.certain({"type": "play", "card": card})

        searching = dataclasses.replace(TWELVE_GANGSTERS.searching, model=model)
        return dataclasses.replace(TWELVE_GANGSTERS, searching=searching)

    for boss_card in (1, 12):
        found = search(expecting(boss_card), view, random.Random(2), FEW)
        best = max(found.moves, key=lambda e: e.win_chance)
        assert best.move == {"type": "play", "card": boss_card}, boss_card


def people(view: dict[str, Any]) -> dict[str, Any]:
    """The view, had people taken the seats that bots hold."""
    return {**view, "seats": [{"seat": seat["seat"], "open": False, "name": "Ann"} for seat in view["seats"]]}


def test_a_seat_of_the_random_bot_is_expected_to_play_at_random() -> None:
    """The table shows which seats the house's random bot holds: the search expects any legal move of those alike,
    and the model's choice of a seat held by anyone else."""
    table = given(TWELVE_GANGSTERS, created(TWELVE_GANGSTERS, 3, {"first_boss": 0}))
    legal = TWELVE_GANGSTERS.legal_moves(table.rules, 1)

    def model(seen: dict[str, Any], rng: random.Random) -> mixing.Mixed:
        return mixing.certain({"type": "play", "card": max(seen["you"]["hand"])})

    ruleset = dataclasses.replace(
        TWELVE_GANGSTERS, searching=dataclasses.replace(TWELVE_GANGSTERS.searching, model=model)
    )
    view = tables.plain_view(ruleset, table, 0)
    assert view["seats"][1]["bot"] == "random"
    moves, chances = Search(ruleset, view).expect(table.rules, 1, random.Random(1))
    assert moves == legal and len(set(chances)) == 1 and len(moves) > 1
    moves, chances = Search(ruleset, people(view)).expect(table.rules, 1, random.Random(1))
    assert moves == [Play(card=12)] and chances == [1.0]


def test_a_seat_of_the_random_bot_is_handicapped_where_the_game_says() -> None:
    """Where a game's evaluation judges every seat a sensible player, it says how much less a random bot's seat is
    likely to win: the search divides that seat's odds by e to that power, and judges a seat anyone else holds as
    the evaluation does."""
    table = given(TWELVE_GANGSTERS, created(TWELVE_GANGSTERS, 3, {"first_boss": 0}))
    assert TWELVE_GANGSTERS.evaluate is not None
    judged = list(TWELVE_GANGSTERS.evaluate(table.rules))

    def handicapping(handicap: Any) -> Ruleset[Any]:
        searching = dataclasses.replace(TWELVE_GANGSTERS.searching, handicap=handicap)
        return dataclasses.replace(TWELVE_GANGSTERS, searching=searching)

    ruleset = handicapping(lambda state: math.log(4))
    view = tables.plain_view(ruleset, table, 0)
    assert [seat.get("bot") for seat in view["seats"]][1:] == ["random", "random"]
    odds = [judged[0], judged[1] / 4, judged[2] / 4]
    assert Search(ruleset, view).evaluated(table.rules) == pytest.approx([o / sum(odds) for o in odds])
    assert Search(ruleset, people(view)).evaluated(table.rules) == pytest.approx(judged)
    assert Search(handicapping(None), view).evaluated(table.rules) == pytest.approx(judged)


def test_a_handicap_keeps_the_chances_total() -> None:
    """Chances that add up to less than one (a game where the dead cannot win) add up to as much after."""
    assert handicapped([0.2, 0.2, 0.0], {0}, math.log(3)) == pytest.approx([0.1, 0.3, 0.0])
    assert handicapped([0.5, 0.5], set(), 5.0) == [0.5, 0.5]


def test_hard_leaves_the_decisions_its_game_names_to_the_model() -> None:
    """Ca$h 'n Guns leaves the privilege, a retarget, the courage and the sharing to its model (smart): `hard`'s
    distribution for each is the model's; a load and an aim it searches."""
    cash = RULESETS["cash-n-guns"]
    assert cash.searching.model is smart_policy
    assert cash.searching.modelled == {"privilege", "retarget", "courage", "take"}
    seen: dict[str, list[dict[str, Any]]] = {}

    def watch(table: tables.Table[Any], seat: int, body: dict[str, Any]) -> None:
        view = tables.plain_view(cash, table, seat)
        if len(view["you"]["legal_moves"]) > 1:
            seen.setdefault(cash.awaiting(table.rules)[seat], []).append(view)

    play_out(cash, ["smart"] * 4, 1, watch)
    assert {"courage", "take", "load", "aim"} <= set(seen)
    policy = hard_policy(cash, FEW)
    for view in seen["take"][:3] + seen["courage"][:3]:
        assert policy(view, random.Random(9)) == smart_policy(view, random.Random(9))
    aims = seen["aim"][-5:]  # (the first turn's are even for both)
    assert any(policy(view, random.Random(9)) != smart_policy(view, random.Random(9)) for view in aims)


def test_a_seat_far_behind_is_rewarded_for_the_rivals_it_may_still_pass() -> None:
    """Two states where seat 1 has about no chance of winning: its chance alone hardly tells them apart, the
    rival it may still pass (seat 2) does. Each pair is judged by its chances, p / (p + q)."""
    ahead, behind = [0.98, 0.015, 0.005], [0.98, 0.005, 0.015]
    assert placed(ahead, 0.3)[1] - placed(behind, 0.3)[1] > 5 * (ahead[1] - behind[1])
    assert placed(ahead, 0.3)[1] == pytest.approx(0.7 * 0.015 + 0.3 * (0.015 / 0.995 + 0.015 / 0.02) / 2)
    assert placed(ahead, 0.0) == ahead
    assert placed([0.6, 0.4], 0.3) == pytest.approx([0.6, 0.4])  # two seats: the one rival is the win
    assert placed([0.5, 0.0, 0.0], 0.3)[1:] == pytest.approx([0.3 * 0.5 / 2] * 2)  # nobody's chance against nobody's


def test_at_the_end_a_seat_is_rewarded_for_its_win_and_the_rivals_it_beat_where_its_game_says() -> None:
    """12 Gangsters weighs a seat's place (`Searching.placed`): at a game's end a seat's reward is its win and the
    share of its rivals that rank below it (half of one ranked level), as the ratings rank them; a game that does not
    is rewarded for its win, nudged by its lead."""
    assert TWELVE_GANGSTERS.searching.placed == 0.3
    finished = play_out(TWELVE_GANGSTERS, ["smart"] * 5, 2)
    result = TWELVE_GANGSTERS.result(finished.rules)
    assert len(set(result.ranks)) < 5  # seats ranked level
    view = tables.plain_view(TWELVE_GANGSTERS, finished, 0)
    rewards, wins = Search(TWELVE_GANGSTERS, view).rewards(finished.rules)
    assert wins == [1.0 if seat in result.winners else 0.0 for seat in range(5)]
    for seat, rank in enumerate(result.ranks):
        assert rank is not None
        rivals = [result.ranks[other] or 6 for other in range(5) if other != seat]
        beaten = sum(rank < other for other in rivals) + sum(rank == other for other in rivals) / 2
        assert rewards[seat] == pytest.approx(0.7 * wins[seat] + 0.3 * beaten / 4)
    unplaced = dataclasses.replace(TWELVE_GANGSTERS.searching, placed=0.0)
    plain = dataclasses.replace(TWELVE_GANGSTERS, searching=unplaced)
    last = min(range(5), key=result.scores.__getitem__)
    assert Search(plain, view).rewards(finished.rules)[0][last] < 0.15  # no win, and at the bottom of the lead


def test_a_hidden_choice_is_mixed_over_the_reward_where_a_seats_place_counts() -> None:
    """Two gangsters alike in chance of winning, one far better for the seat's place: 12 Gangsters, which weighs
    the place, mostly plays that one; a game that weighs the win alone tosses a coin."""
    moves = [{"type": "x", "n": 0}, {"type": "x", "n": 1}]
    estimates = [MoveEstimate(moves[0], 50, 0.01, 0.05), MoveEstimate(moves[1], 50, 0.01, 0.30)]
    found = Found(estimates, 0.01, 100, 5, simultaneous=True, decision="play")
    drawn = dict((m["n"], p) for m, p in policy_of(TWELVE_GANGSTERS, found))
    assert drawn[1] > drawn[0]
    unplaced = dataclasses.replace(
        TWELVE_GANGSTERS, searching=dataclasses.replace(TWELVE_GANGSTERS.searching, placed=0.0)
    )
    assert policy_of(unplaced, found) == [(moves[0], 0.5), (moves[1], 0.5)]


def test_a_seat_out_of_the_running_is_placed_below_every_other() -> None:
    """A Ca$h 'n Guns seat killed in the hold-up (ranked null) beats nobody and is beaten by every other seat, as
    the ratings place it, were the game to weigh a seat's place."""
    cash = RULESETS["cash-n-guns"]
    finished = play_out(cash, ["random"] * 4, 5)
    result = cash.result(finished.rules)
    assert result.ranks == (3, 2, 1, None)
    ranked = dataclasses.replace(cash, searching=dataclasses.replace(cash.searching, placed=0.3))
    rewards, wins = Search(ranked, tables.plain_view(ranked, finished, 0)).rewards(finished.rules)
    assert wins == [0.0, 0.0, 1.0, 0.0]
    assert rewards == pytest.approx([0.3 / 3, 0.3 * 2 / 3, 0.7 + 0.3, 0.0])
