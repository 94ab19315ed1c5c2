"""Read models kept from the event logs: each game's views and result (stored with each decision, in the
game's own slot), the lobby, the ratings and each player's games (kept up after a decision, only when what
they show changes), and each player's feed of notices.

Every write is idempotent by version (or by game, for the ratings), so a projection that runs twice, late,
or alongside a rebuild converges. A read that finds a game's views behind its log catches them up first.
`rebuild` drops every read model and replays every game's log.
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
from projections.players import PlayerProjection, notices, rating_notices
from projections.ratings import Ratings, Standing, standing_of
from projections.results import encoded_result


def game_models(ruleset: Ruleset[Any], table: Table[Any]) -> tuple[dict[str, bytes], bytes | None]:
    """A game's own read models after a change: every viewer's view, and its result once it is over."""
    return views.render(ruleset, table), encoded_result(ruleset, table)


class Projections:
    def __init__(self, client: redis.Redis, store: EventStore) -> None:
        self.redis = client
        self.store = store
        self.lobby = LobbyProjection(client, self.table_of)
        self.ratings = Ratings(client)
        self.players = PlayerProjection(client)

    def after_save(self, decision: Decision) -> None:
        """Bring the lobby, the ratings and the players up to a saved decision, if what they show changed;
        tell the players seated what concerns them."""
        before = decision.before.table if decision.before else None
        after, at = decision.after.table, decision.envelopes[-1].at
        told = notices(decision.after.ruleset, before, after)
        told += self.share(decision.after.ruleset, before, after, at)
        self.players.tell(told, at)

    def share(self, ruleset: Ruleset[Any], before: Table[Any] | None, after: Table[Any], at: str) -> list:
        """Write the lobby, the players' games and (once tallied, at `at`) the ratings; the rating notices."""
        counts = after.tallied and not (before and before.tallied)
        if not (counts or shows_a_change(before, after)):
            return []
        self.lobby.project(after)
        self.players.list_games(before, after)
        standing = standing_of(ruleset, after, at) if counts else None
        if standing is None:
            return []
        return rating_notices(ruleset.id, after.game_id, self.ratings.count(ruleset.id, standing))

    def table_of(self, game_id: str) -> Table[Any] | None:
        """A game's table, folded from its log alone; None for a game with no log."""
        envelopes = self.store.read(game_id)
        return fold(ruleset_of(envelopes[0]), None, envelopes) if envelopes else None

    def catch_up(self, game: Game) -> None:
        """Write a game's every read model as of its table (a read found them behind, or a rebuild)."""
        found_views, result = game_models(game.ruleset, game.table)
        self.store.write_views(game.game_id, game.version, tables.FORMAT, found_views, result)
        self.share(game.ruleset, None, game.table, self.tallied_at(game))

    def tallied_at(self, game: Game) -> str:
        """When the game was tallied (its ratings' order), '' if it has not been."""
        if not game.table.tallied:
            return ""
        [tally] = self.store.read(game.game_id, after=game.table.status_since - 1, limit=1)
        return tally.at

    def drop(self) -> int:
        """Delete every read model; the logs stay. Returns how many keys went."""
        dropped = 0
        for pattern in keys.READ_MODEL_PATTERNS:
            batch = list(self.redis.scan_iter(match=pattern, count=1000))
            for i in range(0, len(batch), 500):
                dropped += self.redis.delete(*batch[i : i + 500])
        return dropped

    def rebuild(self) -> int:
        """Drop every read model and project every game again from its log alone, the ratings folded once at
        the end from every tallied game. How many games. (The players are rewritten from their own logs beside it:
        events.player_store.rewrite_players.)"""
        self.drop()
        count = 0
        standings: dict[str, list[Standing]] = {}
        for game_id in list(self.store.game_ids()):
            envelopes = self.store.read(game_id)
            if envelopes:
                ruleset = ruleset_of(envelopes[0])
                table = fold(ruleset, None, envelopes)
                assert table is not None
                game = Game(ruleset, table, envelopes[-1].hash)
                found_views, result = game_models(ruleset, table)
                self.store.write_views(game_id, table.version, tables.FORMAT, found_views, result)
                self.lobby.project(table)
                self.players.list_games(None, table)
                standing = standing_of(ruleset, table, self.tallied_at(game)) if table.tallied else None
                if standing is not None:
                    standings.setdefault(ruleset.id, []).append(standing)
                count += 1
        for ruleset_id, found in standings.items():
            self.ratings.rebuild(ruleset_id, found)
        return count
