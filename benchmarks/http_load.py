"""The service against the bare baseline, side by side over HTTP, under the same load in the same run.

One redis-server of our own with `appendfsync always` (the service's default), gunicorn for the service
(`service.ops.gunicorn_conf.gunicorn_args(Config)`, its own env) and gunicorn for `benchmarks.baseline` (the same
arguments, only the app swapped), both on that Redis. N client processes, each with one keep-alive HTTP connection,
drive one target at a time for a fixed duration; the targets alternate (baseline, service, baseline,
service, ...) so the machine's noise falls on both alike, and each figure is the median over its rounds.

Service clients play 3-seat 12 Gangsters games: create a game (not timed, and its time is left out of the
client's window), then round r every seat plays gangster r, which is always legal (every seat holds 1..12).
Baseline clients send the same bodies and headers to a fresh game id every 36 moves, with `If-Match` set to
the version they were last answered. A move counts when answered 200; anything else, or a broken
connection, is an error, and that game is abandoned.

    .venv/bin/python -m benchmarks.http_load --clients 8 --duration 10 --rounds 3

With `--against DIR`, a third target alternates with them: the service as another checkout of it serves it (its
own `.venv`, made by `make install` there; its own `syndicate serve`), so a change is measured against the code it
changed, in the same run: `git worktree add ../before <commit> && make -C ../before install`, then
`--against ../before`.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import multiprocessing
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

from benchmarks.common import (
    BASELINE_APP,
    RATE_LIMIT,
    Gunicorn,
    env_float,
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

SEATS = 3
ROUNDS = 12
MAX_ERRORS_KEPT = 3
PLACES: dict[str, Callable[[int], bool]] = {
    "first 3": lambda place: place <= SEATS,
    "last": lambda place: place == SEATS * ROUNDS,
    "others": lambda place: SEATS < place < SEATS * ROUNDS,
}
"""The kinds of moves a game's tail is told by: each seat's first (a new token's first request), the game's last
(it ends the game: its lobby entry and its tally follow), and the rest."""


@dataclass
class ClientResult:
    moves: int = 0
    errors: int = 0
    first_errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    """Each timed move's place in its game (1 to 36), beside its latency."""
    window_s: float = 0.0
    creating_s: float = 0.0
    """Time spent creating games: left out of the client's window, as creates are not moves."""

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.first_errors) < MAX_ERRORS_KEPT:
            self.first_errors.append(what[:300])

    def timed_move(self, conn: Connection, path: str, body: bytes, headers: dict[str, str], place: int) -> bytes | None:
        """Send one move (the game's `place`-th) and count it with its latency if answered 200; else an error, and
        None."""
        started = time.perf_counter()
        status, data = conn.request("POST", path, body, headers)
        elapsed = time.perf_counter() - started
        if status != 200:
            self.error(f"move: {status} {data[:200]!r}")
            return None
        self.moves += 1
        self.latencies.append(elapsed)
        self.places.append(place)
        return data


class Connection:
    """One keep-alive HTTP connection; a broken one is replaced on the next request (the break is an error)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            self.conn.request(method, path, body, headers)
            answer = self.conn.getresponse()
            data = answer.read()
        except (http.client.HTTPException, OSError) as error:
            self.close()
            return 0, f"{type(error).__name__}: {error}".encode()
        if answer.will_close:
            self.close()
        return answer.status, data

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def move_body(card: int) -> bytes:
    return json.dumps({"type": "play", "card": card}).encode()


def play_service(conn: Connection, result: ClientResult, end: float) -> None:
    """Create one 3-seat 12 Gangsters game and play it, until it ends or the window closes."""
    started = time.perf_counter()
    create = {"ruleset": "twelve-gangsters", "seats": [{"name": f"P{i}"} for i in range(SEATS)]}
    status, data = conn.request("POST", "/v1/games", json.dumps(create).encode(), {"Content-Type": "application/json"})
    result.creating_s += time.perf_counter() - started
    if status != 201:
        result.error(f"create: {status} {data[:200]!r}")
        return
    game = json.loads(data)
    tokens = {t["seat"]: t["token"] for t in game["tokens"]}
    path = f"/v1/games/{game['game_id']}/moves"
    for card in range(1, ROUNDS + 1):
        for seat in range(SEATS):
            if time.perf_counter() >= end:
                return
            headers = {"Content-Type": "application/json", "Authorization": f"Bearer {tokens[seat]}"}
            place = (card - 1) * SEATS + seat + 1
            if result.timed_move(conn, path, move_body(card), headers, place) is None:
                return


def play_baseline(conn: Connection, result: ClientResult, end: float) -> None:
    """The same 36 move bodies with the same kind of headers, to a fresh game id, `If-Match` the last version."""
    path = f"/v1/games/{secrets.token_hex(8)}/moves"
    token = secrets.token_urlsafe(32)
    version = 0
    for card in range(1, ROUNDS + 1):
        for seat in range(SEATS):
            if time.perf_counter() >= end:
                return
            headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}", "If-Match": str(version)}
            data = result.timed_move(conn, path, move_body(card), headers, (card - 1) * SEATS + seat + 1)
            if data is None:
                return
            version = json.loads(data)["version"]


PLAYERS: dict[str, Callable[[Connection, ClientResult, float], None]] = {
    "service": play_service,
    "baseline": play_baseline,
}


def run_client(kind: str, host: str, port: int, start_at: float, duration_s: float) -> ClientResult:
    """One client: wait for the common start, then play `kind` games for `duration_s` seconds."""
    conn = Connection(host, port)
    result = ClientResult()
    play = PLAYERS[kind]
    time.sleep(max(0.0, start_at - time.time()))
    started = time.perf_counter()
    end = started + duration_s
    while time.perf_counter() < end:
        play(conn, result, end)
    result.window_s = time.perf_counter() - started
    conn.close()
    return result


def _client_process(queue: Any, *args: Any) -> None:
    queue.put(run_client(*args))


@dataclass
class RoundResult:
    target: str
    clients: list[ClientResult]

    @property
    def moves(self) -> int:
        return sum(c.moves for c in self.clients)

    @property
    def errors(self) -> int:
        return sum(c.errors for c in self.clients)

    @property
    def rate(self) -> float:
        """Moves per second, every client's moves over its window less its time creating games."""
        return sum(c.moves / max(c.window_s - c.creating_s, 1e-9) for c in self.clients)

    def latency_ms(self, q: float) -> float:
        return 1000 * percentile([s for c in self.clients for s in c.latencies], q)

    def tail(self, q: float = 99) -> dict[str, tuple[float, float]]:
        """Where the slowest moves come from: for each kind of place in a game (`PLACES`), its share of the moves at
        or above the `q`-th percentile, and its median latency (ms)."""
        timed = [(s, p) for c in self.clients for s, p in zip(c.latencies, c.places, strict=True)]
        bar = percentile([s for s, _ in timed], q)
        slow = sum(1 for s, _ in timed if s >= bar)
        found = {}
        for name, inside in PLACES.items():
            mine = [s for s, p in timed if inside(p)]
            above = sum(1 for s in mine if s >= bar)
            found[name] = (above / max(slow, 1), 1000 * median(mine) if mine else 0.0)
        return found

    @property
    def first_errors(self) -> list[str]:
        return [e for c in self.clients for e in c.first_errors]


def drive(kind: str, ports: int | list[int], clients: int, duration_s: float, label: str | None = None) -> RoundResult:
    """Run `clients` client processes of `kind` for `duration_s` seconds, all starting together; client i
    on ports[i % len(ports)] (several API processes of one service share the clients)."""
    ports = [ports] if isinstance(ports, int) else ports
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    start_at = time.time() + 0.5  # time to fork and connect
    processes = [
        context.Process(
            target=_client_process, args=(queue, kind, "127.0.0.1", ports[i % len(ports)], start_at, duration_s)
        )
        for i in range(clients)
    ]
    for process in processes:
        process.start()
    results = [queue.get(timeout=duration_s + 120) for _ in processes]
    for process in processes:
        process.join(timeout=30)
    return RoundResult(label or kind, results)


def describe(result: RoundResult) -> str:
    return (
        f"{result.target:<9} {result.rate:>9.0f} {result.latency_ms(50):>8.2f} {result.latency_ms(99):>8.2f}"
        f" {result.errors:>7} {result.moves:>8}"
    )


HEADER = f"{'target':<9} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} {'moves':>8}"


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.http_load", description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=env_int("BENCH_HTTP_CLIENTS", 8))
    parser.add_argument("--duration", type=float, default=env_float("BENCH_HTTP_DURATION", 10), help="seconds")
    parser.add_argument("--rounds", type=int, default=env_int("BENCH_HTTP_ROUNDS", 3), help="rounds per target")
    parser.add_argument("--warmup", type=float, default=env_float("BENCH_HTTP_WARMUP", 2), help="seconds each")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers for each target")
    parser.add_argument("--against", type=Path, help="another checkout of the service, served as a third target")
    args = parser.parse_args(argv)
    kinds = ["baseline", "service", *(["against"] if args.against else [])]
    print("== HTTP side by side: the service against the bare baseline, the same load, alternating", flush=True)
    say_command(
        "benchmarks.http_load",
        ["--clients", str(args.clients), "--duration", f"{args.duration:g}", "--rounds", str(args.rounds)]
        + (["--against", str(args.against)] if args.against else []),
    )
    with own_redis("always") as server:
        print(machine(redis.Redis.from_url(server.url)))
        print(
            f"Redis appendfsync always (the service's default: a move is acknowledged once on disk); "
            f"{args.clients} client processes, one keep-alive connection each, {args.duration:g} s per round, "
            f"gunicorn {args.workers} gevent workers per target (service.ops.gunicorn_conf.gunicorn_args); "
            f"every SYNDICATE_RATE_LIMIT*={RATE_LIMIT!r}",
            flush=True,
        )
        targets = {
            "service": Gunicorn(service_config(server.url, free_port(), args.workers)),
            "baseline": Gunicorn(service_config(server.url, free_port(), args.workers), app=BASELINE_APP),
        }
        if args.against:
            targets["against"] = Gunicorn(service_config(server.url, free_port(), args.workers), checkout=args.against)
        for kind, target in targets.items():
            print(f"{kind + ':':<9} {' '.join(target.command)}")
        with contextlib.ExitStack() as serving:
            ports = {kind: serving.enter_context(target).config.port for kind, target in targets.items()}
            plays = {"baseline": "baseline", "service": "service", "against": "service"}
            if args.warmup > 0:
                for kind in kinds:
                    drive(plays[kind], ports[kind], args.clients, args.warmup)
            rounds: dict[str, list[RoundResult]] = {kind: [] for kind in kinds}
            print(f"{'round':<6} {HEADER}")
            for number in range(1, args.rounds + 1):
                for kind in kinds:
                    result = drive(plays[kind], ports[kind], args.clients, args.duration, label=kind)
                    rounds[kind].append(result)
                    print(f"{number:<6} {describe(result)}", flush=True)
    summary = {kind: summarise(results) for kind, results in rounds.items()}
    print(f"median of {args.rounds} rounds each:")
    print(HEADER)
    for kind in kinds:
        s = summary[kind]
        print(f"{kind:<9} {s['rate']:>9.0f} {s['p50']:>8.2f} {s['p99']:>8.2f} {s['errors']:>7} {s['moves']:>8}")
    b, s = summary["baseline"], summary["service"]
    print(
        f"service/baseline: throughput {ratio(s['rate'], b['rate'])}, p50 {ratio(s['p50'], b['p50'])}, "
        f"p99 {ratio(s['p99'], b['p99'])}"
    )
    if args.against:
        a = summary["against"]
        print(
            f"service/against: throughput {ratio(s['rate'], a['rate'])}, p50 {ratio(s['p50'], a['p50'])}, "
            f"p99 {ratio(s['p99'], a['p99'])}; against/baseline: throughput {ratio(a['rate'], b['rate'])}, "
            f"p99 {ratio(a['p99'], b['p99'])}"
        )
    print("the moves at or above each round's p99 by their place in the game: each place's share, its moves' median")
    for kind in kinds:
        tails = [r.tail() for r in rounds[kind]]
        parts = [
            f"{name} {median([t[name][0] for t in tails]):.0%} ({median([t[name][1] for t in tails]):.2f} ms)"
            for name in PLACES
        ]
        print(f"{kind:<9} " + ", ".join(parts))
    for kind, results in rounds.items():
        errors = [e for r in results for e in r.first_errors]
        if errors:
            print(f"{kind}: {sum(r.errors for r in results)} errors; the first: " + " | ".join(errors[:5]))
    return summary


def summarise(results: list[RoundResult]) -> dict[str, Any]:
    return {
        "rate": median([r.rate for r in results]),
        "p50": median([r.latency_ms(50) for r in results]),
        "p99": median([r.latency_ms(99) for r in results]),
        "errors": sum(r.errors for r in results),
        "moves": sum(r.moves for r in results),
    }


if __name__ == "__main__":
    main()
