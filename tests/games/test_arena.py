"""The arena: head-to-head bot tables with the kinds rotating round the seats, their tallies and intervals, the
`pimc` baseline it seats, and `syndicate arena` end to end."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner

from games import pimc
from games import table as tables
from games.base import rank_seats
from games.registry import RULESETS
from games.scoreboard import percentile, score
from games.selfplay import SelfPlayError, arena, arena_seed, contenders, play_game, play_out, rotated, rotations
from games.table import bot_kinds
from games.twelve_gangsters import RULESET
from games.twelve_gangsters.moves import Play
from games.wilson import wilson
from service.application.offered import describe
from service.ops import arena as arenas
from service.ops.cli import main as cli
from tests.games.helpers import created, given, when

SEARCHED = [r for r in RULESETS.values() if r.determinize is not None]

# --- seat rotation -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("lineup", [["pimc", "smart", "random"], ["pimc", "smart", "smart", "random", "random"]])
def test_every_rotation_gives_each_kind_each_seat_equally(lineup: list[str]) -> None:
    seats = len(lineup)
    rounds = 4

    taken = Counter((seat, kind) for n in range(rounds * seats) for seat, kind in enumerate(rotated(lineup, n)))

    for kind, entries in Counter(lineup).items():
        for seat in range(seats):
            assert taken[(seat, kind)] == rounds * entries


def test_the_games_of_a_rotation_deal_alike_and_rotations_differ() -> None:
    seeds = [arena_seed(5, n, 3) for n in range(9)]

    assert seeds[0] == seeds[1] == seeds[2] and seeds[3] == seeds[4] == seeds[5]
    assert len(set(seeds)) == 3
    assert rotations(7, 3) == 9 and rotations(6, 3) == 6


# --- Wilson intervals ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, the score method
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (5, 10, 0.2366, 0.7634),
    ],
)
def test_wilson_intervals_match_published_values(wins: int, games: int, low: float, high: float) -> None:
    found = wilson(wins, games)

    assert found == pytest.approx((low, high), abs=5e-5)


def test_a_wilson_interval_is_symmetric_in_wins_and_losses_and_all_of_it_before_any_game() -> None:
    low, high = wilson(3, 40)

    assert wilson(37, 40) == pytest.approx((1 - high, 1 - low))
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(5, 4)


def test_the_99th_percentile_is_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 201)]

    assert percentile(values, 0.99) == 198.0
    assert percentile([3.0], 0.99) == 3.0


# --- the tallies -------------------------------------------------------------------------------------------


def test_the_arenas_tallies_are_the_results_of_the_games_it_played() -> None:
    lineup = ["smart", "random", "random", "smart"]

    played = arena(RULESET, lineup, games=12, seed=4)
    board = score((p.kinds, RULESET.result(p.table.rules)) for p in played)

    wins: Counter[str] = Counter()
    for game in played:
        # the same game, played again outside the arena by its kinds and seed
        result = play_game(RULESET, game.kinds, game.seed)
        assert result == RULESET.result(game.table.rules)
        wins.update(game.kinds[seat] for seat in result.winners)  # a shared win counts for each winner
    assert {kind: s.wins for kind, s in board.items()} == dict(wins)
    assert {kind: s.games for kind, s in board.items()} == {"smart": 24, "random": 24}
    for s in board.values():
        assert s.win_rate == s.wins / s.games
        assert (s.low, s.high) == wilson(s.wins, s.games)
        assert s.fair_share == 1 / 4
        assert s.vs_fair == (4 * s.win_rate, 4 * s.low, 4 * s.high)


def test_a_shared_victory_counts_for_each_winner() -> None:
    shared = rank_seats([10, 10, 3])

    board = score([(("smart", "random", "pimc"), shared), (("random", "pimc", "smart"), shared)])

    assert {kind: s.wins for kind, s in board.items()} == {"smart": 1, "random": 2, "pimc": 1}


def test_the_arena_times_every_bot_call_with_the_clock_it_is_handed() -> None:
    ticks = iter(range(10**6))

    played = arena(RULESET, ["smart", "random", "random"], games=3, seed=1, clock=lambda: float(next(ticks)))

    for game in played:
        assert Counter(kind for kind, _ in game.times) == {"smart": 12, "random": 24}  # a gangster a round
        assert {seconds for _, seconds in game.times} == {1.0}  # one tick from a call's start to its answer
    assert [p.table for p in played] == [p.table for p in arena(RULESET, ["smart", "random", "random"], 3, 1)]


def test_a_kind_the_ruleset_has_no_bot_of_is_refused() -> None:
    with pytest.raises(SelfPlayError, match="no 'genius' bot"):
        arena(RULESET, ["genius", "random", "random"], games=1)


# --- pimc ---------------------------------------------------------------------------------------------------


def test_pimc_is_seated_by_the_arena_but_not_offered_at_a_table() -> None:
    for ruleset in RULESETS.values():
        assert "pimc" not in bot_kinds(ruleset)
        assert "pimc" not in describe(ruleset)["bots"]  # as `GET /v1/rulesets` lists the ruleset
        assert ("pimc" in contenders(ruleset)) == (ruleset.determinize is not None)


def test_the_arena_seats_every_bot_a_table_offers() -> None:
    # one lookup: a kind the house offers (a searching bot among them) is one the arena can measure
    for ruleset in RULESETS.values():
        assert bot_kinds(ruleset) <= set(contenders(ruleset))


@pytest.mark.parametrize("ruleset", SEARCHED, ids=lambda r: r.id)
def test_pimc_makes_only_legal_moves(ruleset: Any) -> None:
    # Few playouts, and the first 30 decisions of a game: what is checked is the move, not its quality, and a
    # playout of a long game (Mobsters) takes tens of milliseconds. Random moves play the game on from there.
    search, random_bot = pimc.bot(ruleset, samples=8), contenders(ruleset)["random"]
    answered: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []

    def bot(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return (search if len(answered) < 30 else random_bot)(view, rng)

    def watch(table: tables.Table[Any], seat: int, body: dict[str, Any]) -> None:
        if seat == 0 and len(answered) < 30:
            answered.append((body, tables.plain_view(ruleset, table, seat)["you"]["legal_moves"]))

    for seats in sorted({ruleset.min_seats, min(ruleset.max_seats, 5)}):
        answered.clear()
        bots = [bot, *[random_bot] * (seats - 1)]
        table = play_out(ruleset, ["pimc", *["random"] * (seats - 1)], seed=seats, watch=watch, bots=bots)
        assert table.status is tables.Status.FINISHED
        assert answered and all(body in legal for body, legal in answered)


def test_pimc_reads_only_the_seats_view() -> None:
    # Two tables alike but for what seats 1 and 2 chose this round, face down: seat 0 sees the same view at
    # both, so with the same generator it makes the same move.
    base = given(RULESET, created(RULESET, seats=3, options={"first_boss": 0}))
    one = when(RULESET, when(RULESET, base, 1, Play(card=12))[0], 2, Play(card=1))[0]
    other = when(RULESET, when(RULESET, base, 1, Play(card=2))[0], 2, Play(card=11))[0]
    assert one.rules != other.rules
    view = tables.plain_view(RULESET, one, 0)
    assert view == tables.plain_view(RULESET, other, 0)

    bot = pimc.bot(RULESET)
    first = bot(view, random.Random(3))

    assert first == bot(tables.plain_view(RULESET, other, 0), random.Random(3))
    assert first in view["you"]["legal_moves"]
    assert bot(view, random.Random(3)) == first  # deterministic given its generator


def test_pimc_plays_a_forced_move_without_searching() -> None:
    view = {"you": {"seat": 0, "legal_moves": [{"type": "play", "card": 4}]}}

    assert pimc.bot(RULESET)(view, random.Random(0)) == {"type": "play", "card": 4}


def test_pimc_needs_a_determinize() -> None:
    no_search = next((r for r in RULESETS.values() if r.determinize is None), None)
    if no_search is None:
        pytest.skip("every ruleset has a determinize")
    with pytest.raises(ValueError, match="no determinize"):
        pimc.bot(no_search)


ROUNDS = [[10, 5, 12], [6, 12, 9], [1, 9, 4], [2, 3, 2], [9, 11, 6], [7, 7, 1], [11, 2, 3], [4, 8, 8], [5, 10, 7]]
ROUNDS += [[3, 1, 11]]
"""Ten rounds of a three-seat game (the first Boss seat 0): seat 0 then leads 49 to 31 and 40, holding 8 and 12."""


def test_pimc_makes_the_move_that_wins_more_often() -> None:
    table = given(RULESET, created(RULESET, seats=3, options={"first_boss": 0}))
    for cards in ROUNDS:
        for seat, card in enumerate(cards):
            table, _ = when(RULESET, table, seat, Play(card=card))
    state = table.rules
    # Every choice the others may make this round, the last round forced: 12 now wins in each, 8 in half of them.
    exact = {}
    for card in (8, 12):
        outcomes = []
        for theirs in itertools.product(state.hands[1], state.hands[2]):
            end = state
            for seat, played in enumerate((card, *theirs)):
                end = pimc.apply(RULESET, end, seat, Play(card=played), random.Random(0))
            for seat in range(3):
                end = pimc.apply(RULESET, end, seat, RULESET.legal_moves(end, seat)[0], random.Random(0))
            outcomes.append(0 in RULESET.result(end).winners)
        exact[card] = sum(outcomes) / len(outcomes)
    assert exact == {8: 0.5, 12: 1.0}

    chosen = pimc.bot(RULESET)(tables.plain_view(RULESET, table, 0), random.Random(0))

    assert chosen == {"type": "play", "card": 12}


# --- ratings and the CLI -------------------------------------------------------------------------------------


def test_the_arena_rates_each_kind_as_the_service_rates_its_bot() -> None:
    found = arenas.run("twelve-gangsters", ["smart", "random", "random"], games=6, seed=2)

    assert set(found.ratings) == {"smart", "random"}
    assert found.ratings["smart"].games == found.ratings["random"].games == 6
    assert found.ratings["smart"].wins == found.scores["smart"].wins  # one smart seat a game
    assert found.ratings["random"].name == "bot:random"


def test_the_arena_on_processes_finds_what_it_finds_on_one() -> None:
    lineup = ("smart", "random", "random")

    alone = arenas.play("twelve-gangsters", lineup, 6, seed=9, jobs=1)
    shared = arenas.play("twelve-gangsters", lineup, 6, seed=9, jobs=2)

    assert [msgspec.to_builtins(p.table) for p in alone] == [msgspec.to_builtins(p.table) for p in shared]


def test_syndicate_arena_prints_each_kinds_score_and_rating(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    args = ["arena", "--ruleset", "twelve-gangsters", "--games", "2", "--seats", "pimc,smart,random", "--seed", "1"]

    outcome = CliRunner().invoke(cli, args)

    assert outcome.exit_code == 0, outcome.output
    lines = outcome.output.splitlines()
    assert lines[0] == "$ syndicate arena --ruleset twelve-gangsters --games 3 --seats pimc,smart,random --seed 1"
    assert lines[1].startswith("12 Gangsters: 3 games (1 rotation of 3 seats), in ")
    found = arenas.run("twelve-gangsters", ["pimc", "smart", "random"], games=3, seed=1)
    rows = {line.split()[0]: line.split() for line in lines[4:7]}
    assert set(rows) == {"pimc", "smart", "random"}
    for kind, s in found.scores.items():
        games, wins, rate = rows[kind][1:4]
        assert (int(games), int(wins), rate) == (3, s.wins, f"{s.win_rate:.1%}")
        assert rows[kind][-3] == f"{found.ratings[kind].ordinal:.2f}"  # the same tallies, run again: the seed's


def test_syndicate_arena_refuses_an_unknown_bot_or_seat_count() -> None:
    unknown = CliRunner().invoke(cli, ["arena", "--games", "1", "--seats", "pimc,genius,random"])
    too_few = CliRunner().invoke(cli, ["arena", "--games", "1", "--seats", "pimc,random"])

    assert unknown.exit_code == 2 and "unknown bot kind 'genius'" in unknown.output
    assert too_few.exit_code == 2 and "takes 3 to 6 seats, not 2" in too_few.output
