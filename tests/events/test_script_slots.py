"""Every Lua script is given keys of one Redis Cluster slot only (a script may touch no other), whatever the
game, the viewer or the read model: checked on every call made during whole games of every ruleset, their
views, a join, the tallies and a rebuild. And the lobby and the leaderboard are written a few times a game,
never once a move."""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

import pytest
import redis
from redis.crc import key_slot
from rq import Queue, SimpleWorker

from events import store
from projections import lobby, results
from service import jobs
from service.app import create_app
from service.bootstrap import bootstrap
from service.config import Config
from service.house import House
from service.redis_server import RedisServer
from service.scheduler import QUEUE
from tests.client import ApiClient

SCRIPTS = {
    "load": store._LOAD,
    "commit": store._COMMIT,
    "write_views": store._WRITE_VIEWS,
    "view": store._VIEW,
    "lobby": lobby._WRITE,
    "leaderboard": results._COUNT,
}
NAMES = {hashlib.sha1(text.encode()).hexdigest(): name for name, text in SCRIPTS.items()}


class ScriptRecorder(redis.Redis):
    """The redis-py client, noting the keys and arguments of every script call it made (a call that found the
    script not loaded yet is made again by redis-py, and counted once)."""

    calls: list[tuple[str, list[str], list[Any]]]

    def evalsha(self, sha: str, numkeys: int, *keys_and_args: Any) -> Any:  # type: ignore[override]
        reply = super().evalsha(sha, numkeys, *keys_and_args)
        given = [k.decode() if isinstance(k, bytes) else str(k) for k in keys_and_args[:numkeys]]
        if any(k.startswith("syndicate:") for k in given):
            self.calls.append((NAMES.get(sha, sha), given, list(keys_and_args[numkeys:])))
        return reply


@pytest.fixture
def recorder(redis_server: RedisServer, redis_client: redis.Redis) -> ScriptRecorder:
    client = ScriptRecorder.from_url(redis_server.url)
    client.calls = []
    return client


def drain(client: redis.Redis) -> None:
    queue = Queue(QUEUE, connection=client)
    worker = SimpleWorker([queue], connection=client)
    while (found := Queue.dequeue_any([queue], None, connection=client)) is not None:
        worker.execute_job(*found)


def test_every_script_call_of_whole_games_keeps_to_one_slot(config: Config, recorder: ScriptRecorder) -> None:
    services = bootstrap(config, client=recorder)
    api = ApiClient(create_app(config, services, TESTING=True).test_client())
    jobs.use(House(services, stall_s=0.5))
    games = [
        api.create(ruleset, seats=[{"bot": "smart"}, *[{"bot": "random"}] * (players - 1)])
        for ruleset, players in (("twelve-gangsters", 4), ("cash-n-guns", 5), ("mobsters", 3))
    ]
    joined = api.create(seats=[{"name": "Ann"}, {"open": True}, {"bot": "random"}])
    assert api.join(joined, "Bob").status_code == 201
    drain(recorder)
    for table in games:
        api.game(table)
        assert api.result(table).json["tallied"]
    for seat in (None, 0, 1):
        api.game(joined, seat)
    assert services.projections is not None
    services.projections.rebuild()

    assert {name for name, _, _ in recorder.calls} == set(SCRIPTS)
    for name, given, _ in recorder.calls:
        assert len({key_slot(k.encode()) for k in given}) == 1, f"{name} was given keys of several slots: {given}"

    lobby_writes = Counter(str(args[3]) for name, _, args in recorder.calls if name == "lobby")
    board_writes = Counter(str(args[0]) for name, _, args in recorder.calls if name == "leaderboard")
    for table in games:
        commits = sum(1 for name, given, _ in recorder.calls if name == "commit" and table.id in given[0])
        assert commits > 10
        # Created (and so started), finished, tallied; then once more by the rebuild.
        assert lobby_writes[table.id] == 4
        assert board_writes[table.id] == 2  # counted once, by id, however often it is projected
    assert lobby_writes[joined.id] == 3  # created, joined (and so started), rebuilt
