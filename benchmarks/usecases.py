"""The move path in process, without HTTP: moves per second through the use cases over real Redis (one
client, `appendfsync always` and `everysec`), and loading a game from its snapshot against replaying its log.

Games are played by random legal moves through `benchmarks.inprocess` (the use cases by default); only the
moves are timed (a seat's view, fetched when the mover changes, is not).

    .venv/bin/python -m benchmarks.usecases
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import redis

from benchmarks.common import env_int, machine, own_redis, ratio, say_command
from benchmarks.inprocess import Service, service
from benchmarks.play import play, stalling_move


def timed_moves(inproc: Service, ruleset: str, seats: int, games: int, rng: random.Random) -> tuple[int, float]:
    """Moves made and seconds spent making them, over `games` whole games."""
    spent = [0.0, 0]

    def record(_version: int, seconds: float, _body: Any, _answer: Any) -> None:
        spent[0] += seconds
        spent[1] += 1

    for _ in range(games):
        play(inproc, ruleset, seats, rng, on_move=record)
    return int(spent[1]), spent[0]


def median_time(action: Callable[[], Any], runs: int = 50) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.usecases", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=env_int("BENCH_USECASE_GAMES", 20), help="games per figure")
    args = parser.parse_args(argv)
    print("== The move path in process (no HTTP), one client, over real Redis", flush=True)
    say_command("benchmarks.usecases", ["--games", str(args.games)])
    report: dict[str, Any] = {}
    rng = random.Random(1)
    for fsync in ("always", "everysec"):
        with own_redis(fsync) as server:
            inproc = service(server.url)
            if fsync == "always":
                print(machine(redis.Redis.from_url(server.url)))
                print(f"through: {inproc.name}; random legal moves; only the moves timed")
            for ruleset, seats in (("twelve-gangsters", 3), ("twelve-gangsters", 6)):
                moves, seconds = timed_moves(inproc, ruleset, seats, args.games, rng)
                report[f"{fsync}/{ruleset}/{seats}"] = 1000 * seconds / moves
                print(
                    f"appendfsync {fsync:<8} {ruleset} {seats} seats: {moves / seconds:,.0f} moves/s "
                    f"({1000 * seconds / moves:.2f} ms/move over {moves} moves: load, decide, append, project)",
                    flush=True,
                )
            if fsync == "always" and hasattr(inproc, "load_snapshot"):
                bench_load(inproc, rng, report)
    return report


def bench_load(inproc: Any, rng: random.Random, report: dict[str, Any]) -> None:
    cases: tuple[tuple[str, str, int, dict[str, Any]], ...] = (
        ("a finished 6-seat 12 Gangsters game", "twelve-gangsters", 6, {}),
        (
            "a finished long Mobsters game (2 seats, attendance, stalling policy)",
            "mobsters",
            2,
            {"policy": stalling_move, "options": {"attendance": True}},
        ),
    )
    for label, ruleset, seats, how in cases:
        played = play(inproc, ruleset, seats, rng, **how)
        snapshot_s = median_time(lambda: inproc.load_snapshot(played.game_id))  # noqa: B023
        replay_s = median_time(lambda: inproc.replay_log(played.game_id), runs=10 if played.version > 200 else 50)  # noqa: B023
        report[f"load/{ruleset}"] = {
            "events": played.version,
            "snapshot_ms": snapshot_s * 1e3,
            "replay_ms": replay_s * 1e3,
        }
        print(
            f"load {label}, {played.version} events: from its snapshot {1e3 * snapshot_s:.2f} ms, replaying the "
            f"whole log {1e3 * replay_s:.2f} ms (median; replay/snapshot {ratio(replay_s, snapshot_s)})",
            flush=True,
        )


if __name__ == "__main__":
    main()
