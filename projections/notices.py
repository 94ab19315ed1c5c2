"""What a registered player's live feed tells, across its games: the notices each change makes for the players seated.

The feed is a Redis Stream in the player's own slot, written with each decision that concerns the player (by its
save, on a plain Redis: `entries`, `Commit.notices`) or right after it (on a Redis Cluster, and a rating's change):
invited (a rematch keeps a seat for the player), seated, started, decision due (with its deadline and the seat's
legal moves), finished, aborted, rating changed. A notice is keyed by game, version and kind, and stored once however
often it is told (events/feeds.py). The feed keeps the last FEED_LENGTH notices; it is a delivery log, not a read
model: a rebuild leaves it alone, so a client's `Last-Event-ID` stays good.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any, Protocol

import msgspec
import redis

from events.feeds import APPEND_ONCE, Entry
from events.keys import PREFIX
from events.outbox import open_for
from events.pipelines import Pipelines
from games import table as tables
from games.base import Ruleset
from games.table import Status, Table
from projections.model import Notice
from projections.notice_types import (
    AbortedNotice,
    DecisionDueNotice,
    FinishedNotice,
    GameNotice,
    InvitedNotice,
    SeatedNotice,
    StartedNotice,
)

FEED_LENGTH = 1000

encode = msgspec.json.Encoder().encode

# KEYS: the feed, the keys of the notices sent (a sorted set, by when). ARGV: the notice's key, its JSON, the
# feed's length.
_TELL = APPEND_ONCE + "return append_once(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3])\n"


def feed_key(player_id: str) -> str:
    """What the player's live feed tells (seated, started, decision due, finished, rating changed)."""
    return f"{PREFIX}:player:{{{player_id}}}:feed"


def sent_key(player_id: str) -> str:
    """Which notices the feed already holds, so one told twice is stored once."""
    return f"{PREFIX}:player:{{{player_id}}}:feed-sent"


def notices(ruleset: Ruleset[Any], before: Table[Any] | None, after: Table[Any]) -> list[Notice]:
    """What a decision that took `before` to `after` tells the players seated at the table."""
    told: list[Notice] = []

    def tell(player: str, kind: type[GameNotice], key: str, **fields: Any) -> None:
        notice = kind(game_id=after.game_id, ruleset=after.ruleset, version=after.version, **fields)
        told.append((player, f"{after.game_id}:{key}:{kind.__struct_config__.tag}", notice))

    if before is None:  # a rematch keeps a seat for each of the players it invites
        for seat, held in enumerate(after.seats):
            if held.invited:
                tell(held.invited, InvitedNotice, str(seat), seat=seat, rematch_of=after.rematch_of)
    seated = {s.player: i for i, s in enumerate(after.seats) if s.player}
    if not seated:
        return told  # a table of anonymous seats and bots tells nobody: a move costs nothing more
    was = {s.player for s in before.seats if s.player} if before else set()
    for player, seat in seated.items():
        if player not in was:
            tell(player, SeatedNotice, f"{after.version}:{seat}", seat=seat, status=after.status)
    status_changed = before is None or before.status is not after.status
    if status_changed and after.status in (Status.IN_PROGRESS, Status.FINISHED, Status.ABORTED):
        ended: dict[Status, type[GameNotice]] = {Status.IN_PROGRESS: StartedNotice, Status.FINISHED: FinishedNotice}
        kind = ended.get(after.status, AbortedNotice)
        result = ruleset.result(after.rules) if after.status is Status.FINISHED else None
        for player, seat in seated.items():
            extra = {"rank": result.ranks[seat], "winners": list(result.winners)} if result else {}
            tell(player, kind, str(after.status_since), seat=seat, **extra)
    if after.status is Status.IN_PROGRESS:
        owed = ruleset.awaiting(after.rules)
        owed_before = ruleset.awaiting(before.rules) if before and before.rules is not None else {}
        new_wait = before is None or before.wait_since != after.wait_since
        due = tables.deadline_at(ruleset, after)
        for player, seat in seated.items():
            fresh = new_wait or owed_before.get(seat) != owed.get(seat)
            if seat in owed and fresh and seat not in after.resigned:
                key = f"{after.wait_since}:{seat}:{owed[seat]}"
                tell(
                    player,
                    DecisionDueNotice,
                    key,
                    seat=seat,
                    decision=owed[seat],
                    simultaneous=owed[seat] in ruleset.simultaneous,
                    deadline_at=due,
                    legal_moves=ruleset.legal_moves(after.rules, seat),
                )
    return told


class Notices(Protocol):
    """Each player's feed of notices."""

    def tell(self, told: Sequence[Notice], at: str) -> None:
        """Keep each notice on its player's feed, once however often it is told."""

    def last_id(self, player: str) -> str:
        """The id of the last notice kept ('0' for none)."""

    def feed(self, player: str, after: str, block_s: float, count: int = 100) -> list[tuple[str, bytes]]:
        """The notices after id `after` ('0': all kept), waiting up to `block_s` for one to land."""


def entries(told: Sequence[Notice], at: str) -> list[Entry]:
    """The notices as their players' feeds keep them, told at `at`."""
    return [
        Entry(feed_key(player), sent_key(player), key, encode(msgspec.structs.replace(notice, at=at)), FEED_LENGTH)
        for player, key, notice in told
    ]


class RedisNotices:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._tell = client.register_script(_TELL)

    def tell(self, told: Sequence[Notice], at: str) -> None:
        """One round trip per node for a decision's notices, not one apiece: a round's new wait tells every
        player seated at once. A player's notices share its node's pipeline, so they land in the order told. On a
        plain Redis they go with the decision's other followers' writes, where those are sent together."""
        if not told:
            return
        outbox = open_for(self.redis)
        batch = outbox or Pipelines(self.redis)
        for entry in entries(told, at):
            batch.script(self._tell, [entry.feed, entry.sent], [entry.key, entry.data, entry.length])
        if isinstance(batch, Pipelines):
            batch.execute()

    def last_id(self, player: str) -> str:
        """The id of the last notice kept ('0' for none)."""
        last: Any = self.redis.xrevrange(feed_key(player), count=1)
        return last[0][0].decode() if last else "0"

    def feed(self, player: str, after: str, block_s: float, count: int = 100) -> list[tuple[str, bytes]]:
        """The notices after stream id `after` ('0': all kept), waiting up to `block_s` for one to land."""
        landed: Any = self.redis.xread({feed_key(player): after}, count=count, block=int(block_s * 1000))
        return [(entry_id.decode(), fields[b"n"]) for entry_id, fields in landed[0][1]] if landed else []


class MemoryNotices:
    """The feeds in memory, numbered as Redis numbers a stream's entries (`<milliseconds>-<sequence>`)."""

    def __init__(self) -> None:
        self._feeds: dict[str, list[tuple[tuple[int, int], bytes]]] = {}
        self._sent: dict[str, set[str]] = {}
        self._landed = threading.Condition()

    def tell(self, told: Sequence[Notice], at: str) -> None:
        with self._landed:
            for player, key, notice in told:
                if key in self._sent.setdefault(player, set()):
                    continue
                self._sent[player].add(key)
                feed = self._feeds.setdefault(player, [])
                now = int(time.time() * 1000)
                last = feed[-1][0] if feed else (0, 0)
                entry = (now, 0) if now > last[0] else (last[0], last[1] + 1)
                feed.append((entry, encode(msgspec.structs.replace(notice, at=at))))
                del feed[:-FEED_LENGTH]
            self._landed.notify_all()

    def last_id(self, player: str) -> str:
        with self._landed:
            feed = self._feeds.get(player)
            return "{}-{}".format(*feed[-1][0]) if feed else "0"

    def feed(self, player: str, after: str, block_s: float, count: int = 100) -> list[tuple[str, bytes]]:
        ms, _, seq = after.partition("-")
        since = (int(ms), int(seq or 0))

        def landed() -> list[tuple[str, bytes]]:
            found = [(e, n) for e, n in self._feeds.get(player, []) if e > since][:count]
            return [(f"{e[0]}-{e[1]}", n) for e, n in found]

        with self._landed:
            self._landed.wait_for(lambda: bool(landed()), timeout=block_s)
            return landed()
