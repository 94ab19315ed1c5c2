"""Storage: Redis memory per finished game of each ruleset, and how fast the read models rebuild.

Games are played in process (`benchmarks.inprocess`, the use cases by default) by random legal moves, every
seat a named player, and tallied as the worker would. Memory: `used_memory` before and after each batch of
games, over the batch (RQ's job records, which expire, are deleted first when a backend leaves any), and
`MEMORY USAGE <key> SAMPLES 0` of each key that names a game, by kind (the key's part after the game's hash
tag; the lobby entry is `lobby`). MEMORY USAGE is Redis's own estimate per key and may add up to more than
`used_memory` grew; that growth also covers the shared structures (the lobby's indexes, the leaderboard).
Then the whole corpus is the projections' input: `syndicate projections rebuild` (in process: drop every
read model, replay every stream, project every game), timed `--rebuilds` times, in events/s.

Redis runs with `appendfsync everysec` while the corpus is played (memory does not depend on it, and playing
is not what is measured here), then `always`, the service's default, for the rebuilds.

    .venv/bin/python -m benchmarks.storage --scale 1
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import redis

from benchmarks.common import env_float, machine, median, own_redis, say_command
from benchmarks.inprocess import service
from benchmarks.play import play
from benchmarks.profile_move import PROJECT, cumulative
from events import keys
from events.store import RedisEventStore

BATCHES = (
    # ruleset, seats, games at scale 1
    ("twelve-gangsters", 3, 120),
    ("cash-n-guns", 4, 30),
    ("mobsters", 2, 5),
    ("mobsters", 3, 5),
    ("mobsters", 4, 5),
)


def key_kind(key: str, game_id: str) -> str:
    """What a key of one game holds, from its name: `…:{<id>}:events` is `events`, the lobby entry `lobby`."""
    tag = "{" + game_id + "}:"
    if tag in key:
        return key.split(tag, 1)[1].split(":", 1)[0]
    if "lobby" in key:
        return "lobby"
    return key.replace(game_id, "<id>")


def game_keys(client: redis.Redis, game_id: str) -> dict[str, int]:
    """Bytes by kind of every key naming the game."""
    sizes: dict[str, int] = defaultdict(int)
    for key in client.scan_iter(match=f"*{game_id}*", count=1000):
        sizes[key_kind(key.decode(), game_id)] += client.memory_usage(key, samples=0) or 0
    return sizes


def drop_job_records(client: redis.Redis) -> int:
    """RQ's bookkeeping (job hashes, registries), which expires on its own: not a game's cost."""
    batch = list(client.scan_iter(match="rq:*", count=1000))
    return client.delete(*batch) if batch else 0


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.storage", description=__doc__.split("\n")[0])
    parser.add_argument("--scale", type=float, default=env_float("BENCH_STORAGE_SCALE", 1), help="games x scale")
    parser.add_argument("--rebuilds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--against", type=Path, help="another checkout (with its .venv): its rebuild of the corpus, rounds alternating"
    )
    args = parser.parse_args(argv)
    print("== Storage: Redis memory per finished game, and projection rebuild speed", flush=True)
    say_command(
        "benchmarks.storage",
        ["--scale", f"{args.scale:g}", *(["--against", str(args.against)] if args.against else [])],
    )
    rng = random.Random(args.seed)
    report: dict[str, Any] = {"memory": {}}
    with own_redis("everysec") as server:
        client = redis.Redis.from_url(server.url)
        inproc = service(server.url)
        print(machine(client))
        print(f"in process through: {inproc.name}; random legal moves, every seat a named player; tallied")
        print(
            f"{'ruleset':<17} {'seats':>5} {'games':>5} {'events':>7} {'KiB/game':>9}   by key (KiB/game, MEMORY USAGE)"
        )
        versions: dict[str, int] = {}
        for ruleset, seats, games in BATCHES:
            count = max(1, round(games * args.scale))
            drop_job_records(client)
            before = int(client.info("memory")["used_memory"])
            played = [play(inproc, ruleset, seats, rng) for _ in range(count)]
            inproc.tally([p.game_id for p in played])
            drop_job_records(client)
            after = int(client.info("memory")["used_memory"])
            kinds: dict[str, int] = defaultdict(int)
            for p in played:
                versions[p.game_id] = inproc.look(p.game_id)["version"]
                for kind, size in game_keys(client, p.game_id).items():
                    kinds[kind] += size
            per_game = (after - before) / count / 1024
            keyed = sum(kinds.values()) / count / 1024
            shown = ", ".join(f"{k} {v / count / 1024:.1f}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]))
            events = median([versions[p.game_id] for p in played])
            print(
                f"{ruleset:<17} {seats:>5} {count:>5} {events:>7.0f} {per_game:>9.1f}   {shown} (sum {keyed:.1f})",
                flush=True,
            )
            report["memory"][f"{ruleset}/{seats}"] = {"kib_per_game": per_game, "events": events}
        print(
            "KiB/game: used_memory after the batch less before, over its games (Redis's allocator is libc malloc "
            "here: see the machine line); by key: MEMORY USAGE, Redis's estimate, which can exceed the growth; "
            "events: the median game's length, tally included"
        )
        client.config_set("appendfsync", "always")
        total_events, total_games = sum(versions.values()), len(versions)
        print(
            f"rebuild: {total_games} finished games, {total_events} events; Redis now appendfsync always",
            flush=True,
        )
        times = []
        for _ in range(args.rebuilds):
            started = time.perf_counter()
            rebuilt = inproc.rebuild()
            times.append(time.perf_counter() - started)
            if rebuilt != total_games:
                print(f"rebuild reported {rebuilt} games, not {total_games}")
        best = median(times)
        print(
            f"projections rebuild ({inproc.rebuild_via}): {total_events / best:,.0f} events/s, "
            f"{total_games / best:,.0f} games/s (median of {args.rebuilds}: {best:.2f} s; runs "
            + ", ".join(f"{t:.2f}" for t in times)
            + ")"
        )
        if args.against:
            report["against"] = rebuild_against(args.against, server.url, total_events, args.rebuilds)
        profile_rebuild(inproc.rebuild, total_events)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "service.ops.cli", "projections", "rebuild"],
            env={**os.environ, "REDIS_URL": server.url},
            check=True,
            capture_output=True,
            timeout=600,
        )
        cli = time.perf_counter() - started
        print(
            f"$ REDIS_URL=... syndicate projections rebuild: {cli:.2f} s wall, {total_events / cli:,.0f} events/s "
            "(interpreter start and imports included)"
        )
        report["rebuild"] = {"events": total_events, "games": total_games, "seconds": best, "cli_seconds": cli}
    return report


WRITE_LOGS = (
    "import sys, msgspec, redis\n"
    "from events.envelope import decode\n"
    "from events.store import Commit, RedisEventStore\n"
    "store = RedisEventStore(redis.Redis.from_url(sys.argv[1]))\n"
    "for line in open(sys.argv[2], 'rb'):\n"
    "    game_id, ruleset, envelopes = msgspec.json.decode(line)\n"
    "    logged = [decode(msgspec.json.encode(e)) for e in envelopes]\n"
    "    store.commit(Commit(game_id, ruleset, logged, 0, b'', 0))\n"
)
"""The games' logs committed by a checkout's own store: each event kept as that code keeps it."""

TIMED_REBUILD = (
    "import sys, time, redis\n"
    "from service.application.rebuild import rebuild_read_models\n"
    "from service.bootstrap import bootstrap\n"
    "services = bootstrap(client=redis.Redis.from_url(sys.argv[1]))\n"
    "started = time.perf_counter()\n"
    "rebuild_read_models(services)\n"
    "print(time.perf_counter() - started)\n"
)
"""A rebuild timed in process as the in-process figure is, in a checkout's own interpreter (imports left out)."""


def rebuild_against(against: Path, url: str, events: int, rounds: int) -> dict[str, float]:
    """This checkout's rebuild and another's, of the same corpus, in alternate rounds: each in a Redis of its own
    (both `appendfsync always`), whose game logs the checkout's own store wrote, so that each reads its events as
    it keeps them; every other key is the same bytes (DUMP and RESTORE)."""
    trees = {"this": Path.cwd(), "against": against.resolve()}
    times: dict[str, list[float]] = {"this": [], "against": []}
    with own_redis("always") as other, tempfile.NamedTemporaryFile(suffix=".ndjson") as logs:
        copy_corpus(url, other.url, trees["against"], Path(logs.name))
        urls = {"this": url, "against": other.url}
        for _ in range(rounds):
            for name, tree in trees.items():
                done = subprocess.run(
                    [str(tree / ".venv/bin/python"), "-c", TIMED_REBUILD, urls[name]],
                    cwd=tree,
                    check=True,
                    capture_output=True,
                    text=True,
                    timeout=600,
                )
                times[name].append(float(done.stdout.split()[-1]))
    rates = {name: events / median(t) for name, t in times.items()}
    runs = {name: ", ".join(f"{t:.2f}" for t in ts) for name, ts in times.items()}
    print(
        f"rebuild, this checkout against {against} (alternating, median of {rounds}): "
        f"{rates['this']:,.0f} against {rates['against']:,.0f} events/s, x{rates['this'] / rates['against']:.2f}"
        f" (runs {runs['this']} against {runs['against']} s)",
        flush=True,
    )
    return rates


def copy_corpus(source_url: str, target_url: str, tree: Path, logs: Path) -> None:
    """Every key of one Redis into another: the game logs written by `tree`'s store, every other key as it is."""
    source, target = redis.Redis.from_url(source_url), redis.Redis.from_url(target_url)
    store = RedisEventStore(source)
    game_ids = list(store.game_ids())
    with logs.open("wb") as out:
        for game_id, log in zip(game_ids, store.read_logs(game_ids), strict=True):
            out.write(msgspec.json.encode([game_id, log[0].payload["ruleset"], log]) + b"\n")
    subprocess.run(
        [str(tree / ".venv/bin/python"), "-c", WRITE_LOGS, target_url, str(logs)],
        cwd=tree,
        check=True,
        timeout=600,
    )
    streams = {keys.events(game_id).encode() for game_id in game_ids}
    for key in source.scan_iter(count=1000):
        if key not in streams:
            target.restore(key, 0, source.dump(key), replace=True)


def profile_rebuild(rebuild: Callable[[], object], events: int) -> None:
    """One more rebuild under pyinstrument: where its time goes, by package and by the service's functions."""
    try:
        from pyinstrument import Profiler
    except ImportError:
        return
    profiler = Profiler(interval=0.001)
    profiler.start()
    rebuild()
    root = profiler.stop().root_frame()
    if root is None:
        return
    total, by_package = cumulative(root)
    wall = root.time
    print(f"a rebuild under pyinstrument ({1e6 * wall / events:.1f} us per event profiled); self time by package:")
    print("  " + ", ".join(f"{p} {100 * t / wall:.1f}%" for p, t in sorted(by_package.items(), key=lambda kv: -kv[1])))
    print("  the service's own functions by cumulative time:")
    own = [(k, t) for k, t in total.items() if k[1].split("/")[0] in PROJECT]
    for (function, where), seconds in sorted(own, key=lambda kv: -kv[1])[:12]:
        print(f"  {100 * seconds / wall:6.1f}%  {function}  {where}")


if __name__ == "__main__":
    main()
