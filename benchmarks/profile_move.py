"""Where a move's time goes: pyinstrument over many in-process moves, top functions by cumulative time.

Games (3-seat 12 Gangsters) are created first, unprofiled; then only their moves run under the profiler
(round r every seat plays gangster r). Backends of `benchmarks.inprocess`: `usecases` (the move path
alone) and `wsgi` (the whole HTTP request path in process: Flask, flask-smorest, the rate limiter).
A sampling profiler (1 ms) is coarse against a ~2 ms move, so it samples a thousand moves; time
includes waiting on Redis (fsync always, the service's default), which shows under redis-py's socket reads.

    .venv/bin/python -m benchmarks.profile_move --backend usecases --games 30
    .venv/bin/python -m benchmarks.profile_move --backend usecases --html move.html   # the whole tree

pyinstrument is pinned in the test extra (`make install` brings it).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path
from typing import Any

import redis

from benchmarks.common import machine, own_redis, say_command
from benchmarks.inprocess import BACKENDS, service

SEATS, ROUNDS = 3, 12
PROJECT = ("service", "events", "projections", "games")


def package_of(path: str) -> str | None:
    """The top-level package of a source file (`service`, `redis`, `flask`, `stdlib`...), None for a built-in."""
    if not path or path.startswith("<"):
        return None
    file = Path(path)
    if "site-packages" in file.parts:
        return file.parts[file.parts.index("site-packages") + 1].removesuffix(".py")
    if file.is_relative_to(Path.cwd()):
        return file.relative_to(Path.cwd()).parts[0].removesuffix(".py")
    return "stdlib"


def cumulative(root: Any) -> tuple[dict[tuple[str, str], float], dict[str, float]]:
    """Cumulative time by function (counted once per stack, however it recurses), and self time by package
    (a built-in's, such as a socket read, goes to the package that called it)."""
    total: dict[tuple[str, str], float] = defaultdict(float)
    by_package: dict[str, float] = defaultdict(float)

    def walk(frame: Any, active: set[tuple[str, str]], caller: str) -> None:
        key = (frame.function or "?", f"{frame.file_path_short or '?'}:{frame.line_no or 0}")
        package = package_of(frame.file_path or "") or caller
        outermost = key not in active and not frame.is_synthetic
        if outermost:
            total[key] += frame.time
            active.add(key)
        if not frame.children:  # a leaf: where the time was spent
            by_package[package] += frame.time
        for child in frame.children:
            walk(child, active, package)
        if outermost:
            active.discard(key)

    walk(root, set(), "?")
    return total, by_package


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.profile_move", description=__doc__.split("\n")[0])
    parser.add_argument("--backend", choices=sorted(BACKENDS), action="append")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--html", help="also write pyinstrument's HTML report here")
    args = parser.parse_args(argv)
    try:
        from pyinstrument import Profiler
    except ImportError:
        print("== Profile: pyinstrument is not installed (make install brings it); skipped")
        return
    for backend in args.backend or ["usecases"]:
        print(f"== Profile of a move in process ({backend}), pyinstrument", flush=True)
        say_command("benchmarks.profile_move", ["--backend", backend, "--games", str(args.games)])
        with own_redis("always") as server:
            print(machine(redis.Redis.from_url(server.url)))
            inproc = service(server.url, backend)
            games = [
                inproc.create("twelve-gangsters", [{"name": f"P{i}"} for i in range(SEATS)], {"first_boss": 0})
                for _ in range(args.games + 1)
            ]
            warm = games.pop()
            inproc.move(warm.game_id, warm.tokens[0], {"type": "play", "card": 1})
            profiler = Profiler(interval=0.001)
            profiler.start()
            for game in games:
                for card in range(1, ROUNDS + 1):
                    for seat in range(SEATS):
                        inproc.move(game.game_id, game.tokens[seat], {"type": "play", "card": card})
            session = profiler.stop()
        moves = len(games) * ROUNDS * SEATS
        root = session.root_frame()
        if root is None:
            print("no samples")
            continue
        total, own = cumulative(root)
        wall = root.time
        print(
            f"{inproc.name}: {moves} moves, {wall:.2f} s profiled ({1000 * wall / moves:.2f} ms/move under the "
            f"profiler), {session.sample_count} samples"
        )
        print(f"top {args.top} functions by cumulative time (% of all, ms per move), function and where:")
        for (function, where), seconds in sorted(total.items(), key=lambda kv: -kv[1])[: args.top]:
            print(f"  {100 * seconds / wall:5.1f}% {1000 * seconds / moves:6.3f}  {function}  {where}")
        print(f"the service's own functions ({', '.join(PROJECT)}) by cumulative time:")
        own_code = [(k, v) for k, v in total.items() if k[1].split("/")[0] in PROJECT]
        for (function, where), seconds in sorted(own_code, key=lambda kv: -kv[1])[: args.top]:
            print(f"  {100 * seconds / wall:5.1f}% {1000 * seconds / moves:6.3f}  {function}  {where}")
        print("self time by package (a built-in's goes to its caller's; % of all, ms per move):")
        print(
            "  "
            + ", ".join(
                f"{package} {100 * seconds / wall:.1f}% {1000 * seconds / moves:.3f}"
                for package, seconds in sorted(own.items(), key=lambda kv: -kv[1])
                if seconds / wall >= 0.005
            )
        )
        if args.html:
            from pyinstrument.renderers import HTMLRenderer

            path = args.html if len(args.backend or ["usecases"]) == 1 else f"{backend}-{args.html}"
            with open(path, "w") as out:
                out.write(HTMLRenderer().render(session))
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
