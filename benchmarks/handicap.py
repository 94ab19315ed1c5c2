"""How much less often a seat of the house's random bot wins than a game's evaluation judges, and the handicap a
search gives it (`Searching.handicap`) held to the winners.

    .venv/bin/python -m benchmarks.handicap [--games 600] [--seats 3] [--jobs 2] [ruleset ...]

For each ruleset whose search handicaps a random seat (default: every one), plays `--games` games of smart bots and
one random bot (seeds from `FIRST_SEED`, the random seat turning round the table with the seed), keeps up to
`STATES` states of each game before its end (drawn with its seed), and prints how often the random seat won beside
how often the evaluation judged it would, then the winners' log loss with its handicap scaled by each of `SCALES`
(1: the committed one; 0: none). A shared victory counts as a share of the win for each winner.
"""

from __future__ import annotations

import argparse
import math
import random
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat

from benchmarks.common import machine, say_command
from games.registry import RULESETS
from games.search import handicapped
from games.selfplay import play_out

STATES = 12
FIRST_SEED = 5000
SCALES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
Sample = tuple[list[float], int, float, list[float]]
"""One state: each seat's chance by the evaluation, the random seat, its handicap, and each seat's share of the win."""


def samples(ruleset_id: str, seats: int, seed: int) -> list[Sample]:
    """Up to STATES states of one game of smart bots and a random one at seat `seed % seats`."""
    ruleset = RULESETS[ruleset_id]
    evaluate, handicap = ruleset.evaluate, ruleset.searching.handicap
    assert evaluate is not None and handicap is not None
    at_random = seed % seats
    kinds = ["smart"] * seats
    kinds[at_random] = "random"
    states: list[object] = []
    final = play_out(ruleset, kinds, seed, lambda table, _s, _b: states.append(table.rules)).rules
    winners = ruleset.result(final).winners
    share = [1 / len(winners) if seat in winners else 0.0 for seat in range(seats)]
    before_end = [state for state in states if state is not None and not ruleset.is_over(state)]
    if len(before_end) > STATES:
        before_end = random.Random(seed).sample(before_end, STATES)
    return [(list(evaluate(state)), at_random, handicap(state), share) for state in before_end]


def log_loss(data: list[Sample], scale: float) -> float:
    """The winners' mean log loss with the random seat's handicap times `scale`."""
    total = 0.0
    for chances, at_random, logit, shares in data:
        judged = handicapped(chances, {at_random}, logit * scale)
        total -= sum(share * math.log(max(p, 1e-12)) for p, share in zip(judged, shares, strict=True) if share)
    return total / len(data)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.handicap", description=__doc__.split("\n")[0])
    parser.add_argument("rulesets", nargs="*", help="rulesets to play (default: every one whose search handicaps)")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    handicapping = [r.id for r in RULESETS.values() if r.searching.handicap is not None]
    chosen = args.rulesets or handicapping
    print("== A random seat's handicap, held to the winners of smart bots' games with one random seat", flush=True)
    say_command("benchmarks.handicap", [*chosen, "--games", str(args.games), "--seats", str(args.seats)])
    print(machine(), flush=True)
    for ruleset_id in chosen:
        seeds = range(FIRST_SEED, FIRST_SEED + args.games)
        with ProcessPoolExecutor(args.jobs) as pool:
            found = pool.map(samples, repeat(ruleset_id), repeat(args.seats), seeds, chunksize=8)
            data = [sample for game in found for sample in game]
        won = sum(shares[seat] for _, seat, _, shares in data) / len(data)
        judged = sum(chances[seat] for chances, seat, _, _ in data) / len(data)
        print(f"{ruleset_id}, {args.seats} seats, {len(data)} states: the random seat won {won:.3f}", end="")
        print(f", judged {judged:.3f}")
        print("  handicap x  " + " ".join(f"{scale:>6}" for scale in SCALES))
        print("  log loss    " + " ".join(f"{log_loss(data, scale):>6.3f}" for scale in SCALES), flush=True)


if __name__ == "__main__":
    main()
