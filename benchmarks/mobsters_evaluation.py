"""Mobsters' evaluation held to the winners of games of smart bots, and its weights fitted again from them.

    .venv/bin/python -m benchmarks.mobsters_evaluation [--games 1500] [--held-out 500] [--jobs 2]

Plays `--games` games of smart bots at each of 2, 3 and 4 seats (seeds from `FITTED_FROM`) and keeps up to
`STATES` states of each game's turns (drawn with the game's seed), each with its measures
(`games.mobsters.evaluate.measures`) and the game's winners. It fits the weights of a conditional logit to them
(Newton's method: the log loss is convex in the weights) and prints them beside the committed `WEIGHTS`, with the
winners' log loss under each on `--held-out` other games a seat count (seeds from `HELD_OUT_FROM`) and under even
chances. A shared victory counts as a share of the win for each winner. The committed weights are this script's
fit with its defaults, rounded.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from benchmarks.common import machine, say_command
from games.mobsters import RULESET
from games.mobsters.evaluate import WEIGHTS, measures, softmax
from games.mobsters.state import Phase, State
from games.selfplay import play_out

SEATS = (2, 3, 4)
STATES = 12
FITTED_FROM, HELD_OUT_FROM = 1000, 900_000
NAMES = tuple(WEIGHTS)
Sample = tuple[list[list[float]], list[float]]
"""One state: each seat's measures (in `NAMES`' order) and its share of the win."""


def samples(game: tuple[int, int]) -> list[Sample]:
    """Up to STATES states of one game of smart bots (`seats`, `seed`), measured, with the game's winners."""
    seats, seed = game
    states: list[State | None] = []
    final = play_out(RULESET, ["smart"] * seats, seed, lambda table, _s, _b: states.append(table.rules)).rules
    assert final is not None
    winners = RULESET.result(final).winners
    share = [1 / len(winners) if seat in winners else 0.0 for seat in range(seats)]
    turns = [s for s in states if s is not None and s.phase not in (Phase.SETUP, Phase.OVER)]
    if len(turns) > STATES:
        turns = sorted(random.Random(seed).sample(turns, STATES), key=lambda s: s.turn)
    return [([[m[name] for name in NAMES] for m in measures(state)], share) for state in turns]


def collect(games: int, first_seed: int, jobs: int) -> dict[int, list[Sample]]:
    plan = [(seats, first_seed + i) for seats in SEATS for i in range(games)]
    found: dict[int, list[Sample]] = {seats: [] for seats in SEATS}
    with ProcessPoolExecutor(jobs) as pool:
        for (seats, _), got in zip(plan, pool.map(samples, plan, chunksize=8), strict=True):
            found[seats].extend(got)
    return found


def chances(x: list[list[float]], w: Sequence[float]) -> list[float]:
    """Each seat's chance under weights `w`, as `evaluate` makes them from its measures."""
    return softmax([sum(wk * xk for wk, xk in zip(w, seat, strict=True)) for seat in x])


def log_loss(data: list[Sample], w: Sequence[float]) -> float:
    """The winners' mean log loss under weights `w` (a shared win split between its winners)."""
    total = 0.0
    for x, shares in data:
        total -= sum(share * math.log(p) for p, share in zip(chances(x, w), shares, strict=True) if share)
    return total / len(data)


def newton_step(data: list[Sample], w: list[float]) -> list[float]:
    """The weights one Newton step from `w` (a little ridge keeps the Hessian invertible)."""
    k = len(w)
    grad = [0.0] * k
    hess = [[1e-6 if i == j else 0.0 for j in range(k)] for i in range(k)]
    for x, ys in data:
        p = chances(x, w)
        mean = [sum(pj * xj[i] for pj, xj in zip(p, x, strict=True)) for i in range(k)]
        for pj, yj, xj in zip(p, ys, x, strict=True):
            for i in range(k):
                grad[i] += (pj - yj) * xj[i]
                row, pxi = hess[i], pj * xj[i]
                for m in range(k):
                    row[m] += pxi * xj[m]
        for i in range(k):
            row, mi = hess[i], mean[i]
            for m in range(k):
                row[m] -= mi * mean[m]
    step = solve(hess, grad)
    return [wi - si for wi, si in zip(w, step, strict=True)]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b, by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, bi] for row, bi in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in reversed(range(n)):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit(data: list[Sample], steps: int = 20) -> list[float]:
    """The weights of least log loss on `data`, from even chances, by Newton's method."""
    w = [0.0] * len(data[0][0][0])
    for _ in range(steps):
        after = newton_step(data, w)
        moved = max(abs(a - b) for a, b in zip(after, w, strict=True))
        w = after
        if moved < 1e-5:
            break
    return w


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.mobsters_evaluation", description=__doc__.split(".")[0])
    parser.add_argument("--games", type=int, default=1500, help="games a seat count to fit on")
    parser.add_argument("--held-out", type=int, default=500, help="games a seat count to judge on")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    print("== Mobsters' evaluation: its weights fitted to the winners of smart bots' games", flush=True)
    say_command("benchmarks.mobsters_evaluation", ["--games", str(args.games), "--held-out", str(args.held_out)])
    print(machine(), flush=True)
    train = collect(args.games, FITTED_FROM, args.jobs)
    held = collect(args.held_out, HELD_OUT_FROM, args.jobs)
    fitted = fit([sample for seats in SEATS for sample in train[seats]])
    committed = [WEIGHTS[name] for name in NAMES]
    print(f"{'measure':<18} {'fitted':>8} {'committed':>10}")
    for name, f, c in zip(NAMES, fitted, committed, strict=True):
        print(f"{name:<18} {f:>8.3f} {c:>10.3f}")
    print(f"{'seats':<6} {'states':>7} {'fitted':>8} {'committed':>10} {'even':>7}   (held-out log loss)")
    for seats in SEATS:
        data = held[seats]
        losses = [log_loss(data, w) for w in (fitted, committed, [0.0] * len(NAMES))]
        print(f"{seats:<6} {len(data):>7} {losses[0]:>8.3f} {losses[1]:>10.3f} {losses[2]:>7.3f}")


if __name__ == "__main__":
    main()
