"""Read models kept from the event logs: each game's views and result (stored with each decision, in the
game's own slot), the lobby and the leaderboard (kept up after a decision, only when what they show changes).

Every write is idempotent by version (or by game, for the leaderboard), so a projection that runs twice, late,
or alongside a rebuild converges. A read that finds a game's views behind its log catches them up first.
`rebuild` drops every read model and replays every log.
"""

from __future__ import annotations

from typing import Any

import redis

from events import keys
from events.repository import Decision, Game, fold, ruleset_of
from events.store import EventStore
from games import table as tables
from games.base import Ruleset
from games.table import Table
from projections import views
from projections.lobby import LobbyProjection, shows_a_change
from projections.results import Leaderboard, encoded_result


def game_models(ruleset: Ruleset[Any], table: Table[Any]) -> tuple[dict[str, bytes], bytes | None]:
    """A game's own read models after a change: every viewer's view, and its result once it is over."""
    return views.render(ruleset, table), encoded_result(ruleset, table)


class Projections:
    def __init__(self, client: redis.Redis, store: EventStore) -> None:
        self.redis = client
        self.store = store
        self.lobby = LobbyProjection(client)
        self.leaderboard = Leaderboard(client)

    def after_save(self, decision: Decision) -> None:
        """Bring the lobby and the leaderboard up to a saved decision, if what they show changed."""
        before = decision.before.table if decision.before else None
        self.share(decision.after.ruleset, before, decision.after.table)

    def share(self, ruleset: Ruleset[Any], before: Table[Any] | None, after: Table[Any]) -> None:
        counts = after.tallied and not (before and before.tallied)
        if not (counts or shows_a_change(before, after)):
            return
        # One call each, not a pipeline: on a Redis Cluster they live in slots of their own (and it is one
        # more round trip once a game, at the tally).
        self.lobby.project(after)
        if counts:
            self.leaderboard.count(ruleset, after)

    def catch_up(self, game: Game) -> None:
        """Write a game's every read model as of its table (a read found them behind, or a rebuild)."""
        found_views, result = game_models(game.ruleset, game.table)
        self.store.write_views(game.game_id, game.version, tables.FORMAT, found_views, result)
        self.share(game.ruleset, None, game.table)

    def drop(self) -> int:
        """Delete every read model; the logs stay. Returns how many keys went."""
        dropped = 0
        for pattern in keys.READ_MODEL_PATTERNS:
            batch = list(self.redis.scan_iter(match=pattern, count=1000))
            for i in range(0, len(batch), 500):
                dropped += self.redis.delete(*batch[i : i + 500])
        return dropped

    def rebuild(self) -> int:
        """Drop every read model and project every game again from its log alone; how many games."""
        self.drop()
        count = 0
        for game_id in list(self.store.game_ids()):
            envelopes = self.store.read(game_id)
            if envelopes:
                ruleset = ruleset_of(envelopes[0])
                table = fold(ruleset, None, envelopes)
                assert table is not None
                self.catch_up(Game(ruleset, table, envelopes[-1].hash))
                count += 1
        return count
