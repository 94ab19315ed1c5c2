"""Skill ratings per ruleset (openskill's Weng-Lin Plackett-Luce), folded from tallied games in one order.

Who is rated: a registered player (by id) and each bot kind (`bot:random`, `bot:smart`), which anchor the
scale; an anonymous seat is not. A resigned seat ranks below every seat that played on; a seat out of the
running (ranked null by its game) below those ranked; seats equal on rank share it (a shared victory). A bot
seated several times in one game moves by the mean of its seats' updates. A game counts when at least two of
its seats are rated.

The ratings are a fold over the rated games in the order of their tally (its time, then the game id): a game
tallied after every game counted so far is applied to the stored ratings; one that arrives out of that order
(a slow tally job) makes the ruleset's ratings be folded again from every counted game's standings, which are
kept. So the ratings never depend on the order in which jobs ran, and a rebuild from the logs reproduces them
byte for byte. A game is counted once: its id is the key of its standings. Ratings are computed here and stored
by one Lua script on the ruleset's slot, which refuses them if another game was counted meanwhile (then they
are computed again).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec
import redis
from openskill.models import PlackettLuce

from events import keys
from games import table as tables
from games.base import Ruleset
from games.table import Table

MODEL = PlackettLuce()


class Rating(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating the leaderboard ranks by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


class RatedSeat(msgspec.Struct, frozen=True, array_like=True):
    identity: str
    name: str
    rank: int
    won: bool


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    """What a rated game contributes: who sat where, in what rank, in the order key of its tally."""

    game_id: str
    order: str
    seats: tuple[RatedSeat, ...]


def identity(table: Table[Any], seat: int) -> tuple[str, str] | None:
    """Who a seat's rating belongs to and the name shown: a player, a bot kind, or nobody (anonymous)."""
    s = table.seats[seat]
    if s.player is not None and s.name is not None:
        return s.player, s.name
    return (f"bot:{s.bot}", f"bot:{s.bot}") if s.bot is not None else None


def standing_of(ruleset: Ruleset[Any], table: Table[Any], tallied_at: str) -> Standing | None:
    """The game's standings for ratings; None when fewer than two seats are rated, or when the game's randomness is
    public (its creator chose the seed, and could compute every hand: no game a seat could rig is rated)."""
    if tables.randomness(table) == "public":
        return None
    result = ruleset.result(table.rules)

    def place(seat: int) -> tuple[int, int]:
        rank = result.ranks[seat]
        return (2, 0) if seat in table.resigned else (1, 0) if rank is None else (0, rank)

    places = sorted({place(s) for s in range(len(table.seats))})
    seats = []
    for seat in range(len(table.seats)):
        who = identity(table, seat)
        if who is not None:
            won = seat in result.winners and seat not in table.resigned
            seats.append(RatedSeat(who[0], who[1], places.index(place(seat)) + 1, won))
    if len(seats) < 2:
        return None
    return Standing(game_id=table.game_id, order=f"{tallied_at}|{table.game_id}", seats=tuple(seats))


def rate(ratings: Mapping[str, Rating], standing: Standing) -> dict[str, Rating]:
    """The ratings of a game's identities after it."""
    before = {s.identity: ratings.get(s.identity) or Rating(name=s.name) for s in standing.seats}
    teams = [[MODEL.rating(mu=before[s.identity].mu, sigma=before[s.identity].sigma)] for s in standing.seats]
    updated = MODEL.rate(teams, ranks=[s.rank for s in standing.seats])
    after = {}
    for who, old in before.items():
        mine = [team[0] for team, s in zip(updated, standing.seats, strict=True) if s.identity == who]
        won = any(s.won for s in standing.seats if s.identity == who)
        after[who] = msgspec.structs.replace(
            old,
            mu=old.mu + sum(r.mu - old.mu for r in mine) / len(mine),
            sigma=sum(r.sigma for r in mine) / len(mine),
            games=old.games + 1,
            wins=old.wins + won,
        )
    return after


def fold(standings: Iterable[Standing]) -> dict[str, Rating]:
    """Every identity's rating after these games, in the order of their tally."""
    ratings: dict[str, Rating] = {}
    for standing in sorted(standings, key=lambda s: s.order):
        ratings.update(rate(ratings, standing))
    return ratings


Change = tuple[str, Rating | None, Rating]
"""An identity, its rating before a game (None: its first) and after."""

encode = msgspec.json.Encoder().encode


# Count one game, once, on the ratings it was computed from: refused (-1) if another game was counted since
# (the number of counted games moved), 0 if this one was counted already. KEYS: games, ratings, board, order.
# ARGV: the games counted before, the game id, its standings, the new order key, then (identity, rating, ordinal)s.
_COUNT = """
if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 1 then return 0 end
if redis.call('HLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
for i = 5, #ARGV, 3 do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[3], ARGV[i + 2], ARGV[i])
end
redis.call('SET', KEYS[4], ARGV[4])
return 1
"""


class Ratings:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._count = client.register_script(_COUNT)

    def count(self, ruleset: str, standing: Standing) -> list[Change]:
        """Count one game, once; the changes of its identities' ratings (none if it was counted before).
        Computed from the stored ratings, and stored only if no other game was counted meanwhile (else again)."""
        games_key, ratings_key = keys.rated_games(ruleset), keys.ratings(ruleset)
        who = list(dict.fromkeys(s.identity for s in standing.seats))
        while True:
            if self.redis.hexists(games_key, standing.game_id):
                return []
            counted = int(self.redis.hlen(games_key))
            stored = dict(zip(who, self.redis.hmget(ratings_key, who), strict=True))
            before = {k: msgspec.json.decode(v, type=Rating) for k, v in stored.items() if v is not None}
            raw_last: Any = self.redis.get(keys.rating_order(ruleset))
            last = raw_last.decode() if raw_last else ""
            if standing.order > last:
                after = rate(before, standing)
            else:  # out of order: fold the ruleset again from every counted game
                found = [msgspec.json.decode(v, type=Standing) for v in self.redis.hvals(games_key)]
                after = fold([*found, standing])
            written = self._count(
                keys=[games_key, ratings_key, keys.rating_board(ruleset), keys.rating_order(ruleset)],
                args=[counted, standing.game_id, encode(standing), max(standing.order, last), *ratings_args(after)],
            )
            if written == 0:
                return []
            if written == 1:
                return [(k, before.get(k), after[k]) for k in who]

    def rebuild(self, ruleset: str, standings: Sequence[Standing]) -> None:
        """Write a ruleset's ratings folded from these games (after a drop)."""
        if not standings:
            return
        ratings = fold(standings)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(keys.rated_games(ruleset), mapping={s.game_id: encode(s) for s in standings})
        pipe.hset(keys.ratings(ruleset), mapping={k: encode(r) for k, r in ratings.items()})
        pipe.zadd(keys.rating_board(ruleset), {k: r.ordinal for k, r in ratings.items()})
        pipe.set(keys.rating_order(ruleset), max(s.order for s in standings))
        pipe.execute()

    def board(self, ruleset: str, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """How many identities are rated, and one page of them, best first."""
        total = int(self.redis.zcard(keys.rating_board(ruleset)))
        if offset >= total:
            return total, []
        ids = [i.decode() for i in self.redis.zrevrange(keys.rating_board(ruleset), offset, offset + limit - 1)]
        found = self.redis.hmget(keys.ratings(ruleset), ids) if ids else []
        rows = [row(i, msgspec.json.decode(r, type=Rating)) for i, r in zip(ids, found, strict=True) if r]
        return total, [{"rank": offset + n + 1, **r} for n, r in enumerate(rows)]

    def of(self, rulesets: Iterable[str], who: str) -> dict[str, dict[str, Any]]:
        """An identity's rating in each ruleset it has played."""
        found = {}
        for ruleset in rulesets:
            raw = self.redis.hget(keys.ratings(ruleset), who)
            if raw:
                found[ruleset] = row(who, msgspec.json.decode(raw, type=Rating))
        return found


def ratings_args(ratings: Mapping[str, Rating]) -> list[Any]:
    return [item for who, r in ratings.items() for item in (who, encode(r), r.ordinal)]


def row(who: str, rating: Rating) -> dict[str, Any]:
    """A rating as the API shows it."""
    kind = "bot" if who.startswith("bot:") else "player"
    return {
        kind: who if kind == "player" else who.removeprefix("bot:"),
        "name": rating.name,
        "rating": round(rating.ordinal, 3),
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "games": rating.games,
        "wins": rating.wins,
    }
