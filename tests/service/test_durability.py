"""A crash of Redis itself loses no acknowledged move: our own Redis writes its AOF before answering."""

from __future__ import annotations

import signal
from pathlib import Path

import redis

from service.application.callers import Caller
from service.application.play import create_game, make_move
from service.bootstrap import bootstrap
from service.ops.redis_server import RedisServer, free_port


def test_every_acknowledged_move_survives_redis_being_killed(tmp_path: Path) -> None:
    server = RedisServer(tmp_path, free_port()).start()
    try:
        services = bootstrap(client=redis.Redis.from_url(server.url))
        seats = [{"name": n} for n in "ABC"]
        created = create_game(services, "twelve-gangsters", seats, {"first_boss": 0}, seed=1)
        game_id, tokens = created.game.game_id, created.handed
        acknowledged = []
        for card in (1, 2, 3, 4):
            for seat in range(3):
                moved = make_move(services, game_id, Caller(token=tokens[seat]), {"type": "play", "card": card})
                acknowledged.append(moved.version)
        assert server.process is not None
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(timeout=10)
        server.start()  # the same data directory and port
        restarted = bootstrap(client=redis.Redis.from_url(server.url))
        table = restarted.repository.get(game_id).table
        assert table.version == acknowledged[-1]
        assert table.rules.round == 5
    finally:
        server.stop()
