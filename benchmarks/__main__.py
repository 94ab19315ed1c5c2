"""Move-path speed and storage cost, against a real redis-server of our own.

Run with `make bench`. It prints moves per second through the use cases (load, decide, append), the cost
of loading a game from its snapshot against replaying its whole log, and Redis memory per finished game.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

import msgspec
import redis

from benchmarks import sse
from events import keys
from events.store import EventStore
from games import table as tables
from games.registry import RULESETS
from projections import Projections
from projections.replay import event_of
from service.games import Caller, Games
from service.redis_server import RedisServer, free_port


def play_game(games: Games, players: int, rng: random.Random) -> tuple[str, int]:
    """One whole 12 Gangsters game through the use cases; its id and its number of moves."""
    game, handed = games.create(
        "twelve-gangsters", [{"name": f"P{i}"} for i in range(players)], {}, rng.randrange(1 << 30)
    )
    game_id, moves = game.table.game_id, 0
    while True:
        loaded = games.load(game_id)
        if loaded.table.status == "finished":
            return game_id, moves
        for seat, _ in loaded.ruleset.awaiting(loaded.table.rules).items():
            legal = loaded.ruleset.legal_moves(loaded.table.rules, seat)
            games.move(game_id, Caller(token=handed[seat]), msgspec.to_builtins(rng.choice(legal)))
            moves += 1


def main() -> None:
    for fsync in ("always", "everysec"):
        with tempfile.TemporaryDirectory() as data:
            server = RedisServer(Path(data), free_port(), fsync=fsync).start()
            try:
                client = redis.Redis.from_url(server.url)
                games = Games(EventStore(client), Projections(client))
                rng = random.Random(1)
                print(f"-- Redis with appendfsync {fsync}")
                bench_moves(games, rng)
                if fsync == "always":
                    bench_load(games, client, rng)
                    bench_memory(games, client, rng)
            finally:
                server.stop()


def bench_moves(games: Games, rng: random.Random) -> None:
    for players in (3, 6):
        started, moves = time.perf_counter(), 0
        for _ in range(20):
            moves += play_game(games, players, rng)[1]
        elapsed = time.perf_counter() - started
        print(
            f"moves, {players} players: {moves / elapsed:,.0f} moves/s ({1000 * elapsed / moves:.2f} ms/move, "
            f"load, decide, append and project over real Redis, one client)"
        )


def bench_load(games: Games, client: redis.Redis, rng: random.Random) -> None:
    game_id, _ = play_game(games, 6, rng)
    ruleset = RULESETS["twelve-gangsters"]
    snapshot_s = timed(lambda: games.load(game_id))
    store = games.store

    def replay() -> None:
        table = None
        for envelope in store.read(game_id):
            table = tables.evolve(ruleset, table, event_of(envelope), envelope.at)

    replay_s = timed(replay)
    print(
        f"load a finished 6-player game ({store.version(game_id)} events): snapshot {1e3 * snapshot_s:.2f} ms, "
        f"full replay {1e3 * replay_s:.2f} ms (median of 50)"
    )


def bench_memory(games: Games, client: redis.Redis, rng: random.Random) -> None:
    game_id, _ = play_game(games, 6, rng)
    used = sum(
        client.memory_usage(k) or 0 for k in (keys.events(game_id), keys.snapshot(game_id), keys.tokens(game_id))
    )
    print(f"Redis memory for one finished 6-player game: {used / 1024:.1f} KiB (stream + snapshot + tokens)")


def timed(action, runs: int = 50) -> float:  # type: ignore[no-untyped-def]
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


if __name__ == "__main__":
    main()
    sse.main()
