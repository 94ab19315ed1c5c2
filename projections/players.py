"""What a registered player follows across games: the games it holds a seat in, and its live feed.

The games list is a read model (dropped and rebuilt from the game logs). The feed is what the player's live
feed tells, a Redis Stream in the player's own slot, written after each decision that concerns the player:
invited (a rematch keeps a seat for the player), seated, game started, decision due (with its deadline), game
finished, game aborted, rating changed. A notice is keyed by game, version and kind, and stored once however
often it is told. The feed keeps the last FEED_LENGTH notices; it is a delivery log, not a read model: a
rebuild leaves it alone, so a client's `Last-Event-ID` stays good.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec
import redis

from events import keys
from games import table as tables
from games.base import Ruleset
from games.table import Status, Table
from projections.ratings import Change, row

FEED_LENGTH = 1000

# KEYS: the feed, the keys of the notices sent (a sorted set, by when). ARGV: the notice's key, its JSON, the
# feed's length. The keys of the last 2 x FEED_LENGTH notices are kept: a notice is told twice within seconds.
_TELL = """
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], '*', 'n', ARGV[2])
redis.call('ZADD', KEYS[2], tonumber(string.match(id, '^(%d+)')), ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[2], 0, -2 * tonumber(ARGV[3]) - 1)
return 1
"""

Notice = tuple[str, str, dict[str, Any]]
"""The player told, the notice's key, the notice."""


def notices(ruleset: Ruleset[Any], before: Table[Any] | None, after: Table[Any]) -> list[Notice]:
    """What a decision that took `before` to `after` tells the players seated at the table."""
    game = {"game_id": after.game_id, "ruleset": after.ruleset, "version": after.version}
    told: list[Notice] = []

    def tell(player: str, kind: str, key: str, **fields: Any) -> None:
        told.append((player, f"{after.game_id}:{key}:{kind}", {"type": kind, **game, **fields}))

    if before is None:  # a rematch keeps a seat for each of the players it invites
        for seat, held in enumerate(after.seats):
            if held.invited:
                tell(held.invited, "invited", str(seat), seat=seat, rematch_of=after.rematch_of)
    seated = {s.player: i for i, s in enumerate(after.seats) if s.player}
    if not seated:
        return told  # a table of anonymous seats and bots tells nobody: a move costs nothing more
    was = {s.player for s in before.seats if s.player} if before else set()
    for player, seat in seated.items():
        if player not in was:
            tell(player, "seated", f"{after.version}:{seat}", seat=seat, status=str(after.status))
    status_changed = before is None or before.status is not after.status
    if status_changed and after.status in (Status.IN_PROGRESS, Status.FINISHED, Status.ABORTED):
        kind = {Status.IN_PROGRESS: "game_started", Status.FINISHED: "game_finished"}.get(after.status, "game_aborted")
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
                tell(player, "decision_due", key, seat=seat, decision=owed[seat], deadline_at=due)
    return told


def rating_notices(ruleset: str, game_id: str, changes: list[Change]) -> list[Notice]:
    """A rating changed by a game, told to its player (bots follow no feed)."""
    return [
        (
            who,
            f"{game_id}:rating:{ruleset}",
            {
                "type": "rating_changed",
                "game_id": game_id,
                "ruleset": ruleset,
                "rating": row(who, after),
                "previous": row(who, before) if before else None,
            },
        )
        for who, before, after in changes
        if not who.startswith("bot:")
    ]


class PlayerProjection:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._tell = client.register_script(_TELL)

    def tell(self, told: list[Notice], at: str) -> None:
        for player, key, notice in told:
            data = msgspec.json.encode({**notice, "at": at})
            self._tell(keys=[keys.player_feed(player), keys.player_feed_sent(player)], args=[key, data, FEED_LENGTH])

    def list_games(self, before: Table[Any] | None, after: Table[Any]) -> None:
        """Keep each player's list of games: added when seated, removed when it left."""
        created = datetime.fromisoformat(after.created_at).timestamp() if after.created_at else 0
        now = {s.player for s in after.seats if s.player}
        gone = {s.player for s in before.seats if s.player} - now if before else set()
        for player in now:
            self.redis.zadd(keys.player_games(player), {after.game_id: created})
        for player in gone:
            self.redis.zrem(keys.player_games(player), after.game_id)

    def games(self, player: str) -> list[str]:
        """The player's games, newest first."""
        return [g.decode() for g in self.redis.zrevrange(keys.player_games(player), 0, -1)]

    def last_id(self, player: str) -> str:
        """The id of the last notice kept ('0' for none)."""
        last: Any = self.redis.xrevrange(keys.player_feed(player), count=1)
        return last[0][0].decode() if last else "0"

    def feed(self, player: str, after: str, block_s: float, count: int = 100) -> list[tuple[str, bytes]]:
        """The notices after stream id `after` ('0': all kept), waiting up to `block_s` for one to land."""
        landed: Any = self.redis.xread({keys.player_feed(player): after}, count=count, block=int(block_s * 1000))
        return [(entry_id.decode(), fields[b"n"]) for entry_id, fields in landed[0][1]] if landed else []
