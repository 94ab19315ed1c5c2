"""`syndicate arena`: head-to-head tables of bots played in process (`games.selfplay.arena`), on several processes
if asked, and what they say of each kind: its wins against its fair share (`games.scoreboard`) and its rating on
the service's own scale, the ratings read model's fold (`projections.ratings`) fed the arena's games as if the
house had tallied them, each kind rated as `bot:<kind>`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import msgspec

from games import table as tables
from games.base import Ruleset
from games.registry import RULESETS
from games.scoreboard import KindScore, score
from games.search import DEFAULT_BUDGET_MS, Budget
from games.selfplay import Played, arena_game
from projections.ratings import Rating, fold, standing_of


@dataclass(frozen=True)
class Arena:
    """What an arena run found."""

    ruleset: str
    lineup: tuple[str, ...]
    games: int
    seed: int
    jobs: int
    seconds: float
    scores: dict[str, KindScore]
    ratings: dict[str, Rating]
    """By kind (each rated as `bot:<kind>`)."""


def run(
    ruleset_id: str,
    lineup: Sequence[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    budget_ms: float = DEFAULT_BUDGET_MS,
) -> Arena:
    """Play the arena's `games` games (on `jobs` processes, a searching bot given `budget_ms` a decision) and score
    them: the tallies depend on the seed alone (and, for a searching bot, on how far it got), the decision times
    on the machine."""
    ruleset = RULESETS[ruleset_id]
    started = time.perf_counter()
    played = play(ruleset_id, tuple(lineup), games, seed, jobs, budget_ms)
    seconds = time.perf_counter() - started
    return Arena(
        ruleset=ruleset_id,
        lineup=tuple(lineup),
        games=games,
        seed=seed,
        jobs=jobs,
        seconds=seconds,
        scores=score(
            ((p.kinds, ruleset.result(p.table.rules)) for p in played),
            (call for p in played for call in p.times),
        ),
        ratings=rated(ruleset, played),
    )


def play(
    ruleset_id: str, lineup: tuple[str, ...], games: int, seed: int, jobs: int, budget_ms: float = DEFAULT_BUDGET_MS
) -> list[Played]:
    """The arena's games in order, played here or shared out among `jobs` processes (each game is fixed by the
    seed and its number, so the split changes nothing but the time)."""
    numbers = range(games)
    if jobs <= 1:
        return [one(ruleset_id, lineup, number, seed, budget_ms) for number in numbers]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        # one game a task: a searching bot's game takes seconds, so a process left with a long chunk would not do
        return list(pool.map(one, repeat(ruleset_id), repeat(lineup), numbers, repeat(seed), repeat(budget_ms)))


def one(
    ruleset_id: str, lineup: tuple[str, ...], number: int, seed: int, budget_ms: float = DEFAULT_BUDGET_MS
) -> Played:
    """One arena game, its bot calls timed (what a process of the pool runs)."""
    budget = Budget(ms=budget_ms)
    return arena_game(RULESETS[ruleset_id], lineup, number, seed, clock=time.perf_counter, budget=budget)


def rated(ruleset: Ruleset[Any], played: Sequence[Played]) -> dict[str, Rating]:
    """Each kind's rating after the arena's games, in their order, folded as the service folds tallied games."""
    standings = []
    for game in played:
        # each seat as the bot of its kind (the table seats `pimc` under a name, and a name is not rated), and a
        # salt: the service rates only games whose seed it kept secret, as an arena seed is until it is printed
        as_bots = msgspec.structs.replace(
            game.table, seats=tuple(tables.Seat(bot=kind) for kind in game.kinds), salt="arena"
        )
        standing = standing_of(ruleset, as_bots, f"{game.number:09d}")
        assert standing is not None  # every seat is a bot's, so every seat is rated
        standings.append(standing)
    return {who.removeprefix("bot:"): rating for who, rating in fold(standings).items()}


def lines(found: Arena, command: str) -> list[str]:
    """The report a person reads: the command, each kind's score, its ratio to the fair share, its decision times
    and its rating."""
    name = RULESETS[found.ruleset].name
    seats = len(found.lineup)
    turns = found.games // seats
    out = [
        f"$ {command}",
        f"{name}: {found.games} games ({turns} rotation{'s' if turns > 1 else ''} of {seats} seats), "
        f"in {found.seconds:.1f} s on {found.jobs} process{'es' if found.jobs > 1 else ''}",
        "",
        f"{'kind':<8} {'games':>6} {'wins':>5} {'win rate':>9} {'95% interval':>16} {'fair':>6} "
        f"{'x fair':>7} {'95% interval':>14} {'moves':>6} {'mean ms':>8} {'p99 ms':>8} {'rating':>7} "
        f"{'mu':>6} {'sigma':>6}",
    ]
    for kind, s in found.scores.items():
        ratio, low, high = s.vs_fair
        r = found.ratings[kind]
        mean = "-" if s.mean_s is None else f"{s.mean_s * 1000:.2f}"
        p99 = "-" if s.p99_s is None else f"{s.p99_s * 1000:.2f}"
        out.append(
            f"{kind:<8} {s.games:>6} {s.wins:>5} {s.win_rate:>9.1%} {f'[{s.low:.1%}, {s.high:.1%}]':>16} "
            f"{s.fair_share:>6.1%} {ratio:>7.2f} {f'[{low:.2f}, {high:.2f}]':>14} {s.decisions:>6} {mean:>8} "
            f"{p99:>8} {r.ordinal:>7.2f} {r.mu:>6.2f} {r.sigma:>6.2f}"
        )
    out += [
        "",
        "A kind's games are its seats' games; a shared victory counts as a win for each winner. Intervals are",
        "Wilson's. Each game turns the lineup one seat further and each rotation deals alike, so every kind takes",
        "every seat equally. Rating: the service's own (openskill Plackett-Luce, mu - 3 sigma, as `bot:<kind>`),",
        "fed these games in order. Decision times: each bot call, on this machine.",
    ]
    return out
