"""Read models kept from the event streams: views, lobby, results, leaderboard.

They run in the command path, right after an append, so a client reads its own writes; each write
is idempotent by version (or by game, for the leaderboard), so running a projector twice, late, or
concurrently with a rebuild converges to the same read models. A read that finds a view behind the
log projects the game first. `rebuild` drops every read model and replays every stream.
"""

from __future__ import annotations

from typing import Any

import redis

from events import keys
from events.store import EventStore
from games.base import Ruleset
from games.table import Table
from projections.lobby import LobbyProjection
from projections.replay import fold, ruleset_of
from projections.results import ResultProjection
from projections.views import ViewProjection


class Projections:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self.views = ViewProjection(client)
        self.lobby = LobbyProjection(client)
        self.results = ResultProjection(client)

    def project(self, ruleset: Ruleset[Any], table: Table[Any]) -> None:
        """Bring every read model of this game up to the table's version, in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        self.views.project(ruleset, table, pipe)
        self.lobby.project(table, pipe)
        self.results.project(ruleset, table, pipe)
        pipe.execute()

    def drop(self) -> int:
        """Delete every read model; the streams stay. Returns how many keys went."""
        dropped = 0
        for pattern in keys.READ_MODEL_PATTERNS:
            batch = list(self.redis.scan_iter(match=pattern, count=1000))
            for i in range(0, len(batch), 500):
                dropped += self.redis.delete(*batch[i : i + 500])
        return dropped

    def rebuild(self, store: EventStore) -> int:
        """Drop every read model and project every game again from its stream alone."""
        self.drop()
        games = 0
        for stream in self.redis.scan_iter(match=keys.GAME_STREAMS, count=1000):
            envelopes = store.read(keys.game_id_of_stream(stream.decode()))
            if envelopes:
                ruleset = ruleset_of(envelopes[0])
                table = fold(ruleset, None, envelopes)
                assert table is not None
                self.project(ruleset, table)
                games += 1
        return games
