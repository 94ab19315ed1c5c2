"""What keeps one client from stalling everyone: a limit on the unfinished games a client holds, and admission
control on new games while the job queue is deeper than the workers can serve.

A client is a player (by its id) or, for anonymous requests, an address: it holds the games it created or took a
seat in, until each is finished or aborted. New games are refused (OverloadedError, which says when to come back)
while the work queued ahead of their first job would take the workers more than `Limits.admission_s` seconds at
their pace of the last seconds (never assumed slower than `Limits.min_pace`, so that an idle queue with no pace
measured yet admits).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass

import redis

from events import keys
from projections.lobby import Lobby
from service.application.errors import OverloadedError, TooManyGamesError
from service.application.ports import Holdings, JobQueue

DONE = {"finished", "aborted"}


@dataclass(frozen=True)
class Limits:
    """`games_per_address`, `games_per_player`: the unfinished games an anonymous client (by address) and a player
    may hold. `admission_s`: the seconds of queued work beyond which new games wait; `min_pace`: the jobs a
    second the workers are assumed to do at least."""

    games_per_address: int = 20
    games_per_player: int = 20
    admission_s: float = 5.0
    min_pace: float = 20.0


class RedisHoldings:
    """Each client's games, pruned of those over as they are counted (the lobby says which are)."""

    def __init__(self, client: redis.Redis, lobby: Lobby) -> None:
        self.redis = client
        self.lobby = lobby

    def unfinished(self, holder: str) -> int:
        """How many of the client's games are neither finished nor aborted (one not in the lobby yet counts)."""
        key = keys.holdings(holder)
        held = [g.decode() for g in self.redis.zrange(key, 0, -1)]  # type: ignore[union-attr]
        status = {e["game_id"]: e["status"] for e in self.lobby.entries(held)}
        over = [g for g in held if status.get(g) in DONE]
        if over:
            self.redis.zrem(key, *over)
        return len(held) - len(over)

    def hold(self, holder: str, game_ids: Iterable[str]) -> None:
        ids = {game_id: time.time() for game_id in game_ids}
        if ids:
            self.redis.zadd(keys.holdings(holder), ids)


class MemoryHoldings:
    """Each client's games in memory, pruned the same way."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self._held: dict[str, set[str]] = {}
        self._guard = threading.Lock()

    def unfinished(self, holder: str) -> int:
        with self._guard:
            held = sorted(self._held.get(holder, set()))
        over = {e["game_id"] for e in self.lobby.entries(held) if e["status"] in DONE}
        with self._guard:
            self._held.get(holder, set()).difference_update(over)
        return len(held) - len(over)

    def hold(self, holder: str, game_ids: Iterable[str]) -> None:
        with self._guard:
            self._held.setdefault(holder, set()).update(game_ids)


def limit_of(limits: Limits, holder: str) -> int:
    return limits.games_per_player if holder.startswith("player:") else limits.games_per_address


def check_holdings(holdings: Holdings, limits: Limits, holder: str | None) -> None:
    """TooManyGamesError if the client holds as many unfinished games as it may."""
    if holder is None:
        return
    limit = limit_of(limits, holder)
    if holdings.unfinished(holder) >= limit:
        who = "a player" if holder.startswith("player:") else "one address"
        raise TooManyGamesError(f"{who} may hold {limit} unfinished games at most: finish, resign or abort one first")


def admit(jobs: JobQueue, limits: Limits, all_bots: bool, now: float | None = None) -> None:
    """OverloadedError, with the seconds to wait, if a new game's jobs would wait behind more work than the workers
    do in `admission_s` seconds."""
    now = time.time() if now is None else now
    depth = jobs.depth(all_bots)
    if depth == 0:
        return
    pace = max(jobs.pace(now), limits.min_pace)
    wait_s = depth / pace
    if wait_s > limits.admission_s:
        retry = max(1, math.ceil(wait_s - limits.admission_s))
        raise OverloadedError(
            f"the house is {wait_s:.0f} s behind with the games under way; create this one in {retry} s",
            retry_after_s=retry,
        )
