"""Every benchmark, one after the other: `make bench` (`python -m benchmarks`). Each part prints the command
that reproduces it and the machine it ran on; each starts its own redis-server (and gunicorn) on free ports.

    .venv/bin/python -m benchmarks                 # everything (a few minutes)
    .venv/bin/python -m benchmarks http long_game  # some parts, by name

Parts: usecases, roundtrips, http (the side-by-side load test), long_game, storage, profile, sse, players,
cluster (one API process against two on a Redis Cluster), flood (a burst of all-bot games against a person's),
bot_loop (requests per move of the guide's bot loop, with the default rate limits), bots (how strong the house
bots are: arena tables, `make bench-bots`).
Durations and sizes come from each part's flags' defaults, or from the environment: BENCH_HTTP_DURATION (s per
round), BENCH_HTTP_CLIENTS, BENCH_HTTP_ROUNDS, BENCH_LONG_GAMES, BENCH_STORAGE_SCALE, BENCH_USECASE_GAMES,
BENCH_PLAYER_GAMES, BENCH_BOT_GAMES, BENCH_BOTS_GAMES, BENCH_BOTS_JOBS, BENCH_BOTS_PIMC, and BENCH_INPROCESS
(usecases or wsgi: how in-process parts reach the service).
BENCHMARKS.md says what each measures.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

from benchmarks import (
    bot_loop,
    bots,
    cluster_load,
    flood,
    http_load,
    long_game,
    players,
    profile_move,
    roundtrips,
    sse,
    storage,
    usecases,
)

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
    "flood": lambda: flood.main([]),
    "bot_loop": lambda: bot_loop.main([]),
    "bots": lambda: bots.main([]),
}


def main(names: list[str]) -> None:
    unknown = [n for n in names if n not in PARTS]
    if unknown:
        raise SystemExit(f"unknown part {unknown[0]!r}: choose from {', '.join(PARTS)}")
    started = time.monotonic()
    reports: dict[str, Any] = {}
    for name in names or list(PARTS):
        if name == "sse":
            print("== Live feeds and gunicorn's worker class (SSE streams open while a game is played over HTTP)")
            print("$ .venv/bin/python -m benchmarks.sse")
        part_started = time.monotonic()
        reports[name] = PARTS[name]()
        print(f"-- {name}: {time.monotonic() - part_started:.0f} s\n", flush=True)
    for line in goals(reports):
        print(line)
    print(f"all parts: {time.monotonic() - started:.0f} s")


def goals(reports: dict[str, Any]) -> list[str]:
    """The move path's goals against what this run measured (BENCHMARKS.md says what limits those unmet)."""
    found: list[tuple[str, str, float, bool]] = []
    if isinstance(http := reports.get("http"), dict):
        b, s = http["baseline"], http["service"]
        throughput, p99 = s["rate"] / b["rate"], s["p99"] / b["p99"]
        found += [
            ("HTTP throughput, service/baseline", ">= x0.6", throughput, throughput >= 0.6),
            ("HTTP p99, service/baseline", "<= x2", p99, p99 <= 2),
        ]
    if isinstance(long := reports.get("long_game"), dict):
        growth = long["long_ms"] / long["short_ms"]
        found.append(("a move at version ~1,000 against ~10", "<= x1.2", growth, growth <= 1.2))
    if isinstance(moved := reports.get("players"), dict):
        ratio = moved["player tokens"] / moved["seat tokens"]
        found.append(("a player's move against a seat's", "<= x1.2", ratio, ratio <= 1.2))
    if isinstance(storage := reports.get("storage"), dict):
        rebuild = storage["rebuild"]
        rate = rebuild["events"] / rebuild["seconds"]
        found.append(("projection rebuild, events/s", ">= 50,000", rate, rate >= 50_000))
        memory = storage["memory"].get("twelve-gangsters/3")
        if memory:
            kib = memory["kib_per_game"]
            found.append(("a finished 12 Gangsters game, KiB", "<= 20", kib, kib <= 20))
    if isinstance(bots := reports.get("bot_loop"), dict) and bots:
        moves = sum(r["moves"] for r in bots.values())
        per_move = sum(r["requests"] for r in bots.values()) / moves if moves else float("inf")
        refused = sum(r["429"] for r in bots.values())
        found += [
            ("the guide's bot, requests per move", "<= 2", per_move, per_move <= 2),
            ("the guide's bot, 429s", "= 0", refused, refused == 0),
        ]
    if not found:
        return []
    lines = ["== Goals (BENCHMARKS.md says what limits those not met)"]
    for what, target, value, met in found:
        shown = f"x{value:.2f}" if target.startswith(("<= x", ">= x")) else f"{value:,.1f}"
        lines.append(f"{what:<40} {target:>10} {shown:>12}  {'met' if met else 'NOT met'}")
    return lines


if __name__ == "__main__":
    main(sys.argv[1:])
