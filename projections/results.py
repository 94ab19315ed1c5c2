"""Results of finished games (stored with the game), and the leaderboard across them by player name."""

from __future__ import annotations

from typing import Any

import msgspec
import redis

from events import keys
from games.base import Ruleset
from games.table import Status, Table

# A game counts once per leaderboard, however often it is projected.
_COUNT = """
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
for i = 2, #ARGV, 3 do
  redis.call('HINCRBY', KEYS[2], ARGV[i] .. ':games', 1)
  redis.call('HINCRBY', KEYS[2], ARGV[i] .. ':wins', ARGV[i + 1])
  redis.call('HINCRBY', KEYS[2], ARGV[i] .. ':points', ARGV[i + 2])
end
return 1
"""


def player_name(table: Table[Any], seat: int) -> str:
    """Who sat there, for the leaderboard: a player's name, or the kind of bot."""
    s = table.seats[seat]
    return s.name if s.name is not None else f"bot:{s.bot}"


def result_of(ruleset: Ruleset[Any], table: Table[Any]) -> dict[str, Any]:
    """The final tally of a finished game as the API shows it."""
    seats = [{"seat": i, **msgspec.to_builtins(s)} for i, s in enumerate(table.seats)]
    head = {
        "game_id": table.game_id,
        "ruleset": table.ruleset,
        "version": table.version,
        "tallied": table.tallied,
        "seats": seats,
    }
    return {**head, **msgspec.to_builtins(ruleset.result(table.rules))}


def encoded_result(ruleset: Ruleset[Any], table: Table[Any]) -> bytes | None:
    """The result read model of a game: stored with the decision once the game is over."""
    return msgspec.json.encode(result_of(ruleset, table)) if table.status is Status.FINISHED else None


class Leaderboard:
    """Each ruleset's standings across its tallied games, by player name."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._count = client.register_script(_COUNT)

    def count(self, ruleset: Ruleset[Any], table: Table[Any], pipe: redis.client.Pipeline | None = None) -> None:
        """Count a tallied game on its ruleset's leaderboard, once however often it is counted."""
        result = result_of(ruleset, table)
        args: list[Any] = [table.game_id]
        for seat, score in enumerate(result["scores"]):
            args += [player_name(table, seat), int(seat in result["winners"]), score]
        keys_ = [keys.leaderboard_counted(table.ruleset), keys.leaderboard_stats(table.ruleset)]
        self._count(keys=keys_, args=args, client=pipe)

    def standings(self, ruleset: str) -> list[dict[str, Any]]:
        """Players by wins, then points, then games played (fewer first); equals share a rank."""
        stats: dict[str, dict[str, Any]] = {}
        for field, value in self.redis.hgetall(keys.leaderboard_stats(ruleset)).items():
            name, _, stat = field.decode().rpartition(":")
            stats.setdefault(name, {"player": name})[stat] = int(value)

        def standing(row: dict[str, Any]) -> tuple[int, int, int]:
            return -row["wins"], -row["points"], row["games"]

        rows = sorted(stats.values(), key=lambda r: (*standing(r), r["player"]))
        ranks = [next(j for j, other in enumerate(rows) if standing(other) == standing(row)) + 1 for row in rows]
        return [{"rank": rank, **row} for rank, row in zip(ranks, rows, strict=True)]
