"""A crash of Redis itself loses no acknowledged move: our own Redis writes its AOF before answering."""

from __future__ import annotations

import signal
from pathlib import Path

import redis

from events.store import EventStore
from projections import Projections
from service.games import Caller, Games
from service.redis_server import RedisServer, free_port


def test_every_acknowledged_move_survives_redis_being_killed(tmp_path: Path) -> None:
    server = RedisServer(tmp_path, free_port()).start()
    try:
        games = Games(EventStore(redis.Redis.from_url(server.url)), Projections(redis.Redis.from_url(server.url)))
        game, tokens = games.create("twelve-gangsters", [{"name": n} for n in "ABC"], {"first_boss": 0}, seed=1)
        acknowledged = []
        for card in (1, 2, 3, 4):
            for seat in range(3):
                answer = games.move(game.table.game_id, Caller(token=tokens[seat]), {"type": "play", "card": card})
                acknowledged.append(answer["version"])
        assert server.process is not None
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(timeout=10)
        server.start()  # the same data directory and port
        restarted = Games(EventStore(redis.Redis.from_url(server.url)), Projections(redis.Redis.from_url(server.url)))
        table = restarted.load(game.table.game_id).table
        assert table.version == acknowledged[-1]
        assert table.rules.round == 5
    finally:
        server.stop()
