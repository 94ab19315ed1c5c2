"""How fast Ca$h 'n Guns' pure rules play for a searching bot: random playouts a second from a mid-game state of 4
and 6 seats (every awaited seat makes a random legal move, decided and folded, to the end), and one `determinize`
from a seat's view.

    .venv/bin/python -m benchmarks.cash_n_guns_rules
    .venv/bin/python -m benchmarks.cash_n_guns_rules --baseline <commit> --rounds 5

With `--baseline`, the rules of that commit (its `games/` folder) are measured too, in the same run, each round one
after the other in fresh processes: the ratio of the medians is the speed-up. The playouts are the same seeded
games in both, and their moves are counted: a different count would be a change of behaviour, not of speed.
Times are the process's CPU time (the machine is shared: wall time moves with its load). The mid-game states: the
table of a game of smart bots at the first decision of turn 4 (seed 4 for 4 seats, 6 for 6). No Redis, no
service: the rules alone, in one process.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SEATS = (4, 6)
TURN = 4


def mid_game(seats: int) -> tuple[Any, int, dict[str, Any]]:
    """The true state at the first decision of turn `TURN` of a game of smart bots, the seat awaited, its view."""
    from games import table as tables
    from games.cash_n_guns import RULESET
    from games.selfplay import play_out

    found: list[tuple[Any, int]] = []

    def watch(table: tables.Table[Any], seat: int, _: dict[str, Any]) -> None:
        if not found and table.rules is not None and table.rules.turn == TURN:
            found.append((table, seat))

    play_out(RULESET, ["smart"] * seats, seats, watch=watch)
    table, seat = found[0]
    return table.rules, seat, tables.plain_view(RULESET, table, seat)


def playout(state: Any, rng: random.Random) -> int:
    """A random game from `state` to its end: each awaited seat in turn makes a random legal move. Its moves."""
    from games.cash_n_guns import RULESET as r

    moves = 0
    while not r.is_over(state):
        for seat in sorted(r.awaiting(state)):
            if seat not in r.awaiting(state):
                continue
            move = rng.choice(r.legal_moves(state, seat))
            for event in r.decide(state, seat, move, rng):
                state = r.evolve(state, event)
            moves += 1
    return moves


def measure(playouts: int, draws: int) -> dict[str, Any]:
    """Playouts a second from each mid-game state and the time of a `determinize`, in this process."""
    import games
    from games.cash_n_guns import RULESET

    found: dict[str, Any] = {"games": games.__file__}
    for seats in SEATS:
        state, _, view = mid_game(seats)
        rng = random.Random(seats)
        started = time.process_time()
        moves = sum(playout(state, rng) for _ in range(playouts))
        elapsed = time.process_time() - started
        found[f"{seats} seats"] = {"playouts_s": playouts / elapsed, "moves_s": moves / elapsed, "moves": moves}
        if RULESET.determinize is not None:
            timings = []
            for n in range(draws):
                started = time.process_time()
                RULESET.determinize(view, random.Random(n))
                timings.append(time.process_time() - started)
            found[f"{seats} seats"]["determinize_ms"] = 1000 * statistics.median(timings)
    return found


def extracted(commit: str, into: Path) -> Path:
    """The `games/` folder of `commit`, written under `into`."""
    archive = subprocess.run(["git", "archive", commit, "games"], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def in_process(path: Path, playouts: int, draws: int) -> dict[str, Any]:
    """`measure` in a fresh process whose `games` package is the one under `path`."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # for `benchmarks`: `games` is found first in `path`, the cwd
    command = [sys.executable, "-m", "benchmarks.cash_n_guns_rules", "--measure", str(playouts), str(draws)]
    run = subprocess.run(command, cwd=path, env=env, capture_output=True, check=True)
    found: dict[str, Any] = json.loads(run.stdout)
    assert Path(found["games"]).is_relative_to(path), f"measured {found['games']}, not {path}"
    return found


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--draws", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", help="a commit whose rules to measure beside these")
    parser.add_argument("--measure", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(*args.measure)))
        return
    print(f"$ .venv/bin/python -m benchmarks.cash_n_guns_rules {' '.join(argv)}".rstrip())
    with tempfile.TemporaryDirectory() as temp:
        targets = {"this tree": ROOT}
        if args.baseline:
            targets = {args.baseline: extracted(args.baseline, Path(temp)), **targets}
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in targets}
        for _ in range(args.rounds):
            for name, path in targets.items():  # one after the other, each round: the machine's load hits both alike
                runs[name].append(in_process(path, args.playouts, args.draws))
    for seats in (f"{n} seats" for n in SEATS):
        medians: dict[str, float] = {}
        for name, found in runs.items():
            moves = {run[seats]["moves"] for run in found}
            medians[name] = statistics.median(run[seats]["playouts_s"] for run in found)
            moves_s = statistics.median(run[seats]["moves_s"] for run in found)
            line = f"{seats}, {name}: {medians[name]:.1f} playouts/s ({moves_s:.0f} moves/s, {moves} moves)"
            if "determinize_ms" in found[0][seats]:
                line += f", determinize {statistics.median(run[seats]['determinize_ms'] for run in found):.3f} ms"
            print(line)
        if args.baseline:
            print(f"{seats}: {medians['this tree'] / medians[args.baseline]:.2f}x the playouts/s of {args.baseline}")


if __name__ == "__main__":
    main(sys.argv[1:])
