"""What a move costs as a game's log grows: moves at version ~10 against moves deep into a long game.

The longest game the service hosts is Mobsters, and it ends when the deck runs out, so no game of it reaches
1,000 events: 2 seats with the optional attendance rule (die rolls each turn), playing by a stalling policy
(anything but ending a phase or buying a card while there is anything else) gets the longest logs, ~800 to
~900 events. So: play `--games` such games to their end over HTTP, one client, one move at a time, and time
every move (a seat's view, when the mover changes, is fetched untimed); play `--short-games` more to
version 40. "Short" is every move made at a version below `--short-below`; "long" is each long game's moves
in its last `--tail` versions. Both are the same ruleset and policy, on the same server, in the same run.

This is the real path a move takes: HTTP, the rate limiter, the load (snapshot plus any tail), the rules,
the append and the projections of every view.

    .venv/bin/python -m benchmarks.long_game --games 3 --short-games 10
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
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
from benchmarks.play import HttpService, play, stalling_move

RULESET, SEATS, OPTIONS = "mobsters", 2, {"attendance": True}
BANDS = ((1, 50), (51, 200), (201, 400), (401, 600), (601, 800), (801, 10**9))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.long_game", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=env_int("BENCH_LONG_GAMES", 3), help="long games")
    parser.add_argument("--short-games", type=int, default=env_int("BENCH_SHORT_GAMES", 10))
    parser.add_argument("--short-below", type=int, default=40, help="a short-game move is made below this version")
    parser.add_argument("--tail", type=int, default=150, help="a long-game move is in its game's last N versions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("== Cost per move: a short game (version ~10) against a long one (the longest Mobsters logs)", flush=True)
    say_command("benchmarks.long_game", ["--games", str(args.games), "--short-games", str(args.short_games)])
    rng = random.Random(args.seed)
    samples: list[tuple[int, float, str, int, int]] = []  # version, seconds, move type, answer bytes, game
    lengths: list[tuple[int, int]] = []
    with own_redis("always") as server:
        print(machine(redis.Redis.from_url(server.url)))
        print(
            f"Redis appendfsync always; gunicorn 2 gevent workers (service.cli.gunicorn_args), one HTTP client; "
            f"{RULESET}, {SEATS} seats, options {OPTIONS}, stalling policy",
            flush=True,
        )
        with Gunicorn(service_config(server.url, free_port())) as gunicorn:
            http = HttpService("127.0.0.1", gunicorn.config.port)
            for number in range(args.games + args.short_games):
                long = number < args.games

                def record(version: int, seconds: float, body: dict[str, Any], answer: dict[str, Any]) -> None:
                    size = len(json.dumps(answer))
                    samples.append((version, seconds, body["type"], size, number))  # noqa: B023

                stop_at = None if long else args.short_below
                played = play(http, RULESET, SEATS, rng, stalling_move, OPTIONS, on_move=record, stop_at=stop_at)
                if long:
                    lengths.append((played.version, played.moves))
    print("long games: " + ", ".join(f"{v} events ({m} moves)" for v, m in lengths))
    print(f"{'versions':<10} {'moves':>6} {'p50 ms':>7} {'p90 ms':>7} {'answer KiB':>11}")
    for low, high in BANDS:
        band = [s for s in samples if low <= s[0] <= high]
        if band:
            times = [1000 * s[1] for s in band]
            label = f"{low}-{high}" if high < 10**9 else f"{low}+"
            size = median([s[3] / 1024 for s in band])
            print(f"{label:<10} {len(band):>6} {median(times):>7.2f} {percentile(times, 90):>7.2f} {size:>11.1f}")
    short = [s for s in samples if s[0] < args.short_below]
    ends = {game: length for game, (length, _) in enumerate(lengths)}
    long_moves = [s for s in samples if s[4] in ends and s[0] > ends[s[4]] - args.tail]
    report = summary("every move", short, long_moves)
    by_type: dict[str, list[Any]] = defaultdict(list)
    for s in long_moves:
        by_type[s[2]].append(s)
    summary("end_phase only", [s for s in short if s[2] == "end_phase"], by_type["end_phase"])
    print(
        f"short: versions 1-{args.short_below - 1} of {args.games + args.short_games} games; long: the last "
        f"{args.tail} versions of each long game (versions {min((s[0] for s in long_moves), default=0)}-"
        f"{max((s[0] for s in long_moves), default=0)}). A move's time is its HTTP round trip."
    )
    return report


def summary(what: str, short: list[Any], long: list[Any]) -> dict[str, Any]:
    s, ln = median([1000 * x[1] for x in short]), median([1000 * x[1] for x in long])
    print(
        f"{what}: short {s:.2f} ms (median of {len(short)}), long {ln:.2f} ms (median of {len(long)}); "
        f"long/short {ratio(ln, s)}"
    )
    return {"short_ms": s, "long_ms": ln, "short_n": len(short), "long_n": len(long)}


if __name__ == "__main__":
    main()
