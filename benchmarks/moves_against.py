"""A move's cost in process, this checkout against another: the whole request path (the WSGI app, rate limiter
included) on one Redis, rounds alternating, wall and CPU time per move.

Each round plays `--games` 3-seat 12 Gangsters games (every seat plays gangster r in round r, always legal) through
`benchmarks.inprocess`'s `wsgi` backend, in a process of the checkout's own interpreter (its `.venv`), and times
only the move requests. A change to the move path, measured against the commit before it:

    git worktree add /tmp/before <commit> && make -C /tmp/before install
    .venv/bin/python -m benchmarks.moves_against /tmp/before --rounds 5
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import redis

from benchmarks.common import machine, median, own_redis, say_command

SEATS, ROUNDS = 3, 12


def play(url: str, games: int) -> None:
    """One round in this process: print wall ms, CPU ms per move, and the moves timed."""
    os.environ["SYNDICATE_GAMES_PER_ADDRESS"] = str(games + 20)
    from benchmarks.inprocess import service

    inproc = service(url, "wsgi")
    wall = cpu = 0.0
    moves = 0
    for _ in range(games):
        created = inproc.create("twelve-gangsters", [{"name": f"P{i}"} for i in range(SEATS)], {"first_boss": 0})
        for card in range(1, ROUNDS + 1):
            for seat in range(SEATS):
                started, used = time.perf_counter(), time.process_time()
                inproc.move(created.game_id, created.tokens[seat], {"type": "play", "card": card})
                wall += time.perf_counter() - started
                cpu += time.process_time() - used
                moves += 1
    print(f"{1000 * wall / moves:.4f} {1000 * cpu / moves:.4f} {moves}")


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.moves_against", description=__doc__.split("\n")[0])
    parser.add_argument("against", type=Path, help="another checkout, with its own .venv")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=6, help="games per round")
    parser.add_argument("--play", help=argparse.SUPPRESS)  # a round, in a checkout's own interpreter
    args = parser.parse_args(argv)
    if args.play:
        play(args.play, args.games)
        return {}
    say_command("benchmarks.moves_against", [str(args.against), "--rounds", str(args.rounds)])
    trees = {"this": Path.cwd(), "against": args.against.resolve()}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
    with own_redis("always") as server:
        print(machine(redis.Redis.from_url(server.url)))
        for _ in range(args.rounds):
            for name, tree in trees.items():
                # This module's own text, run in the checkout (its code, its interpreter): the other one may not
                # have this module.
                command = [str(tree / ".venv/bin/python"), "-c", Path(__file__).read_text(), str(tree)]
                done = subprocess.run(
                    [*command, "--play", server.url, "--games", str(args.games)],
                    cwd=tree,
                    check=True,
                    capture_output=True,
                    text=True,
                    timeout=600,
                )
                wall, cpu, _ = done.stdout.split()[-3:]
                times[name].append((float(wall), float(cpu)))
    found = {
        f"{name} {kind}": median([t[i] for t in ts])
        for name, ts in times.items()
        for i, kind in enumerate(("wall", "cpu"))
    }
    print(
        f"ms per move, median of {args.rounds} rounds: wall {found['this wall']:.2f}"
        f" against {found['against wall']:.2f}"
        f" (x{found['this wall'] / found['against wall']:.2f}), CPU {found['this cpu']:.2f} against"
        f" {found['against cpu']:.2f} (x{found['this cpu'] / found['against cpu']:.2f}); load average"
        f" {os.getloadavg()[0]:.2f}"
    )
    return found


if __name__ == "__main__":
    main(sys.argv[1:])
