"""Every benchmark, one after the other: `make bench` (`python -m benchmarks`). Each part prints the command
that reproduces it and the machine it ran on; each starts its own redis-server (and gunicorn) on free ports.

    .venv/bin/python -m benchmarks                 # everything (a few minutes)
    .venv/bin/python -m benchmarks http long_game  # some parts, by name

Parts: usecases, roundtrips, http (the side-by-side load test), long_game, storage, profile, sse, players,
cluster (one API process against two on a Redis Cluster). Durations and sizes come from each part's flags'
defaults, or from the environment: BENCH_HTTP_DURATION (s per round), BENCH_HTTP_CLIENTS, BENCH_HTTP_ROUNDS,
BENCH_LONG_GAMES, BENCH_STORAGE_SCALE, BENCH_USECASE_GAMES, BENCH_PLAYER_GAMES, and BENCH_INPROCESS (usecases
or wsgi: how in-process parts reach the service).
BENCHMARKS.md says what each measures.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from benchmarks import cluster_load, http_load, long_game, players, profile_move, roundtrips, sse, storage, usecases

PARTS: dict[str, Callable[[], object]] = {
    "usecases": lambda: usecases.main([]),
    "roundtrips": lambda: roundtrips.main([]),
    "http": lambda: http_load.main([]),
    "long_game": lambda: long_game.main([]),
    "storage": lambda: storage.main([]),
    "profile": lambda: profile_move.main([]),
    "sse": lambda: sse.main(),
    "players": lambda: players.main([]),
    "cluster": lambda: cluster_load.main([]),
}


def main(names: list[str]) -> None:
    unknown = [n for n in names if n not in PARTS]
    if unknown:
        raise SystemExit(f"unknown part {unknown[0]!r}: choose from {', '.join(PARTS)}")
    started = time.monotonic()
    for name in names or list(PARTS):
        if name == "sse":
            print("== Live feeds and gunicorn's worker class (SSE streams open while a game is played over HTTP)")
            print("$ .venv/bin/python -m benchmarks.sse")
        part_started = time.monotonic()
        PARTS[name]()
        print(f"-- {name}: {time.monotonic() - part_started:.0f} s\n", flush=True)
    print(f"all parts: {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
