"""A new read model is its module and one registration: fed by every saved decision, dropped and rebuilt from the
logs with the others, by the same code, in Redis and in memory alike. This one is thrown away: each game's status
and version, as of the last change it was fed."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import msgspec
import redis

from projections import MODELS, Projections, Registration
from projections.model import Applying, Batching, Change, Notice
from projections.scan import drop
from service.application import play
from service.application.callers import Caller
from service.application.rebuild import rebuild_read_models
from service.application.services import Services
from service.bootstrap import bootstrap

KEY = "syndicate:{throwaway}:versions"


def shown(change: Change) -> bytes:
    return msgspec.json.encode([str(change.after.status), change.after.version])


class RedisVersions:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def fed_by(self, change: Change) -> bool:
        return True

    def apply(self, change: Change) -> Sequence[Notice]:
        self.redis.hset(KEY, change.after.game_id, shown(change))
        return ()

    def rebuild(self) -> Applying:
        return Applying(self)

    def drop(self) -> int:
        return drop(self.redis, [KEY])

    def of(self, game_id: str) -> list[object]:
        found = self.redis.hget(KEY, game_id)
        return msgspec.json.decode(found) if found else []  # type: ignore[arg-type]


class MemoryVersions:
    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def fed_by(self, change: Change) -> bool:
        return True

    def apply(self, change: Change) -> Sequence[Notice]:
        self.kept[change.after.game_id] = shown(change)
        return ()

    def rebuild(self) -> Applying:
        return Applying(self)

    def drop(self) -> int:
        dropped = len(self.kept)
        self.kept.clear()
        return dropped

    def of(self, game_id: str) -> list[object]:
        return msgspec.json.decode(self.kept[game_id]) if game_id in self.kept else []


REGISTRY = (*MODELS, Registration("versions", lambda client, _: RedisVersions(client), MemoryVersions, (KEY,)))


def with_registry(services: Services, projections: Projections) -> Services:
    followers = [projections if f is services.projections else f for f in services.followers]
    return dataclasses.replace(services, projections=projections, followers=followers)


def play_a_game(services: Services) -> str:
    created = play.create_game(services, "twelve-gangsters", [{"name": n} for n in "ABC"], {"first_boss": 0}, None)
    for card in (1, 2):
        for seat in range(3):
            body = {"type": "play", "card": card}
            play.make_move(services, created.game.game_id, Caller(token=created.handed[seat]), body)
    return created.game.game_id


def check(services: Services) -> None:
    game_id = play_a_game(services)
    versions = services.projections.models["versions"]
    live = versions.of(game_id)  # type: ignore[attr-defined]
    assert live == ["in_progress", services.repository.get(game_id).version]
    assert rebuild_read_models(services) == 1
    assert versions.of(game_id) == live  # type: ignore[attr-defined]


def test_a_read_model_registered_alone_is_kept_and_rebuilt_in_memory() -> None:
    services = Services.in_memory()
    repository = services.repository
    check(with_registry(services, Projections.in_memory(repository.store, REGISTRY)))


def test_a_read_model_registered_alone_is_kept_and_rebuilt_in_redis(redis_client: redis.Redis) -> None:
    services = bootstrap(client=redis_client)
    check(with_registry(services, Projections.on_redis(redis_client, services.repository.store, REGISTRY)))


def test_a_batching_rebuild_writes_every_change_fed_a_batch_at_a_time() -> None:
    written: list[list[int]] = []

    class Writes:
        def apply_many(self, changes: Sequence[Change]) -> None:
            written.append([c.after.version for c in changes])

    services = Services.in_memory()
    game = services.repository.get(play_a_game(services))
    rebuild = Batching(Writes(), size=2)
    for _ in range(5):
        rebuild.add(Change(game.ruleset, None, game.table, ""))
    assert len(written) == 2
    rebuild.finish()
    rebuild.finish()  # nothing held: nothing written
    assert written == [[game.version] * 2, [game.version] * 2, [game.version]]
