"""A crash of Redis itself loses no acknowledged move: our own Redis writes its AOF before answering."""

from __future__ import annotations

import signal
from pathlib import Path

import redis

from service.application.play import Caller, create_game, make_move
from service.bootstrap import bootstrap
from service.ops.redis_server import RedisServer, free_port
from tests.service.read_models import version_of


def test_every_acknowledged_move_survives_redis_being_killed(tmp_path: Path) -> None:
    server = RedisServer(tmp_path, free_port()).start()
    try:
        services = bootstrap(client=redis.Redis.from_url(server.url))
        seats = [{"name": n} for n in "ABC"]
        saved, tokens = create_game(services, "twelve-gangsters", seats, {"first_boss": 0}, seed=1)
        game_id = saved.game.game_id
        acknowledged = []
        for card in (1, 2, 3, 4):
            for seat in range(3):
                answer = make_move(services, game_id, Caller(token=tokens[seat]), {"type": "play", "card": card})
                acknowledged.append(version_of(answer))
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
