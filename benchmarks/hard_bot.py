"""How long the `hard` bot takes over a decision, and how many iterations its search runs in that time.

    .venv/bin/python -m benchmarks.hard_bot --seats hard,smart,smart --games 10
    .venv/bin/python -m benchmarks.hard_bot --seats hard,smart,smart,smart,smart --games 5 --clock cpu

It plays all-bot games in process (`games.selfplay`) and, at each decision of a hard seat that has a choice,
decides it once more on the same view and generator, timed from the view to the move (the determinizations and
the search included), with the budget the house gives it. `--clock cpu` bounds the search by this process's CPU
time rather than the wall clock: on a machine others share, that measures what one core of its own would do.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from typing import Any

from games import table as tables
from games.hard import judge
from games.registry import RULESETS
from games.search import DEFAULT_BUDGET_MS, Budget
from games.selfplay import game_seeds, generator, play_out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="twelve-gangsters", choices=sorted(RULESETS))
    parser.add_argument("--seats", default="hard,smart,smart", help="a bot kind per seat, comma-separated")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    ruleset = RULESETS[args.ruleset]
    kinds = [kind.strip() for kind in args.seats.split(",")]
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    budget = Budget(ms=args.budget_ms, clock=clock)
    took: list[float] = []
    iterations: list[int] = []
    wins = dict.fromkeys(kinds, 0)

    for seed in game_seeds(args.seed, args.games):

        def watch(table: tables.Table[Any], seat: int, body: dict[str, Any], seed: int = seed) -> None:
            view = tables.plain_view(ruleset, table, seat)
            if kinds[seat] == "hard" and len(view["you"]["legal_moves"]) > 1:
                started = clock()
                judged = judge(ruleset, view, generator(seed, table.version, seat), budget)
                took.append(clock() - started)
                iterations.append(judged.iterations)

        finished = play_out(ruleset, kinds, seed, watch, budget=budget)
        for winner in ruleset.result(finished.rules).winners:
            wins[kinds[winner]] += 1

    took.sort()
    print(
        f"$ python -m benchmarks.hard_bot --ruleset {args.ruleset} --seats {args.seats} --games {args.games} "
        f"--budget-ms {args.budget_ms:g} --clock {args.clock} --seed {args.seed}"
    )
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print(
        f"{len(took)} decisions of hard seats: mean {statistics.mean(took) * 1e3:.1f} ms, "
        f"p50 {took[len(took) // 2] * 1e3:.1f} ms, p99 {took[int(0.99 * (len(took) - 1))] * 1e3:.1f} ms, "
        f"max {took[-1] * 1e3:.1f} ms ({args.clock} clock); iterations a decision: mean "
        f"{statistics.mean(iterations):.0f}, least {min(iterations)}"
    )
    for kind in sorted(wins):
        rate = wins[kind] / (args.games * kinds.count(kind))
        print(f"{kind}: wins {rate:.1%} a seat, {rate * len(kinds):.2f} x fair share")


if __name__ == "__main__":
    main()
