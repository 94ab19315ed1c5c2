"""The flood: one client creates 250 all-bot games as fast as it can, while a canary plays 12 Gangsters against two
smart bots from start to end, again and again; how long the canary's bots take to answer, before, during and after.

    .venv/bin/python -m benchmarks.flood [--games 250] [--after 60]

The service runs as deployed (gunicorn with the service's own arguments, a `syndicate worker`, the defaults:
all-bot games paced at a turn a second, admission control at 5 s of queued work), with one change: the limit of
unfinished games per address is lifted, as if the burst came from many addresses (with it, one address would get
20 games and a 409 for the rest: the first phase counts that). Measured: the canary's wait for its bots, from the
moment a round begins to the moment both bots have moved (p50, p99, max; the same canary alone first, as the
baseline), the jobs waiting in each queue (sampled every 0.25 s), how many creations were admitted, asked to wait
(503) or refused (409), and how long after the burst the queues were empty and every game played out.
Goal: the canary's p99 within 2 s throughout, the queues bounded, everything recovered within a minute.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
import threading
import time
from typing import Any

import redis
import requests
from rq import Queue

from benchmarks.common import Gunicorn, machine, own_redis, percentile, say_command, service_config, service_env
from events import keys
from service.ops.redis_server import free_port
from service.worker.scheduler import BOT_QUEUE, QUEUE

BOTS = [{"bot": "random"}] * 3
CANARY = [{"name": "Canary"}, {"bot": "smart"}, {"bot": "smart"}]
THINK_S = 0.3
"""How long the canary takes over each of its moves: a quick player (one that moved the instant it could would
be the burst itself, served first)."""


class Canary(threading.Thread):
    """A person playing 12 Gangsters against two smart bots, game after game: each round's wait for the bots (from
    its own move, which began the round, to both bots' moves)."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url, self.http = url, requests.Session()
        self.waits: list[tuple[float, float]] = []  # (when the round began, seconds until both bots had moved)
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            created = self.http.post(f"{self.url}/v1/games", json={"ruleset": "twelve-gangsters", "seats": CANARY})
            if created.status_code != 201:
                time.sleep(0.5)
                continue
            game, token = created.json()["game_id"], created.json()["tokens"][0]["token"]
            self.play(game, {"Authorization": f"Bearer {token}"})

    def play(self, game: str, auth: dict[str, str]) -> None:
        began = time.monotonic()
        while not self.stop.is_set():
            view = self.http.get(f"{self.url}/v1/games/{game}", headers=auth).json()
            if view["status"] == "finished":
                return
            if any(a["seat"] != 0 for a in view["awaiting"]):
                time.sleep(0.01)  # the bots have not both moved yet
                continue
            self.waits.append((began, time.monotonic() - began))
            self.stop.wait(THINK_S)
            card = view["you"]["legal_moves"][0]
            answer = self.http.post(f"{self.url}/v1/games/{game}/moves", json=card, headers=auth)
            began = time.monotonic()  # the next round begins as this move reveals the last one
            if answer.json()["game"]["status"] == "finished":
                return


def depths(client: redis.Redis) -> tuple[int, int]:
    people = Queue(QUEUE, connection=client).count
    bots = Queue(BOT_QUEUE, connection=client).count + int(client.zcard(keys.paced_turns()))  # type: ignore[arg-type]
    return people, bots


def summary(waits: list[float]) -> dict[str, float]:
    return {"rounds": len(waits), "p50": percentile(waits, 50), "p99": percentile(waits, 99), "max": max(waits)}


def run(games: int, after_s: float) -> dict[str, Any]:
    with own_redis() as server:
        client = redis.Redis.from_url(server.url)
        port = free_port()
        config = dataclasses.replace(service_config(server.url, port), games_per_address=10**6)
        env = {**service_env(config), "SYNDICATE_GAMES_PER_ADDRESS": str(10**6)}
        worker = subprocess.Popen(
            [sys.executable, "-m", "service.ops.cli", "worker"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            with Gunicorn(config) as api:
                print(machine(client), flush=True)
                return flood(api.url, client, games, after_s)
        finally:
            worker.terminate()
            worker.wait(timeout=30)


def flood(url: str, client: redis.Redis, games: int, after_s: float) -> dict[str, Any]:
    canary = Canary(url)
    canary.start()
    time.sleep(15)  # the canary alone: the baseline
    alone = [w for _, w in canary.waits]
    sampled: list[tuple[float, tuple[int, int]]] = []
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.is_set():
            sampled.append((time.monotonic(), depths(client)))
            time.sleep(0.25)

    threading.Thread(target=sample, daemon=True).start()
    burst_at = time.monotonic()
    http = requests.Session()
    statuses = [
        http.post(f"{url}/v1/games", json={"ruleset": "twelve-gangsters", "seats": BOTS}).status_code
        for _ in range(games)
    ]
    burst_s = time.monotonic() - burst_at
    admitted = statuses.count(201)
    deadline = time.monotonic() + 600
    played_out_at = None
    while time.monotonic() < deadline:
        pages = json.loads(http.get(f"{url}/v1/games?status=in_progress").headers["X-Pagination"])
        if pages["total"] <= 1 and depths(client)[1] == 0:  # the canary's own game, at most
            played_out_at = time.monotonic()
            break
        time.sleep(0.5)
    time.sleep(after_s if played_out_at else 0)
    canary.stop.set()
    sampling.set()
    canary.join(timeout=30)
    during = [w for began, w in canary.waits if began >= burst_at and (played_out_at is None or began <= played_out_at)]
    later = [w for began, w in canary.waits if played_out_at is not None and began > played_out_at]
    return {
        "games": games,
        "admitted": admitted,
        "asked_to_wait": statuses.count(503),
        "refused": statuses.count(409),
        "burst_s": burst_s,
        "alone": summary(alone),
        "during": summary(during) if during else None,
        "after": summary(later) if later else None,
        "max_people_queue": max(d[0] for _, d in sampled),
        "max_bot_queue": max(d[1] for _, d in sampled),
        "recovered_s": (played_out_at - burst_at - burst_s) if played_out_at else None,
    }


def quota(games: int) -> dict[str, int]:
    """The same burst under the default limit of one address: how many it gets."""
    with own_redis() as server:
        port = free_port()
        with Gunicorn(service_config(server.url, port)) as api:
            http = requests.Session()
            statuses = [
                http.post(f"{api.url}/v1/games", json={"ruleset": "twelve-gangsters", "seats": BOTS}).status_code
                for _ in range(games)
            ]
    return {"admitted": statuses.count(201), "refused": statuses.count(409), "asked_to_wait": statuses.count(503)}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=250)
    parser.add_argument("--after", type=float, default=30.0, help="seconds the canary plays on after the recovery")
    args = parser.parse_args(argv)
    print("== The flood: a burst of all-bot games against a person's game (the canary)")
    say_command("benchmarks.flood", [f"--games={args.games}", f"--after={args.after:g}"])
    limited = quota(args.games)
    print(f"one address under the default limit: {limited['admitted']} admitted, {limited['refused']} refused (409)")
    report = run(args.games, args.after)

    def line(name: str, found: dict[str, float] | None) -> str:
        if not found:
            return f"{name:<22} (no rounds)"
        ratio = found["p99"] / report["alone"]["p99"] if report["alone"]["p99"] else float("nan")
        return (
            f"{name:<22} {found['rounds']:>5} rounds  p50 {found['p50']:.3f} s  p99 {found['p99']:.3f} s  "
            f"max {found['max']:.3f} s  (p99 x{ratio:.1f} of alone)"
        )

    print(
        f"burst: {report['games']} creations in {report['burst_s']:.1f} s: {report['admitted']} admitted, "
        f"{report['asked_to_wait']} asked to wait (503), {report['refused']} refused (409)"
    )
    print(line("canary alone", report["alone"]))
    print(line("canary in the burst", report["during"]))
    print(line("canary after it", report["after"]))
    print(f"jobs waiting at most: {report['max_people_queue']} for people's games, {report['max_bot_queue']} all-bot")
    recovered = report["recovered_s"]
    print(f"played out and queues empty: {recovered:.0f} s after the burst" if recovered else "not played out")
    during = report["during"] or report["alone"]
    print(f"goal: canary p99 <= 2 s throughout: {'met' if during['p99'] <= 2 else 'NOT met'}")
    print(f"goal: recovered within 60 s: {'met' if recovered is not None and recovered <= 60 else 'NOT met'}")
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
