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

import threading
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import msgspec
import redis
from openskill.models import PlackettLuce

from events.keys import PREFIX
from games import table as tables
from games.base import Ruleset
from games.table import Table
from projections.model import Change, Notice, ReadModel
from projections.notice_types import RatingChangedNotice
from projections.scan import drop

MODEL = PlackettLuce()


def ratings_key(ruleset: str) -> str:
    """A ruleset's ratings: identity (`<player id>`, `bot:<kind>`) -> JSON. Its keys share `{ratings:<ruleset>}`."""
    return f"{PREFIX}:{{ratings:{ruleset}}}:ratings"


def games_key(ruleset: str) -> str:
    """Each rated game's standings (JSON), by game id: what the ratings are folded from."""
    return f"{PREFIX}:{{ratings:{ruleset}}}:games"


def board_key(ruleset: str) -> str:
    """Identities by ordinal (mu - 3 sigma), for the paged leaderboard."""
    return f"{PREFIX}:{{ratings:{ruleset}}}:board"


def order_key(ruleset: str) -> str:
    """The order key (tally time, game id) of the last game the ruleset's ratings were folded to."""
    return f"{PREFIX}:{{ratings:{ruleset}}}:order"


PATTERNS = (f"{PREFIX}:{{ratings:*}}:*",)


class Ratings(ReadModel, Protocol):
    """What the use cases read of the ratings."""

    def board(self, ruleset: str, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """How many identities are rated, and one page of them, best first."""

    def of(self, rulesets: Iterable[str], who: str) -> dict[str, dict[str, Any]]:
        """An identity's rating in each ruleset it has played."""

    def rows(self, ruleset: str, whos: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The ratings of these identities in one ruleset, each that has played it, in one read."""


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


Moved = tuple[str, Rating | None, Rating]
"""An identity, its rating before a game (None: its first) and after."""

encode = msgspec.json.Encoder().encode


def newly_tallied(change: Change) -> bool:
    """A game counts once it is tallied (a catch-up or a rebuild feeds its tallied table from nothing)."""
    return change.after.tallied and not (change.before and change.before.tallied)


def rating_notices(ruleset: str, game_id: str, moved: list[Moved]) -> list[Notice]:
    """A rating changed by a game, told to its player (bots follow no feed)."""
    return [
        (
            who,
            f"{game_id}:rating:{ruleset}",
            RatingChangedNotice(
                game_id=game_id,
                ruleset=ruleset,
                rating=row(who, after),
                previous=row(who, before) if before else None,
            ),
        )
        for who, before, after in moved
        if not who.startswith("bot:")
    ]


class Folding:
    """A rebuild of the ratings: every tallied game's standings, folded once per ruleset at the end."""

    def __init__(self, ratings: RatedGames) -> None:
        self.ratings = ratings
        self.standings: dict[str, list[Standing]] = {}

    def add(self, change: Change) -> None:
        standing = standing_of(change.ruleset, change.after, change.at) if change.after.tallied else None
        if standing is not None:
            self.standings.setdefault(change.ruleset.id, []).append(standing)

    def finish(self) -> None:
        for ruleset, standings in self.standings.items():
            self.ratings.write(ruleset, standings)


class RatedGames(ABC):
    """What both stores of the ratings do with a change they are fed: count its game, once, and tell its players."""

    @abstractmethod
    def count(self, ruleset: str, standing: Standing) -> list[Moved]:
        """Count one game, once; the changes of its identities' ratings (none if it was counted before)."""

    @abstractmethod
    def write(self, ruleset: str, standings: Sequence[Standing]) -> None:
        """Write a ruleset's ratings folded from these games (after a drop)."""

    def fed_by(self, change: Change) -> bool:
        return newly_tallied(change)

    def apply(self, change: Change) -> Sequence[Notice]:
        standing = standing_of(change.ruleset, change.after, change.at)
        if standing is None:
            return ()
        ruleset = change.ruleset.id
        return rating_notices(ruleset, change.after.game_id, self.count(ruleset, standing))

    def rebuild(self) -> Folding:
        return Folding(self)


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


class RedisRatings(RatedGames):
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._count = client.register_script(_COUNT)

    def drop(self) -> int:
        return drop(self.redis, PATTERNS)

    def count(self, ruleset: str, standing: Standing) -> list[Moved]:
        """Count one game, once; the changes of its identities' ratings (none if it was counted before).
        Computed from the stored ratings, and stored only if no other game was counted meanwhile (else again)."""
        games, ratings = games_key(ruleset), ratings_key(ruleset)
        who = list(dict.fromkeys(s.identity for s in standing.seats))
        while True:
            if self.redis.hexists(games, standing.game_id):
                return []
            counted = int(self.redis.hlen(games))
            stored = dict(zip(who, self.redis.hmget(ratings, who), strict=True))
            before = {k: msgspec.json.decode(v, type=Rating) for k, v in stored.items() if v is not None}
            raw_last: Any = self.redis.get(order_key(ruleset))
            last = raw_last.decode() if raw_last else ""
            if standing.order > last:
                after = rate(before, standing)
            else:  # out of order: fold the ruleset again from every counted game
                found = [msgspec.json.decode(v, type=Standing) for v in self.redis.hvals(games)]
                after = fold([*found, standing])
            written = self._count(
                keys=[games, ratings, board_key(ruleset), order_key(ruleset)],
                args=[counted, standing.game_id, encode(standing), max(standing.order, last), *ratings_args(after)],
            )
            if written == 0:
                return []
            if written == 1:
                return [(k, before.get(k), after[k]) for k in who]

    def write(self, ruleset: str, standings: Sequence[Standing]) -> None:
        """Write a ruleset's ratings folded from these games (after a drop)."""
        if not standings:
            return
        ratings = fold(standings)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(games_key(ruleset), mapping={s.game_id: encode(s) for s in standings})
        pipe.hset(ratings_key(ruleset), mapping={k: encode(r) for k, r in ratings.items()})
        pipe.zadd(board_key(ruleset), {k: r.ordinal for k, r in ratings.items()})
        pipe.set(order_key(ruleset), max(s.order for s in standings))
        pipe.execute()

    def board(self, ruleset: str, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """How many identities are rated, and one page of them, best first."""
        total = int(self.redis.zcard(board_key(ruleset)))
        if offset >= total:
            return total, []
        ids = [i.decode() for i in self.redis.zrevrange(board_key(ruleset), offset, offset + limit - 1)]  # type: ignore[union-attr]
        found = self.rows(ruleset, ids)
        rows = [found[i] for i in ids if i in found]
        return total, [{"rank": offset + n + 1, **r} for n, r in enumerate(rows)]

    def rows(self, ruleset: str, whos: Sequence[str]) -> dict[str, dict[str, Any]]:
        found: Any = self.redis.hmget(ratings_key(ruleset), list(whos)) if whos else []
        return {who: row(who, msgspec.json.decode(r, type=Rating)) for who, r in zip(whos, found, strict=True) if r}

    def of(self, rulesets: Iterable[str], who: str) -> dict[str, dict[str, Any]]:
        """An identity's rating in each ruleset it has played."""
        found = {}
        for ruleset in rulesets:
            raw: Any = self.redis.hget(ratings_key(ruleset), who)
            if raw:
                found[ruleset] = row(who, msgspec.json.decode(raw, type=Rating))
        return found


class MemoryRatings(RatedGames):
    """The ratings in memory: the same fold, kept in dicts."""

    def __init__(self) -> None:
        self._games: dict[str, dict[str, Standing]] = {}
        self._ratings: dict[str, dict[str, Rating]] = {}
        self._order: dict[str, str] = {}
        self._guard = threading.Lock()

    def drop(self) -> int:
        with self._guard:
            dropped = len(self._games)
            self._games.clear()
            self._ratings.clear()
            self._order.clear()
            return dropped

    def count(self, ruleset: str, standing: Standing) -> list[Moved]:
        with self._guard:
            games = self._games.setdefault(ruleset, {})
            if standing.game_id in games:
                return []
            ratings = self._ratings.setdefault(ruleset, {})
            who = list(dict.fromkeys(s.identity for s in standing.seats))
            before = {k: ratings[k] for k in who if k in ratings}
            last = self._order.get(ruleset, "")
            after = rate(before, standing) if standing.order > last else fold([*games.values(), standing])
            games[standing.game_id] = standing
            ratings.update(after)
            self._order[ruleset] = max(standing.order, last)
            return [(k, before.get(k), after[k]) for k in who]

    def write(self, ruleset: str, standings: Sequence[Standing]) -> None:
        if not standings:
            return
        with self._guard:
            self._games[ruleset] = {s.game_id: s for s in standings}
            self._ratings[ruleset] = fold(standings)
            self._order[ruleset] = max(s.order for s in standings)

    def board(self, ruleset: str, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        with self._guard:
            ranked = sorted(self._ratings.get(ruleset, {}).items(), key=lambda kv: (kv[1].ordinal, kv[0]), reverse=True)
        page = ranked[offset : offset + limit]
        return len(ranked), [{"rank": offset + n + 1, **row(who, r)} for n, (who, r) in enumerate(page)]

    def of(self, rulesets: Iterable[str], who: str) -> dict[str, dict[str, Any]]:
        with self._guard:
            return {r: row(who, self._ratings[r][who]) for r in rulesets if who in self._ratings.get(r, {})}

    def rows(self, ruleset: str, whos: Sequence[str]) -> dict[str, dict[str, Any]]:
        with self._guard:
            rated = self._ratings.get(ruleset, {})
            return {who: row(who, rated[who]) for who in whos if who in rated}


def ratings_args(ratings: Mapping[str, Rating]) -> list[Any]:
    return [item for who, r in ratings.items() for item in (who, encode(r), r.ordinal)]


RATING_FIELDS = ("rating", "mu", "sigma", "games", "wins")
"""What a row says of a rating, whoever's it is."""


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
