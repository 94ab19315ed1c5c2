"""What a move costs as a game's log grows: moves at version ~10 against moves deep into a long game.

The longest game the service hosts is Mobsters, and it ends when the deck runs out, so no game of it reaches
1,000 events: 2 seats with the optional attendance rule (die rolls each turn), playing by a stalling policy
(anything but ending a phase or buying a card while there is anything else) gets the longest logs, ~800 to
~900 events. So: play `--games` such games to their end over HTTP, one client, one move at a time, and time
every move (a seat's view, when the mover changes, is fetched untimed); beside each, short games played to
version `--short-below` one after another, a move of a short game after each move of the long one, so both
meet the same moments of a shared, noisy machine. "Long" is each long game's moves in its last `--tail`
versions; "short" is the short games' moves made between those. Same ruleset, policy, server and run.

This is the real path a move takes: HTTP, the rate limiter, the load (snapshot plus any tail), the rules,
the append and the projections of every view.

    .venv/bin/python -m benchmarks.long_game --games 3
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import redis

from benchmarks.common import (
    Gunicorn,
    env_int,
    free_port,
    machine,
    median,
    own_redis,
    percentile,
    ratio,
    say_command,
    service_config,
)
from benchmarks.play import HttpService, OnMove, stalling_move, stepwise

RULESET, SEATS, OPTIONS = "mobsters", 2, {"attendance": True}
BANDS = ((1, 50), (51, 200), (201, 400), (401, 600), (601, 800), (801, 10**9))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.long_game", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=env_int("BENCH_LONG_GAMES", 3), help="long games")
    parser.add_argument("--short-below", type=int, default=40, help="a short-game move is made below this version")
    parser.add_argument("--tail", type=int, default=150, help="a long-game move is in its game's last N versions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("== Cost per move: a short game (version ~10) against a long one (the longest Mobsters logs)", flush=True)
    say_command("benchmarks.long_game", ["--games", str(args.games)])
    rng = random.Random(args.seed)
    samples: list[Sample] = []
    lengths: list[tuple[int, int]] = []
    with own_redis("always") as server:
        print(machine(redis.Redis.from_url(server.url)))
        print(
            "Redis appendfsync always; gunicorn 2 gevent workers (service.ops.gunicorn_conf.gunicorn_args), "
            f"one HTTP client; "
            f"{RULESET}, {SEATS} seats, options {OPTIONS}, stalling policy",
            flush=True,
        )
        with Gunicorn(service_config(server.url, free_port())) as gunicorn:
            http = HttpService("127.0.0.1", gunicorn.config.port)
            for number in range(args.games):
                lengths.append(play_beside(http, rng, number, args.short_below, samples))
    print("long games: " + ", ".join(f"{v} events ({m} moves)" for v, m in lengths))
    print(f"{'versions':<10} {'moves':>6} {'p50 ms':>7} {'p90 ms':>7} {'answer KiB':>11}")
    own = [s for s in samples if not s.short]
    for low, high in BANDS:
        band = [s for s in own if low <= s.version <= high]
        if band:
            times = [1000 * s.seconds for s in band]
            label = f"{low}-{high}" if high < 10**9 else f"{low}+"
            size = median([s.size / 1024 for s in band])
            print(f"{label:<10} {len(band):>6} {median(times):>7.2f} {percentile(times, 90):>7.2f} {size:>11.1f}")
    tail_from = {number: length - args.tail for number, (length, _) in enumerate(lengths)}
    long_moves = [s for s in own if s.version > tail_from[s.game]]
    short = [s for s in samples if s.short and s.beside > tail_from[s.game]]
    report = summary("every move", short, long_moves)
    summary(
        "end_phase only", [s for s in short if s.kind == "end_phase"], [s for s in long_moves if s.kind == "end_phase"]
    )
    versions = [s.version for s in long_moves] or [0]
    print(
        f"long: the last {args.tail} versions of each long game (versions {min(versions)}-{max(versions)}); "
        f"short: the moves of games below version {args.short_below} made between those. A move's time is its "
        "HTTP round trip."
    )
    return report


@dataclass(frozen=True)
class Sample:
    game: int  # the long game it was made in or beside
    short: bool
    version: int  # the version it was made at
    beside: int  # the long game's version at that moment
    seconds: float
    kind: str
    size: int  # of its answer, bytes


def play_beside(
    http: HttpService, rng: random.Random, number: int, short_below: int, samples: list[Sample]
) -> tuple[int, int]:
    """Play one long game to its end and, a move of one after a move of the other, short games to version
    `short_below` one after another beside it: both meet the same moments of a shared, noisy machine."""
    now = [0]

    def recorder(short: bool) -> OnMove:
        def record(version: int, seconds: float, body: dict[str, Any], answer: dict[str, Any]) -> None:
            samples.append(Sample(number, short, version, now[0], seconds, body["type"], len(json.dumps(answer))))
            if not short:
                now[0] = version

        return record

    long_game = stepwise(http, RULESET, SEATS, rng, stalling_move, OPTIONS, on_move=recorder(False))
    short: Iterator[None] | None = None
    while True:
        try:
            next(long_game)
        except StopIteration as done:
            return done.value.version, done.value.moves
        if short is None:
            short = stepwise(
                http, RULESET, SEATS, rng, stalling_move, OPTIONS, on_move=recorder(True), stop_at=short_below
            )
        try:
            next(short)
        except StopIteration:
            short = None


def summary(what: str, short: list[Sample], long: list[Sample]) -> dict[str, Any]:
    s, ln = median([1000 * x.seconds for x in short]), median([1000 * x.seconds for x in long])
    print(
        f"{what}: short {s:.2f} ms (median of {len(short)}), long {ln:.2f} ms (median of {len(long)}); "
        f"long/short {ratio(ln, s)}"
    )
    return {"short_ms": s, "long_ms": ln, "short_n": len(short), "long_n": len(long)}


if __name__ == "__main__":
    main()
