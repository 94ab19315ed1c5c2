"""Each registered player's games: those it holds a seat in, newest first. A read model, fed by every change of
who sits where; kept under the player's hash tag."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

import redis

from events.keys import PREFIX
from events.pipelines import Pipelines
from games.table import Table
from projections.lobby import shows_a_change
from projections.model import Applying, Batching, Change, Notice, ReadModel, Rebuild
from projections.scan import drop


def key(player_id: str) -> str:
    """The games the player holds a seat in, by creation time."""
    return f"{PREFIX}:player:{{{player_id}}}:games"


PATTERNS = (f"{PREFIX}:player:{{*}}:games",)


class PlayerGames(ReadModel, Protocol):
    def games(self, player: str) -> list[str]:
        """The player's games, newest first."""


def seated(table: Table[Any] | None) -> set[str]:
    return {s.player for s in table.seats if s.player} if table else set()


def created_at(table: Table[Any]) -> float:
    return datetime.fromisoformat(table.created_at).timestamp() if table.created_at else 0


class Seated(ABC):
    """What both stores of the players' games do with a change: note who holds a seat in it now, and who left."""

    def fed_by(self, change: Change) -> bool:
        return shows_a_change(change.before, change.after)

    def rebuild(self) -> Rebuild:
        return Applying(self)

    @abstractmethod
    def apply(self, change: Change) -> Sequence[Notice]: ...


class RedisPlayerGames(Seated):
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def apply(self, change: Change) -> Sequence[Notice]:
        """Added when seated, removed when it left."""
        self.apply_many([change])
        return ()

    def rebuild(self) -> Rebuild:
        return Batching(self)

    def apply_many(self, changes: Sequence[Change]) -> None:
        """Every change's players' games, in one round trip per node."""
        batch = Pipelines(self.redis)
        for change in changes:
            after = change.after
            for player in seated(after):
                batch.on(key(player)).zadd(key(player), {after.game_id: created_at(after)})
            for player in seated(change.before) - seated(after):
                batch.on(key(player)).zrem(key(player), after.game_id)
        batch.execute()

    def drop(self) -> int:
        return drop(self.redis, PATTERNS)

    def games(self, player: str) -> list[str]:
        """The player's games, newest first."""
        return [g.decode() for g in self.redis.zrevrange(key(player), 0, -1)]  # type: ignore[union-attr]


class MemoryPlayerGames(Seated):
    def __init__(self) -> None:
        self._games: dict[str, dict[str, float]] = {}
        self._guard = threading.Lock()

    def apply(self, change: Change) -> Sequence[Notice]:
        after = change.after
        with self._guard:
            for player in seated(after):
                self._games.setdefault(player, {})[after.game_id] = created_at(after)
            for player in seated(change.before) - seated(after):
                self._games.get(player, {}).pop(after.game_id, None)
        return ()

    def drop(self) -> int:
        with self._guard:
            dropped = len(self._games)
            self._games.clear()
            return dropped

    def games(self, player: str) -> list[str]:
        with self._guard:
            held = self._games.get(player, {})
            return [g for g, _ in sorted(held.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)]
