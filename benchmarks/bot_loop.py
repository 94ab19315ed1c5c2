"""Requests per move of the guide's bot loop, against the service as deployed, with its default rate limits.

gunicorn with the service's own arguments and one `syndicate worker` (the house's bots), on a redis-server of our
own; the rate limits are the service's defaults (`service.config`'s DEFAULT_*), not a benchmark's lifted ones,
so a 429 here is one a real bot would meet. One bot (plain httpx, one keep-alive connection for its moves and one
for its feed) plays each game at full speed, as docs/api.md's "Writing a bot" says: it opens its seat's feed
with the seat token, acts on each `view` message newer than the highest version it knows and on each move's
answer, posts a legal move with an Idempotency-Key (and `If-Match` only where its own awaited decision is
turn-based), lets a 409 `game_moved_on` or 412 `version_mismatch` be, and stops when the feed ends after
`game_tallied`. It never GETs the view.

Games: a two-seat Mobsters game against a smart bot and a four-seat Ca$h 'n Guns game against three house bots
(`--games N` of each, 2 unless BENCH_BOT_GAMES says otherwise; `--rulesets` picks some). Printed per ruleset:
the bot's moves, its requests (and by route), requests per move, 429s, GETs of the view, moves per second (the
bot's moves over the game's time from creation to tally: the house's bots set the pace, the bot waits on them;
the game's events per second beside it), each game's time after the bot's last move (a seat shot dead in Ca$h
'n Guns watches the rest), and the most any rate-limit budget had spent in its window against its limit
(`RateLimit-Limit` less `RateLimit-Remaining` on every answer; an answer tells only the budget nearest its end,
so the address's budget, never the nearest here, goes untold).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import re
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import redis

from benchmarks.common import Gunicorn, env_int, machine, own_redis, say_command, service_config, service_env
from service.config import (
    DEFAULT_ADDRESS_RATE_LIMIT,
    DEFAULT_OPEN_RATE_LIMIT,
    DEFAULT_RATE_LIMIT,
    DEFAULT_TOKEN_RATE_LIMIT,
)
from service.ops.redis_server import free_port

GAMES: dict[str, list[dict[str, Any]]] = {
    "mobsters": [{"name": "Bot"}, {"bot": "smart"}],
    "cash-n-guns": [{"name": "Bot"}, {"bot": "random"}, {"bot": "smart"}, {"bot": "random"}],
}
GAME_ID = re.compile(r"^/v1/games/[^/]+")
EXPECTED = {409: "game_moved_on", 412: "version_mismatch"}
TIMEOUT = httpx.Timeout(10.0, read=60.0)


def route(request: httpx.Request) -> str:
    return f"{request.method} {GAME_ID.sub('/v1/games/{id}', request.url.path)}"


class Bot:
    """The guide's loop, counting every request it sends and the rate-limit budgets its answers tell."""

    def __init__(self, url: str, game_id: str, token: str, seed: str) -> None:
        self.game_id, self.rng = game_id, random.Random(seed)
        self.requests: Counter[str] = Counter()
        self.statuses: Counter[int] = Counter()
        self.refused: Counter[str] = Counter()
        self.spent: dict[str, int] = {}
        self.known = 0
        self.moves = 0
        self.last_move = time.monotonic()
        self.tallied = False
        hooks = {"request": [self.sent], "response": [self.answered]}
        headers = {"Authorization": f"Bearer {token}"}
        self.http = httpx.Client(base_url=url, headers=headers, timeout=TIMEOUT, event_hooks=hooks)
        self.feed_http = httpx.Client(base_url=url, headers=headers, timeout=TIMEOUT, event_hooks=hooks)

    def sent(self, request: httpx.Request) -> None:
        self.requests[route(request)] += 1

    def answered(self, response: httpx.Response) -> None:
        self.statuses[response.status_code] += 1
        note(self.spent, response.headers)

    def feed(self) -> Iterator[tuple[str, str]]:
        last: str | None = None
        while not self.tallied:
            headers = {"Last-Event-ID": last} if last else {}
            try:
                with self.feed_http.stream("GET", f"/v1/games/{self.game_id}/events/stream", headers=headers) as answer:
                    if answer.status_code == 204:
                        return
                    answer.raise_for_status()
                    event, data = "message", []
                    for line in answer.iter_lines():
                        if line.startswith(":"):
                            continue
                        if line:
                            name, _, value = line.partition(":")
                            value = value.removeprefix(" ")
                            if name == "id":
                                last = value
                            elif name == "event":
                                event = value
                            elif name == "data":
                                data.append(value)
                            continue
                        if data:
                            yield event, "\n".join(data)
                        event, data = "message", []
            except (httpx.TransportError, httpx.DecodingError):
                time.sleep(0.1)

    def play(self) -> None:
        for event, data in self.feed():
            if event == "view":
                self.consider(json.loads(data))
            elif event == "game_tallied":
                self.tallied = True

    def consider(self, game: dict[str, Any] | None) -> None:
        while game is not None and game["version"] > self.known:
            self.known = game["version"]
            you = game.get("you") or {}
            if not you.get("legal_moves"):
                return
            game = self.move(game, you["seat"], self.rng.choice(you["legal_moves"]))

    def move(self, game: dict[str, Any], seat: int, body: dict[str, Any]) -> dict[str, Any] | None:
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        mine = [a for a in game["awaiting"] if a["seat"] == seat]
        if mine and not mine[0]["simultaneous"]:
            headers["If-Match"] = f'"{game["version"]}"'
        for attempt in range(3):
            try:
                answer = self.http.post(f"/v1/games/{self.game_id}/moves", json=body, headers=headers)
                break
            except httpx.TransportError:
                if attempt == 2:
                    raise
        if answer.status_code == 200:
            self.moves += 1
            self.last_move = time.monotonic()
            return answer.json()["game"]
        code = answer.json().get("code", "?")
        self.refused[f"{answer.status_code} {code}"] += 1
        if EXPECTED.get(answer.status_code) != code:
            print(f"  unexpected answer to a move: {answer.status_code} {answer.text[:200]}", flush=True)
        return None


def note(spent: dict[str, int], headers: httpx.Headers) -> None:
    """The most each budget (by its policy) had spent, as the answers told it."""
    if "RateLimit-Policy" in headers:
        policy = headers["RateLimit-Policy"]
        used = int(headers["RateLimit-Limit"]) - int(headers["RateLimit-Remaining"])
        spent[policy] = max(spent.get(policy, 0), used)


def play(url: str, ruleset: str, seed: str) -> dict[str, Any]:
    started = time.monotonic()
    created = httpx.post(f"{url}/v1/games", json={"ruleset": ruleset, "seats": GAMES[ruleset]}, timeout=TIMEOUT)
    created.raise_for_status()
    body = created.json()
    bot = Bot(url, body["game_id"], body["tokens"][0]["token"], seed)
    try:
        bot.play()
    finally:
        bot.http.close()
        bot.feed_http.close()
    ended = time.monotonic()
    seconds, after = ended - started, ended - bot.last_move
    note(bot.spent, created.headers)
    result = httpx.get(f"{url}/v1/games/{body['game_id']}/result", timeout=TIMEOUT).json()
    return {
        "moves": bot.moves,
        "requests": bot.requests,
        "statuses": bot.statuses,
        "refused": bot.refused,
        "spent": bot.spent,
        "seconds": seconds,
        "after_last_move": after,
        "version": result["version"],
        "tallied": bool(result.get("tallied")) and bot.tallied,
    }


def report(ruleset: str, games: list[dict[str, Any]]) -> dict[str, Any]:
    moves = sum(g["moves"] for g in games)
    requests: Counter[str] = sum((g["requests"] for g in games), Counter())
    statuses: Counter[int] = sum((g["statuses"] for g in games), Counter())
    refused: Counter[str] = sum((g["refused"] for g in games), Counter())
    seconds = sum(g["seconds"] for g in games)
    events = sum(g["version"] for g in games)
    sent = sum(requests.values())
    views = sum(n for r, n in requests.items() if r == "GET /v1/games/{id}" or "/states/" in r)
    spent: dict[str, int] = {}
    for g in games:
        for policy, used in g["spent"].items():
            spent[policy] = max(spent.get(policy, 0), used)
    per_move = sent / moves if moves else float("nan")
    print(
        f"{ruleset}: {len(games)} game(s), {events} events, all tallied: "
        f"{all(g['tallied'] for g in games)}; the bot's moves {moves}, requests {sent}, "
        f"requests per move {per_move:.3f}, 429s {statuses[429]}, view GETs {views}, "
        f"moves/s {moves / seconds:.1f} (the game's events/s {events / seconds:.1f}; {seconds:.1f} s from creation to "
        "tally)",
        flush=True,
    )
    for i, g in enumerate(games):
        print(
            f"  game {i}: {g['version']} events, the bot's moves {g['moves']}, {g['seconds']:.1f} s "
            f"({g['after_last_move']:.1f} s of it after the bot's last move)"
        )
    print(f"  requests: {dict(requests)}; statuses: {dict(statuses)}; refused moves: {dict(refused) or 'none'}")
    budgets = ", ".join(f"{used} of {policy.split(';')[0]} ({policy})" for policy, used in sorted(spent.items()))
    print(f"  most spent of a rate-limit budget in its window, as answers told it: {budgets}", flush=True)
    return {
        "moves": moves,
        "requests": sent,
        "per_move": per_move,
        "429": statuses[429],
        "view_gets": views,
        "moves_per_s": moves / seconds,
        "spent": spent,
    }


def run(games: int, rulesets: list[str]) -> dict[str, Any]:
    with own_redis() as server:
        config = dataclasses.replace(
            service_config(server.url, free_port()),
            rate_limit=DEFAULT_RATE_LIMIT,
            rate_limit_token=DEFAULT_TOKEN_RATE_LIMIT,
            rate_limit_address=DEFAULT_ADDRESS_RATE_LIMIT,
            rate_limit_open=DEFAULT_OPEN_RATE_LIMIT,
        )
        worker = subprocess.Popen(
            [sys.executable, "-m", "service.ops.cli", "worker"],
            env=service_env(config),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            # Two minutes to come up: a gunicorn worker on a busy two-core machine took over 30 s to import the app.
            api = Gunicorn(config).start(timeout_s=120)
            try:
                print(machine(redis.Redis.from_url(server.url)), flush=True)
                return {
                    ruleset: report(ruleset, [play(api.url, ruleset, f"{ruleset}-{i}") for i in range(games)])
                    for ruleset in rulesets
                }
            finally:
                api.stop()
        finally:
            worker.terminate()
            worker.wait(timeout=30)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=env_int("BENCH_BOT_GAMES", 2), help="games of each ruleset")
    parser.add_argument("--rulesets", nargs="+", choices=list(GAMES), default=list(GAMES))
    args = parser.parse_args(argv)
    print("== The guide's bot loop: requests per move, with the default rate limits")
    say_command("benchmarks.bot_loop", [f"--games={args.games}", "--rulesets", *args.rulesets])
    return run(args.games, args.rulesets)


if __name__ == "__main__":
    main(sys.argv[1:])
