"""How strong the `hard` bot is: one `hard` seat against seats of another bot (`smart`, or a PIMC baseline), the
hard seat moved round the table game after game, and how long its decisions take.

    .venv/bin/python -m benchmarks.hard_bot --ruleset cash-n-guns --seats 4 --games 80 --budget-ms 50 --seed 7

The search's budget is the process's CPU time, not the wall clock (the machine is shared: a wall-clock budget
would search less the busier it is). A decision's time is counted where the seat had a choice (a lone legal move
is played without a search). The win rate's 95% interval is the normal one, 1.96 standard errors. Each game's outcome
goes to standard error as it ends; the report, one JSON line, to standard output at the end. Knobs to compare
search settings without editing them: `--horizon`, `--exploration`, `--lead-weight`, `--price` (every hidden
choice's price in `games.hard`), `--prices` (each decision's), `--modelled` (the decisions left to the game's model),
`--no-model` (the others' choices searched, not modelled), `--pure` (no mixing), `--no-evaluate` (play every
iteration to the end). `--opponent pimc`: perfect
information Monte Carlo, each decision `PIMC_DRAWS` states drawn from the view, the seat's moves taking them in
turn, each played out to the end by random moves; the move with the most wins is made. The PIMC seats sit under
their own name, as the arena seats them (`games.selfplay`): the table does not show them as the house's random bot,
whose seats the search expects to play at random. `--pimc-as-random` seats them as random bots all the same (as this
benchmark seated them at first: the hard seat then models them as random players). `--lone`: the other way round,
one seat of the opponent's kind against `hard` in every other seat, moved round the table alike; the report then
counts the lone seat's wins (`lone_wins`), and its fair share is what it must not beat.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from typing import Any

PIMC_DRAWS = 400


def pimc_bot(ruleset: Any) -> Any:
    """The PIMC baseline's bot for this ruleset (games/pimc.py: playouts to the end, no evaluation)."""
    from games import pimc

    return pimc.bot(dataclasses.replace(ruleset, evaluate=None), PIMC_DRAWS)


def seat_kinds(opponent: str, seats: int, game: int, pimc_as_random: bool = False, lone: bool = False) -> list[str]:
    """The kind of bot in each seat of game `game`: `hard` in seat `game mod seats`, the opponent's kind in the
    others (PIMC seated as the house's random bot, whose bot stands in for it, if `pimc_as_random`); `lone`: the
    opponent's kind in that seat, `hard` in the others."""
    other = "random" if opponent == "pimc" and pimc_as_random else opponent
    kinds = ["hard" if lone else other] * seats
    kinds[game % seats] = other if lone else "hard"
    return kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("--seats", type=int, required=True)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget-ms", type=float, default=50.0)
    parser.add_argument("--opponent", default="smart", help="smart, random or pimc")
    parser.add_argument("--horizon", type=int)
    parser.add_argument("--exploration", type=float)
    parser.add_argument("--lead-weight", type=float)
    parser.add_argument("--price", type=float, help="every hidden decision's price")
    parser.add_argument("--prices", help="hidden decisions' prices, as decision=price,...")
    parser.add_argument("--modelled", help="the decisions left to the game's model, as decision,... ('' for none)")
    parser.add_argument("--no-evaluate", action="store_true")
    parser.add_argument("--staged", help="the seat counts whose search plays on to the stage's end, as 2,4 ('' none)")
    parser.add_argument("--no-model", action="store_true", help="search the other seats' choices, not model them")
    parser.add_argument("--pure", action="store_true", help="hidden choices unmixed: the best estimate, always")
    parser.add_argument(
        "--pimc-as-random", action="store_true", help="seat PIMC as the house's random bot (the search sees that label)"
    )
    parser.add_argument("--lone", action="store_true", help="one seat of the opponent's kind, hard in the others")
    args = parser.parse_args()

    from games import search, selfplay
    from games.registry import RULESETS

    if args.exploration is not None:
        search.EXPLORATION = args.exploration
    if args.lead_weight is not None:
        search.LEAD_WEIGHT = args.lead_weight
    ruleset = RULESETS[args.ruleset]
    searching = ruleset.searching
    if args.horizon is not None:
        searching = dataclasses.replace(searching, horizon=args.horizon)
    if args.price is not None:
        searching = dataclasses.replace(searching, price=args.price, prices={})
    if args.prices:
        prices = dict(pair.split("=") for pair in args.prices.split(","))
        searching = dataclasses.replace(searching, prices={k: float(v) for k, v in prices.items()})
    if args.modelled is not None:
        searching = dataclasses.replace(searching, modelled=frozenset(filter(None, args.modelled.split(","))))
    if args.staged is not None:
        staged = frozenset(int(n) for n in args.staged.split(",") if n)
        searching = dataclasses.replace(searching, staged=staged)
    if args.no_model:
        searching = dataclasses.replace(searching, model=None)
    ruleset = dataclasses.replace(ruleset, searching=searching)
    if args.pure:
        from games import mixing

        mixing.most = lambda k: 1.0  # type: ignore[assignment]
        searching = dataclasses.replace(searching, price=0.0, prices={})
        ruleset = dataclasses.replace(ruleset, searching=searching)
    if args.no_evaluate:
        ruleset = dataclasses.replace(ruleset, evaluate=None)
    pimc = args.opponent == "pimc" and args.pimc_as_random

    times: list[float] = []
    bot_for = selfplay.bot_for

    def timed_bot_for(rules: Any, kind: str, budget: Any = None) -> Any:
        if pimc and kind == "random":
            return pimc_bot(rules)
        bot = bot_for(rules, kind, budget)
        if kind != "hard":
            return bot

        def timed(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
            started = time.process_time()
            body = bot(view, rng)
            if len(view["you"]["legal_moves"]) > 1:
                times.append((time.process_time() - started) * 1000)
            return body

        return timed

    selfplay.bot_for = timed_bot_for  # type: ignore[assignment]
    budget = search.Budget(ms=args.budget_ms, clock=time.process_time)
    wins = 0
    started = time.process_time()
    for game in range(args.games):
        seat = game % args.seats
        kinds = seat_kinds(args.opponent, args.seats, game, args.pimc_as_random, args.lone)
        result = selfplay.play_game(ruleset, kinds, args.seed * 100_000 + game, budget)
        wins += seat in result.winners
        # a game against PIMC may take minutes: each one's outcome as it ends, so a long run can be read halfway
        outcome = "won" if seat in result.winners else "lost"
        cpu = time.process_time() - started
        lone = f"{args.opponent} (lone)" if args.lone else "hard"
        print(f"game {game + 1}/{args.games}: {lone} {outcome}, {wins} won so far, {cpu:.0f} s of CPU", file=sys.stderr)
    times.sort()
    rate = wins / max(1, args.games)
    half = 1.96 * math.sqrt(rate * (1 - rate) / max(1, args.games))
    report = {
        "ruleset": args.ruleset,
        "seats": args.seats,
        "opponent": args.opponent,
        "games": args.games,
        "lone_wins" if args.lone else "hard_wins": wins,
        "win_rate": round(rate, 3),
        "ci95": [round(max(0.0, rate - half), 3), round(min(1.0, rate + half), 3)],
        "x_fair_share": round(rate * args.seats, 2),
        "x_fair_ci95": [round(max(0.0, rate - half) * args.seats, 2), round(min(1.0, rate + half) * args.seats, 2)],
        "decisions": len(times),
        "mean_ms": round(sum(times) / max(1, len(times)), 1),
        "p99_ms": round(times[int(0.99 * (len(times) - 1))], 1) if times else None,
        "max_ms": round(times[-1], 1) if times else None,
        "cpu_s": round(time.process_time() - started, 1),
        "settings": {k: v for k, v in vars(args).items() if v not in (None, False)},
    }
    print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
