"""Every Lua script is given keys of one Redis Cluster slot only (a script may touch no other), whatever the
game, the viewer or the read model: checked on every call made during whole games of every ruleset, their
views, a join, players (registered, seated, quick-matched, told, rated), the tallies, a review made in steps and a
rebuild. And the lobby and the ratings are written a few times a game, never once a move (the lobby at most once a
minute besides)."""

from __future__ import annotations

import dataclasses
import hashlib
import time
from collections import Counter
from typing import Any

import pytest
import redis
from redis.crc import key_slot
from rq import Queue

from events import keys, player_store, store
from projections import lobby, notices, ratings
from service.application.house import House
from service.application.rebuild import rebuild_read_models
from service.bootstrap import bootstrap
from service.config import Config
from service.http.app import create_app
from service.ops.redis_server import RedisServer
from service.worker import jobs, scheduler
from service.worker.runner import Worker
from service.worker.scheduler import QUEUES
from tests.client import ApiClient
from tests.judges import scores_judge
from tests.players.helpers import bearer, create, play_first_legal

SCRIPTS = {
    "load": store._LOAD,
    "commit": store._COMMIT,
    "write_documents": store._WRITE_DOCUMENTS,
    "current_fields": store._CURRENT_FIELDS,
    "write_progress": store._WRITE_PROGRESS,
    "lobby": lobby._WRITE,
    "quick_match_release": lobby._RELEASE,
    "ratings": ratings._COUNT,
    "player_commit": player_store._COMMIT,
    "player_claim": player_store._CLAIM,
    "player_tell": notices._TELL,
    "pending_claim": scheduler._CLAIM,
    "pending_clear": scheduler._CLEAR,
    "next_deadline": scheduler._NEXT_DEADLINE,
    "review_hand_on": scheduler._HAND_ON,
}
NOT_IN_THESE_GAMES: set[str] = set()
"""Every script is called: the quick matches' games set a deadline on the wait for players, and on a person's."""
NAMES = {hashlib.sha1(text.encode()).hexdigest(): name for name, text in SCRIPTS.items()}


Calls = list[tuple[str, list[str], list[Any]]]


def note(calls: Calls, sha: str, numkeys: int, keys_and_args: tuple[Any, ...]) -> None:
    given = [k.decode() if isinstance(k, bytes) else str(k) for k in keys_and_args[:numkeys]]
    if any(k.startswith("syndicate:") for k in given):
        calls.append((NAMES.get(sha, sha), given, list(keys_and_args[numkeys:])))


class ScriptRecorder(redis.Redis):
    """The redis-py client, noting the keys and arguments of every script call it made, alone or in a pipeline (a
    call that found the script not loaded yet is made again by redis-py, and counted once)."""

    calls: Calls

    def evalsha(self, sha: str, numkeys: int, *keys_and_args: Any) -> Any:  # type: ignore[override]
        reply = super().evalsha(sha, numkeys, *keys_and_args)
        note(self.calls, sha, numkeys, keys_and_args)
        return reply

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> RecordingPipeline:
        pipe = RecordingPipeline(self.connection_pool, self.response_callbacks, transaction, shard_hint)
        pipe.calls = self.calls
        return pipe


class RecordingPipeline(redis.client.Pipeline):
    calls: Calls

    def evalsha(self, sha: str, numkeys: int, *keys_and_args: Any) -> Any:  # type: ignore[override]
        note(self.calls, sha, numkeys, keys_and_args)
        return super().evalsha(sha, numkeys, *keys_and_args)


@pytest.fixture
def recorder(redis_server: RedisServer, redis_client: redis.Redis) -> ScriptRecorder:
    client = ScriptRecorder.from_url(redis_server.url)
    client.calls = []
    return client


def drain(client: redis.Redis, workshop: jobs.Workshop) -> None:
    queues = [Queue(name, connection=client) for name in QUEUES]
    worker = Worker(queues, connection=client, workshop=workshop)
    while (found := Queue.dequeue_any(queues, None, connection=client)) is not None:
        worker.execute_job(*found)


def test_every_script_call_of_whole_games_keeps_to_one_slot(config: Config, recorder: ScriptRecorder) -> None:
    services = bootstrap(config, client=recorder)
    # As on a Redis Cluster: a move's save is not given its player's state to check the token (another slot), the
    # player is read first. On a plain Redis it is (tests/players/test_token_checked_by_the_save.py).
    services.repository.store.one_server = False
    api = ApiClient(create_app(config, services, TESTING=True).test_client())
    assert isinstance(services.jobs, scheduler.Scheduler)
    # A review judged a decision a step, by the test judge: its progress is kept between each two.
    began = time.time()
    reviewing = dataclasses.replace(services, judge=scores_judge)
    workshop = jobs.Workshop(House(reviewing, stall_s=0.5, review_step_s=0), services.jobs)
    games = [
        api.create(ruleset, seats=[{"bot": "smart"}, *[{"bot": "random"}] * (players - 1)])
        for ruleset, players in (("twelve-gangsters", 4), ("cash-n-guns", 5), ("mobsters", 3))
    ]
    joined = api.create(seats=[{"name": "Ann"}, {"open": True}, {"bot": "random"}])
    assert api.join(joined, "Bob").status_code == 201
    cat, dan = api.register("Cat"), api.register("Dan")
    # A registration that died before writing its player: its claims are taken over, with its marker's key.
    assert services.players.claim_name("Eve", "0123456789abcdef") is player_store.Claim.MADE
    recorder.delete(keys.name_claim_pending("0123456789abcdef"))
    api.register("\u0395ve")  # a Greek capital Epsilon
    assert any(len(given) == 4 for name, given, _ in recorder.calls if name == "player_claim")
    rated = create(api, cat, [{"player": "me"}, {"bot": "smart"}, {"bot": "random"}])
    body = {"ruleset": "mobsters", "seats": 2}
    for token in (cat, dan):
        assert api.http.post("/v1/quick-match", json=body, headers=bearer(token)).status_code in (200, 201)
    drain(recorder, workshop)
    while play_first_legal(api, rated, cat):
        drain(recorder, workshop)
    assert api.result(rated).json["tallied"]
    for table in games:
        api.game(table)
        assert api.result(table).json["tallied"]
    for seat in (None, 0, 1):
        api.game(joined, seat)
    assert api.http.get(f"/v1/games/{games[0].id}/review").status_code == 202
    drain(recorder, workshop)
    assert api.http.get(f"/v1/games/{games[0].id}/review").status_code == 200
    rebuild_read_models(services)
    minutes_begun = int(time.time() // 60) - int(began // 60)
    """The lobby shows the minute of a game's last move: the first move of each new minute writes it again."""

    assert {name for name, _, _ in recorder.calls} == set(SCRIPTS) - NOT_IN_THESE_GAMES
    for name, given, _ in recorder.calls:
        assert len({key_slot(k.encode()) for k in given}) == 1, f"{name} was given keys of several slots: {given}"

    lobby_writes = Counter(str(args[3]) for name, _, args in recorder.calls if name == "lobby")
    board_writes = Counter(str(args[1]) for name, _, args in recorder.calls if name == "ratings")
    for table in games:
        commits = sum(1 for name, given, _ in recorder.calls if name == "commit" and table.id in given[0])
        assert commits > 10
        # Created (and so started), finished, tallied; then once more by the rebuild.
        assert 4 <= lobby_writes[table.id] <= 4 + minutes_begun
    # Rated once, by id, at the tally (a rebuild folds the ratings anew, without this script).
    assert board_writes[rated.id] == 1
    assert 3 <= lobby_writes[joined.id] <= 3 + minutes_begun  # created, joined (and so started), rebuilt
