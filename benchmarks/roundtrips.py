"""What one move asks of Redis: round trips, commands (MONITOR), and Redis's own CPU time (commandstats).

One 3-seat 12 Gangsters game is played in process, round r every seat playing gangster r, through each
backend of `benchmarks.inprocess`: the WSGI app (`service.wsgi:app`, the whole HTTP request path: rate
limiter, parsing, use case, projections) and the use cases alone. Round trips are counted in the client
(each `send_packed_command` of redis-py is one: a pipeline is one, a script is one); commands are read from
MONITOR, a script shown with the commands it ran inside, e.g. `EVALSHA[XLEN XADD HSET]`; Redis's CPU time
per move is the sum of `INFO commandstats` usec over the game's moves. With `appendfsync always` every
event-loop turn of Redis that wrote anything ends in an fsync before it answers; if `strace` is on the PATH
and may attach, a third game counts redis-server's fdatasync calls per move (`strace -c`).

    .venv/bin/python -m benchmarks.roundtrips
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import redis
import redis.connection

from benchmarks.common import machine, median, own_redis, say_command
from benchmarks.inprocess import BACKENDS, Service, service

SEATS, ROUNDS = 3, 12
MARK = "bench-move-"


@contextmanager
def sending(each: Callable[[Any], None]) -> Iterator[None]:
    """Hand `each` every command redis-py sends from this thread while the block runs, packed as sent (a pipeline's
    together): another thread's (a feed's, a worker's left running by someone else) is not the block's doing."""
    original = redis.connection.AbstractConnection.send_packed_command
    mine = threading.get_ident()

    def send(self: Any, command: Any, check_health: bool = True) -> None:
        if threading.get_ident() == mine:
            each(command)
        original(self, command, check_health)

    redis.connection.AbstractConnection.send_packed_command = send  # type: ignore[method-assign]
    try:
        yield
    finally:
        redis.connection.AbstractConnection.send_packed_command = original  # type: ignore[method-assign]


@contextmanager
def counting() -> Iterator[list[int]]:
    """Count redis-py's round trips while the block runs: `counter[0]`."""
    counter = [0]

    def count(_: Any) -> None:
        counter[0] += 1

    with sending(count):
        yield counter


class Monitor:
    """MONITOR in a thread, split at ECHO markers sent between moves."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url)
        self.marker = redis.Redis.from_url(url)
        self.lines: list[tuple[str, str]] = []  # (client type, command and first argument)
        self.ready = threading.Event()
        self.scripts: dict[str, str] = {}  # sha -> EVALSHA[what it ran]
        self.last_sha = ""
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with self.client.monitor() as monitor:
            self.ready.set()
            for item in monitor.listen():
                command = item["command"]
                self.lines.append((item.get("client_type", ""), command))
                if command == f"ECHO {MARK}end":
                    return

    def __enter__(self) -> Monitor:
        self.thread.start()
        self.ready.wait(5)
        self.marker.echo(f"{MARK}start")
        return self

    def mark(self, number: int) -> None:
        self.marker.echo(f"{MARK}{number}")

    def __exit__(self, *_: object) -> None:
        self.marker.echo(f"{MARK}end")
        self.thread.join(timeout=10)

    def moves(self) -> list[list[str]]:
        """Each move's commands, scripts with what they ran inside."""
        moves: list[list[str]] = []
        current: list[str] | None = None
        for kind, command in self.lines:
            if command.startswith(f"ECHO {MARK}"):
                if current is not None:
                    moves.append(current)
                current = None if command.endswith(("start", "end")) else []
                continue
            if current is None:
                continue
            name = command.split(" ", 1)[0].upper()
            if kind != "lua" and name == "EVALSHA":
                self.last_sha = command.split(" ", 2)[1]
            if kind == "lua":
                if current and current[-1].startswith(("EVALSHA", "EVAL")):
                    head, _, inner = current[-1].partition("[")
                    inside = inner.rstrip("]").split() if inner else []
                    if name not in inside:
                        inside.append(name)
                    current[-1] = f"{head}[{' '.join(inside)}]"
                    self.scripts[self.last_sha] = current[-1]
            else:
                current.append(name)
        return moves


def play_one(inproc: Service, each: Callable[[int], Any]) -> list[int]:
    """Play a 3-seat 12 Gangsters game (its first move untimed: scripts loaded, pools warm); each move's
    round trips. `each(n)` runs before move n."""
    created = inproc.create("twelve-gangsters", [{"name": f"P{i}"} for i in range(SEATS)], {"first_boss": 0})
    inproc.move(created.game_id, created.tokens[0], {"type": "play", "card": 1})
    trips: list[int] = []
    for card in range(1, ROUNDS + 1):
        for seat in range(SEATS):
            if card == 1 and seat == 0:
                continue
            each(len(trips))
            with counting() as counter:
                inproc.move(created.game_id, created.tokens[seat], {"type": "play", "card": card})
            trips.append(counter[0])
    return trips


def count_fsyncs(pid: int, action: Callable[[], list[int]]) -> tuple[int, int] | None:
    """(fdatasync and fsync calls of redis-server, moves) while `action` plays; None without strace."""
    if shutil.which("strace") is None:
        return None
    with tempfile.NamedTemporaryFile("r", suffix=".strace") as out:
        tracer = subprocess.Popen(
            ["strace", "-f", "-c", "-e", "trace=fdatasync,fsync", "-o", out.name, "-p", str(pid)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1.0)  # attached to every thread
        if tracer.poll() is not None:
            return None  # not allowed to attach
        moves = len(action())
        time.sleep(0.2)
        tracer.terminate()
        tracer.wait(timeout=10)
        calls = 0
        for line in out.read().splitlines():
            words = line.split()
            if words and words[-1] in ("fdatasync", "fsync"):
                calls += int(words[3])  # % time, seconds, usecs/call, calls, [errors,] syscall
        return calls, moves


def measure(url: str, backend: str, redis_pid: int | None = None) -> dict[str, Any]:
    """Two games: the first under MONITOR (which commands), the second without it (how long each took:
    MONITOR formats every argument of every command for its listener and would slow the scripts tenfold)."""
    inproc = service(url, backend)
    client = redis.Redis.from_url(url)
    with Monitor(url) as monitor:
        trips = play_one(inproc, monitor.mark)
    moves = monitor.moves()
    client.config_set("slowlog-log-slower-than", 0)
    client.config_set("slowlog-max-len", 100000)

    def reset(number: int) -> None:
        if number == 0:  # the game created and its first move made: count from here
            client.config_resetstat()
            client.slowlog_reset()

    timed = play_one(inproc, reset)
    stats = client.info("commandstats")
    slow = client.slowlog_get(100000)
    client.config_set("slowlog-log-slower-than", 10000)
    durations: dict[str, list[int]] = {}
    for entry in slow:
        command = entry["command"]
        words = (command.decode(errors="replace") if isinstance(command, bytes) else command).split()
        name = words[0].upper()
        if name in ("ECHO", "MONITOR", "CONFIG", "SLOWLOG", "INFO"):
            continue
        if name == "EVALSHA":
            name = monitor.scripts.get(words[1], "EVALSHA[?]")
        elif name == "SCRIPT":
            name = f"SCRIPT {words[1].upper()}"
        elif entry["client_address"] in (b"?:0", "?:0"):
            continue  # run inside a script: counted in the script's time
        durations.setdefault(name, []).append(int(entry["duration"]))
    trips = trips + timed
    fsyncs = count_fsyncs(redis_pid, lambda: play_one(inproc, lambda _: None)) if redis_pid else None
    skip = ("cmdstat_echo", "cmdstat_monitor", "cmdstat_config", "cmdstat_slowlog", "cmdstat_info")
    usec = sum(v["usec"] for k, v in stats.items() if k not in skip)
    per_move = len(timed)
    evalsha = stats.get("cmdstat_evalsha", {}).get("usec", 0)
    patterns = Counter(" > ".join(m) for m in moves)
    return {
        "backend": inproc.name,
        "moves": len(trips),
        "trips": trips,
        "commands": [len(m) for m in moves],
        "patterns": patterns,
        "timed_moves": per_move,
        "redis_usec_per_move": usec / per_move,
        "evalsha_usec_per_move": evalsha / per_move,
        "stats": {k.removeprefix("cmdstat_"): v for k, v in stats.items()},
        "durations": durations,
        "fsyncs": fsyncs,
    }


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.roundtrips", description=__doc__.split("\n")[0])
    parser.add_argument("--backend", choices=sorted(BACKENDS), action="append")
    args = parser.parse_args(argv)
    print("== Redis round trips and commands per move (MONITOR), Redis CPU per move (commandstats)", flush=True)
    say_command("benchmarks.roundtrips")
    reports = []
    with own_redis(os.environ.get("BENCH_FSYNC", "always")) as server:
        print(machine(redis.Redis.from_url(server.url)))
        for backend in args.backend or ["wsgi", "usecases"]:
            report = measure(server.url, backend, server.process.pid if server.process else None)
            reports.append(report)
            trips, n = report["trips"], report["timed_moves"]
            print(
                f"{report['backend']}: two 3-seat 12 Gangsters games, {n} moves each; round trips per move "
                f"median {median(trips):.0f} (min {min(trips)}, max {max(trips)}); top-level commands per move "
                f"median {median(report['commands']):.0f}; Redis CPU {report['redis_usec_per_move']:.0f} us per "
                f"move (commandstats), of which scripts (EVALSHA) {report['evalsha_usec_per_move']:.0f} us"
            )
            if report["fsyncs"] is not None:
                calls, played = report["fsyncs"]
                fsync = server.fsync
                what = f"strace -c over a game, its create included; appendfsync {fsync}"
                print(f"  redis-server fsyncs per move ({what}): {calls / played:.1f}")
            print("  the commands of each move, in order (MONITOR; a script shows the commands it ran):")
            for pattern, count in report["patterns"].most_common():
                print(f"  {count:>4} moves: {pattern}")
            calls = ", ".join(
                f"{name} {v['calls'] / n:.1f}"
                for name, v in sorted(report["stats"].items(), key=lambda kv: -kv[1]["calls"])
                if name not in ("echo", "monitor", "config", "slowlog", "info")
            )
            print(f"  commands per move, scripts' inner commands included (commandstats): {calls}")
            print("  Redis time by command, without MONITOR (SLOWLOG at 0 us): calls per move, median us, us per move")
            for name, values in sorted(report["durations"].items(), key=lambda kv: -sum(kv[1])):
                print(f"    {len(values) / n:>4.1f} {median(values):>7.0f} {sum(values) / n:>8.0f}  {name}", flush=True)
    return reports


if __name__ == "__main__":
    main()
