"""How fast Mobsters' pure rules play out a game, as a search that draws states and plays them to the end needs.

From a typical early-to-middle state (a game of smart bots at its first decision once every seat has had three
turns: about a third of the deck drawn), random playouts to the game's end: each awaited seat (the lowest first)
makes a move drawn uniformly from its legal moves, decided and folded event by event with the ruleset's own
`decide` and `evolve`. Playout i draws with `random.Random(i)`, so two versions of the rules that behave alike play
the very same playouts, event for event (the run checks they do). Measured: playouts/s, events/s, and one
`determinize` call (from the seat's view at that state; the median of 300), all in the process's CPU time, which
other work on a shared machine disturbs less than the wall clock.

With `--against REV` the rules of that commit (its `games/`, extracted to a temporary folder) are measured in the
same run, rounds alternating between the two so both meet the same moments of a shared machine; the ratios are
this tree's speed over theirs.

    .venv/bin/python -m benchmarks.mobsters_playouts --playouts 100 --rounds 3 --against HEAD~1
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

SEATS = (2, 4)
ROOT = Path(__file__).resolve().parent.parent


def measure(seats: int, playouts: int, seed: int) -> dict[str, Any]:
    """One tree's numbers for a game of `seats` (run in a process whose `games` is that tree's)."""
    from games import table as tables
    from games.mobsters import RULESET
    from games.selfplay import play_out

    found: list[tuple[Any, int]] = []

    def watch(table: Any, seat: int, _: Any) -> None:
        if not found and table.rules.turn > 3 * seats:
            found.append((table, seat))

    play_out(RULESET, ["smart"] * seats, seed, watch=watch)
    table, seat = found[0]
    start = table.rules
    events = []
    began = time.process_time()
    for i in range(playouts):
        rng = random.Random(i)
        state, count = start, 0
        while not RULESET.is_over(state):
            mover = min(RULESET.awaiting(state))
            move = rng.choice(RULESET.legal_moves(state, mover))
            for event in RULESET.decide(state, mover, move, rng):
                state = RULESET.evolve(state, event)
                count += 1
        events.append(count)
    elapsed = time.process_time() - began
    determinize_ms = None
    determinize = getattr(RULESET, "determinize", None)  # an older tree's ruleset may have none
    if determinize is not None:
        view = tables.plain_view(RULESET, table, seat)
        times = []
        for i in range(300):
            rng = random.Random(i)
            t = time.process_time()
            determinize(view, rng)
            times.append(time.process_time() - t)
        determinize_ms = statistics.median(times) * 1000
    return {
        "seats": seats,
        "deck": len(start.deck),
        "turn": start.turn,
        "playouts_s": playouts / elapsed,
        "events_s": sum(events) / elapsed,
        "events": events,
        "determinize_ms": determinize_ms,
    }


def run(tree: Path, seats: int, playouts: int, seed: int) -> dict[str, Any]:
    """`measure` in a fresh process that imports `games` from `tree`."""
    args = [sys.executable, __file__, "--child", str(seats), str(playouts), str(seed)]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(args, env=env, cwd=tree, capture_output=True, text=True, check=True).stdout
    found: dict[str, Any] = json.loads(out)
    return found


def extracted(rev: str, into: Path) -> Path:
    """The `games/` package of a commit, extracted under `into`."""
    archive = subprocess.run(["git", "archive", rev, "games"], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def main(argv: list[str] | None = None) -> dict[str, Any]:
    from benchmarks.common import machine, say_command

    parser = argparse.ArgumentParser(prog="python -m benchmarks.mobsters_playouts", description=__doc__.split("\n")[0])
    parser.add_argument("--playouts", type=int, default=100, help="random playouts per measure")
    parser.add_argument("--rounds", type=int, default=3, help="measures of each tree, alternating")
    parser.add_argument("--seed", type=int, default=1, help="the smart bots' game the start state is taken from")
    parser.add_argument("--against", default=None, help="a commit whose rules are measured beside this tree's")
    args = parser.parse_args(argv)
    print("== Mobsters' pure rules: random playouts to the end, and determinize", flush=True)
    command = ["--playouts", str(args.playouts), "--rounds", str(args.rounds), "--seed", str(args.seed)]
    say_command("benchmarks.mobsters_playouts", command + (["--against", args.against] if args.against else []))
    print(machine())
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="mobsters-rules-") as folder:
        trees = {"this tree": ROOT}
        if args.against:
            trees = {args.against: extracted(args.against, Path(folder)), **trees}
        for seats in SEATS:
            runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
            for _ in range(args.rounds):
                for name, tree in trees.items():
                    runs[name].append(run(tree, seats, args.playouts, args.seed))
            first = runs["this tree"][0]
            print(f"-- {seats} seats, from turn {first['turn']} ({first['deck']} cards in the deck), "
                  f"{args.playouts} playouts x {args.rounds} rounds, "
                  f"{statistics.mean(first['events']):.0f} events a playout")  # fmt: skip
            medians: dict[str, dict[str, float]] = {}
            for name, measures in runs.items():
                medians[name] = {key: statistics.median(m[key] for m in measures) for key in ("playouts_s", "events_s")}
                det = first["determinize_ms"] if name == "this tree" else None
                print(
                    f"   {name:>12}: {medians[name]['playouts_s']:7.1f} playouts/s  "
                    f"{medians[name]['events_s']:9.0f} events/s"
                    + (f"  determinize {det:.3f} ms" if det is not None else "")
                )
            if args.against:
                same = all(m["events"] == first["events"] for measures in runs.values() for m in measures)
                speedup = medians["this tree"]["playouts_s"] / medians[args.against]["playouts_s"]
                print(f"   this tree / {args.against}: x{speedup:.2f}; the same playouts, event for event: {same}")
                assert same, "the two trees' rules played the same playouts differently"
            report[str(seats)] = medians
    return report


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        seats, playouts, seed = (int(a) for a in sys.argv[2:5])
        print(json.dumps(measure(seats, playouts, seed)))
    else:
        main()
