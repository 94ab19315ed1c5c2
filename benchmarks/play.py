"""Playing whole games against any service, from what the public API shows: `awaiting` says who is to move,
a seat's view lists its `legal_moves`, and a policy picks one. The same code plays over HTTP (`HttpService`)
or in process (`benchmarks.inprocess`)."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any

from benchmarks.http_load import Connection
from benchmarks.inprocess import Created, Refused, Service

Policy = Callable[[list[dict[str, Any]], random.Random], dict[str, Any]]
OnMove = Callable[[int, float, dict[str, Any], dict[str, Any]], None]
"""Called after each move with the version it was made at, its seconds, its body and its answer."""


def random_move(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Any legal move, uniformly: the random bot."""
    return rng.choice(legal)


def stalling_move(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Anything but ending a phase or buying a card while there is anything else: a long Mobsters game (it ends
    when the deck runs out, so the more that happens between draws, the longer its log)."""
    keep = [m for m in legal if m["type"] not in ("end_phase", "draw_extra")]
    return rng.choice(keep or legal)


@dataclass(frozen=True)
class Played:
    game_id: str
    version: int
    moves: int
    status: str


def play(
    service: Service,
    ruleset: str,
    seats: int,
    rng: random.Random,
    policy: Policy = random_move,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    on_move: OnMove | None = None,
    stop_at: int | None = None,
) -> Played:
    """Create a game of named seats and play it to its end (or to version `stop_at`), each awaited seat in
    turn moving by `policy`."""
    steps = stepwise(service, ruleset, seats, rng, policy, options, seed, on_move, stop_at)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            played: Played = done.value
            return played


def stepwise(
    service: Service,
    ruleset: str,
    seats: int,
    rng: random.Random,
    policy: Policy = random_move,
    options: dict[str, Any] | None = None,
    seed: int | None = None,
    on_move: OnMove | None = None,
    stop_at: int | None = None,
) -> Generator[None, None, Played]:
    """`play`, one move per step: several games advanced in turn share the same moments of a noisy machine."""
    created = service.create(ruleset, [{"name": f"P{i}"} for i in range(seats)], options, seed)
    game_id, tokens, view = created.game_id, created.tokens, created.view
    moves = 0
    while view["status"] != "finished" and (stop_at is None or view["version"] < stop_at):
        awaiting = view["awaiting"]
        if not awaiting:
            raise RuntimeError(f"{ruleset} game {game_id} awaits nobody at version {view['version']}")
        seat = awaiting[0]["seat"]
        mine = view.get("you") or {}
        seat_view = view if mine.get("seat") == seat else service.look(game_id, tokens[seat])
        legal = seat_view["you"]["legal_moves"]
        if not legal:
            raise RuntimeError(f"{ruleset} game {game_id} awaits seat {seat}, which has no legal move")
        body = policy(legal, rng)
        started = time.perf_counter()
        answer = service.move(game_id, tokens[seat], body)
        elapsed = time.perf_counter() - started
        if on_move is not None:
            on_move(seat_view["version"], elapsed, body, answer)
        view = answer["game"]
        moves += 1
        yield
    return Played(game_id, view["version"], moves, view["status"])


class HttpService:
    """The service over HTTP, one keep-alive connection: the same verbs as `benchmarks.inprocess`."""

    name = "HTTP (gunicorn)"
    rebuild_via = "none over HTTP"

    def __init__(self, host: str, port: int) -> None:
        self.conn = Connection(host, port)

    def _call(self, method: str, path: str, body: Any, token: str | None, expected: int) -> dict[str, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else b""
        status, answer = self.conn.request(method, path, data, headers)
        if status != expected:
            raise Refused(f"{method} {path}: {status} {answer[:300]!r}")
        return json.loads(answer)

    def create(
        self, ruleset: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None, seed: int | None = None
    ) -> Created:
        body: dict[str, Any] = {"ruleset": ruleset, "seats": seats, "options": options or {}}
        if seed is not None:
            body["seed"] = seed
        created = self._call("POST", "/v1/games", body, None, 201)
        view = {k: v for k, v in created.items() if k != "tokens"}
        return Created(created["game_id"], {t["seat"]: t["token"] for t in created["tokens"]}, view)

    def look(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        return self._call("GET", f"/v1/games/{game_id}", None, token, 200)

    def move(self, game_id: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
        return self._call("POST", f"/v1/games/{game_id}/moves", body, token, 200)

    def tally(self, game_ids: list[str]) -> None:
        raise NotImplementedError("over HTTP, the worker tallies")

    def rebuild(self) -> int:
        raise NotImplementedError("rebuild is the CLI's: syndicate projections rebuild")
