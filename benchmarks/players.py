"""What a player costs a move: 12 Gangsters games of three seats played through the use cases over real Redis,
with anonymous seats (seat tokens) and with registered players (player tokens: one more read to check the
token, and the notices a player's feed gets). The two kinds of game alternate; only the moves are timed.

    .venv/bin/python -m benchmarks.players [--games 20] [--fsync everysec]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import redis

from benchmarks.common import env_int, machine, own_redis, say_command
from service.application import accounts, play
from service.application.callers import Caller
from service.application.services import Services
from service.bootstrap import bootstrap


def one_game(services: Services, tokens: list[str] | None) -> tuple[int, float]:
    """Moves made and seconds spent on them in one game: seat tokens if `tokens` is None, else players'."""
    if tokens is None:
        created = play.create_game(services, "twelve-gangsters", [{"name": n} for n in "ABC"], {}, None)
        movers = [created.handed[s] for s in range(3)]
    else:
        creator = accounts.authenticate(services, tokens[0])
        seats: list[dict[str, Any]] = [{"player": "me"}, {"open": True}, {"open": True}]
        created = play.create_game(services, "twelve-gangsters", seats, {}, None, creator)
        for token in tokens[1:]:
            play.join_game(services, created.game.game_id, None, accounts.authenticate(services, token))
        movers = tokens
    spent, moves = 0.0, 0
    for card in range(1, 13):
        for token in movers:
            started = time.perf_counter()
            play.make_move(services, created.game.game_id, Caller(token=token), {"type": "play", "card": card})
            spent += time.perf_counter() - started
            moves += 1
    return moves, spent


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.players", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=env_int("BENCH_PLAYER_GAMES", 20), help="games of each kind")
    parser.add_argument("--fsync", default="everysec", choices=["always", "everysec"])
    args = parser.parse_args(argv)
    print("== A move by an anonymous seat and by a registered player, in process, one client", flush=True)
    say_command("benchmarks.players", ["--games", str(args.games), "--fsync", args.fsync])
    with own_redis(args.fsync) as server:
        client = redis.Redis.from_url(server.url)
        print(machine(client))
        services = bootstrap(client=client)
        tokens = [accounts.register_player(services, f"Bench{i}")[2] for i in range(3)]
        totals = {"seat tokens": [0, 0.0], "player tokens": [0, 0.0]}
        for _ in range(args.games):
            for kind, given in (("seat tokens", None), ("player tokens", tokens)):
                moves, seconds = one_game(services, given)
                totals[kind][0] += moves
                totals[kind][1] += seconds
    report = {kind: 1000 * seconds / moves for kind, (moves, seconds) in totals.items()}
    for kind, ms in report.items():
        print(f"appendfsync {args.fsync}, 12 Gangsters, 3 seats, {kind}: {ms:.2f} ms/move", flush=True)
    return report


if __name__ == "__main__":
    main()
