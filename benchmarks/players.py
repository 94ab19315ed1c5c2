"""What a player costs a move: 12 Gangsters games of three seats played in process over real Redis, with anonymous
seats (seat tokens) and with registered players (player tokens: the token checked against its player's state, by
the save itself on this plain Redis, and the notices a player's feed gets). The two kinds of game alternate; only
the moves are timed.

Two backends: `usecases` (the move path alone) and `wsgi` (the whole HTTP request path).

    .venv/bin/python -m benchmarks.players [--games 20] [--fsync everysec] [--backend usecases|wsgi]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from collections.abc import Callable
from typing import Any

import redis

from benchmarks.common import ADMISSION_S, env_int, machine, own_redis, say_command
from benchmarks.inprocess import Wsgi
from service.application import accounts, play
from service.application.callers import Caller
from service.application.services import Services
from service.bootstrap import bootstrap
from service.config import Config

Move = Callable[[str, str, int], None]
"""Play gangster `card` in a game with a token."""


class UseCases:
    def __init__(self, url: str) -> None:
        # no worker runs the tallies its games queue: the house's backlog is not what it measures
        config = dataclasses.replace(Config(), admission_s=ADMISSION_S)
        self.services: Services = bootstrap(config, client=redis.Redis.from_url(url))

    def register(self, name: str) -> str:
        return accounts.register_player(self.services, name)[2]

    def anonymous(self) -> tuple[str, list[str]]:
        created = play.create_game(self.services, "twelve-gangsters", [{"name": n} for n in "ABC"], {}, None)
        return created.game.game_id, [created.handed[s] for s in range(3)]

    def seated(self, tokens: list[str]) -> str:
        creator = accounts.authenticate(self.services, tokens[0])
        seats: list[dict[str, Any]] = [{"player": "me"}, {"open": True}, {"open": True}]
        created = play.create_game(self.services, "twelve-gangsters", seats, {}, None, creator)
        for token in tokens[1:]:
            play.join_game(self.services, created.game.game_id, None, accounts.authenticate(self.services, token))
        return created.game.game_id

    def move(self, game_id: str, token: str, card: int) -> None:
        play.make_move(self.services, game_id, Caller(token=token), {"type": "play", "card": card})


class OverWsgi:
    def __init__(self, url: str) -> None:
        self.app = Wsgi(url)
        self.http = self.app.http

    def _sent(self, response: Any, expected: int) -> dict[str, Any]:
        assert response.status_code == expected, response.get_data(as_text=True)[:300]
        return response.json  # type: ignore[no-any-return]

    def register(self, name: str) -> str:
        return self._sent(self.http.post("/v1/players", json={"name": name}), 201)["token"]  # type: ignore[no-any-return]

    def anonymous(self) -> tuple[str, list[str]]:
        created = self.app.create("twelve-gangsters", [{"name": n} for n in "ABC"])
        return created.game_id, [created.tokens[s] for s in range(3)]

    def seated(self, tokens: list[str]) -> str:
        body = {"ruleset": "twelve-gangsters", "seats": [{"player": "me"}, {"open": True}, {"open": True}]}
        game_id: str = self._sent(self.http.post("/v1/games", json=body, headers=bearer(tokens[0])), 201)["game_id"]
        for token in tokens[1:]:
            self._sent(self.http.post(f"/v1/games/{game_id}/join", json={}, headers=bearer(token)), 201)
        return game_id

    def move(self, game_id: str, token: str, card: int) -> None:
        body = {"type": "play", "card": card}
        self._sent(self.http.post(f"/v1/games/{game_id}/moves", json=body, headers=bearer(token)), 200)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def one_game(backend: UseCases | OverWsgi, tokens: list[str] | None) -> tuple[int, float]:
    """Moves made and seconds spent on them in one game: seat tokens if `tokens` is None, else players'."""
    if tokens is None:
        game_id, movers = backend.anonymous()
    else:
        game_id, movers = backend.seated(tokens), tokens
    spent, moves = 0.0, 0
    for card in range(1, 13):
        for token in movers:
            started = time.perf_counter()
            backend.move(game_id, token, card)
            spent += time.perf_counter() - started
            moves += 1
    return moves, spent


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.players", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=env_int("BENCH_PLAYER_GAMES", 60), help="games of each kind")
    parser.add_argument("--fsync", default="everysec", choices=["always", "everysec"])
    parser.add_argument(
        "--backend", default=os.environ.get("BENCH_INPROCESS", "usecases"), choices=["usecases", "wsgi"]
    )
    args = parser.parse_args(argv)
    print("== A move by an anonymous seat and by a registered player, in process, one client", flush=True)
    say_command("benchmarks.players", ["--games", str(args.games), "--fsync", args.fsync, "--backend", args.backend])
    with own_redis(args.fsync) as server:
        print(machine(redis.Redis.from_url(server.url)))
        backend = OverWsgi(server.url) if args.backend == "wsgi" else UseCases(server.url)
        tokens = [backend.register(f"Bench{i}") for i in range(3)]
        totals = {"seat tokens": [0, 0.0], "player tokens": [0, 0.0]}
        for _ in range(args.games):
            for kind, given in (("seat tokens", None), ("player tokens", tokens)):
                moves, seconds = one_game(backend, given)
                totals[kind][0] += moves
                totals[kind][1] += seconds
    report = {kind: 1000 * seconds / moves for kind, (moves, seconds) in totals.items()}
    for kind, ms in report.items():
        print(f"appendfsync {args.fsync}, {args.backend}, 12 Gangsters, 3 seats, {kind}: {ms:.2f} ms/move", flush=True)
    ratio = report["player tokens"] / report["seat tokens"]
    print(f"a player's move against an anonymous seat's: x{ratio:.2f} (goal <= x1.2)", flush=True)
    return report


if __name__ == "__main__":
    main()
