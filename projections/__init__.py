"""Read models kept from the event logs, and the one registry of what feeds each.

`DOCUMENTS` live in each game's own slot and are written in the commit's one script with its events (every
viewer's view, the result): `Projections.documents` renders them for a commit, and for a catch-up or a rebuild.
`MODELS` live apart (the lobby, each player's games, the ratings): each is fed the changes it says it shows
(`ReadModel.fed_by`) once they are saved, by `Projections.follow`. Beside them, each player's feed of notices
(projections/notices.py) is told what concerns the player; it is a delivery log, not a read model, and a rebuild
leaves it alone.

Every write is idempotent and forward only, so a projection that runs twice, late, or beside a rebuild converges. A
read that finds a game's documents behind its log catches them up first (`catch_up`). `rebuild` drops every read
model and feeds each game's last table to them all again, from its log alone.

A new read model is its module (a `GameDocument`, or a `ReadModel` kept in Redis and in memory) and one line here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import redis

from events.envelope import Envelope
from events.feeds import Entry
from events.repository import Decision, Game, fold, ruleset_of
from events.store import EventStore
from games import table as tables
from games.table import Table
from projections import lobby, notices, player_games, ratings, results, reviews, views
from projections.model import Change, Document, GameDocument, Notice, ReadModel


@dataclass(frozen=True)
class Registration:
    """A read model apart from the games, by name, as it is kept in Redis and in memory (for tests of the use
    cases without Redis). `redis` is given the client, and a game's table from its log (the lobby writes again an
    entry an older service wrote); `patterns` are its Redis keys, as SCAN patterns."""

    name: str
    redis: Callable[[redis.Redis, Callable[[str], Table[Any] | None]], ReadModel]
    memory: Callable[[], ReadModel]
    patterns: tuple[str, ...]


DOCUMENTS: tuple[GameDocument, ...] = (views.VIEWS, results.RESULTS)
LATE_DOCUMENTS: tuple[str, ...] = (reviews.REVIEWS.PATTERN, reviews.REVIEWS.PROGRESS_PATTERN)
"""Game documents a worker's job writes once the game is over (a review, and its progress while its steps run), not
the commit: a drop takes them with the others, and a read that misses the review has its job queued again (from
the start: its progress went too)."""
MODELS: tuple[Registration, ...] = (
    Registration("lobby", lobby.RedisLobby, lobby.MemoryLobby, lobby.PATTERNS),
    Registration(
        "player_games",
        lambda client, _: player_games.RedisPlayerGames(client),
        player_games.MemoryPlayerGames,
        player_games.PATTERNS,
    ),
    Registration("ratings", lambda client, _: ratings.RedisRatings(client), ratings.MemoryRatings, ratings.PATTERNS),
)
"""The registry: every read model, in the order each change is applied to them."""


def patterns(registry: Iterable[Registration] = MODELS) -> tuple[str, ...]:
    """Every read model's Redis keys, as SCAN patterns: the games' documents, then the registry's."""
    return (*(d.key("*") for d in DOCUMENTS), *LATE_DOCUMENTS, *(p for r in registry for p in r.patterns))


REBUILD_BATCH = 100
"""Games a rebuild reads and writes together (their logs are held decoded meanwhile: a Mobsters log is ~700
events)."""


def tally_time(table: Table[Any], envelopes: Sequence[Envelope]) -> str:
    """When the game was tallied, from its whole log ('' if it has not been): `Projections.tallied_at` without a
    read."""
    return envelopes[table.status_since - 1].at if table.tallied else ""


class Projections:
    """The read models of one deployment (or of one test in memory), over its event store."""

    def __init__(
        self,
        store: EventStore,
        models: Mapping[str, ReadModel],
        feeds: notices.Notices,
        documents: Iterable[GameDocument] = DOCUMENTS,
    ) -> None:
        self.store = store
        self.models = dict(models)
        self.feeds = feeds
        self.game_documents = tuple(documents)

    @classmethod
    def on_redis(cls, client: redis.Redis, store: EventStore, registry: Iterable[Registration] = MODELS) -> Projections:
        table_of = TableOf(store)
        models = {r.name: r.redis(client, table_of) for r in registry}
        return cls(store, models, notices.RedisNotices(client))

    @classmethod
    def in_memory(cls, store: EventStore, registry: Iterable[Registration] = MODELS) -> Projections:
        return cls(store, {r.name: r.memory() for r in registry}, notices.MemoryNotices())

    # -- the read models the use cases read -------------------------------------------------------------------

    @property
    def lobby(self) -> lobby.Lobby:
        return self.models["lobby"]  # type: ignore[return-value]

    @property
    def player_games(self) -> player_games.PlayerGames:
        return self.models["player_games"]  # type: ignore[return-value]

    @property
    def ratings(self) -> ratings.Ratings:
        return self.models["ratings"]  # type: ignore[return-value]

    def view(self, game_id: str, seat: int | None) -> bytes | None:
        """A viewer's view as stored, if it shows the game's last version (in this service's format)."""
        key = views.VIEWS.key(game_id)
        if seat is None:
            found = self.store.current_fields(game_id, key, [views.SPECTATOR_FIELD], tables.FORMAT)
            return found[0] if found else None
        # A seat's with the spectator's, which it is usually kept as a part of (projections/views.py).
        found = self.store.current_fields(game_id, key, [views.field_of(seat), views.SPECTATOR_FIELD], tables.FORMAT)
        if not found or found[0] is None:
            return None
        return views.joined(found[0], found[1]) if views.shared(found[0]) and found[1] is not None else found[0]

    def stored_views(self, game_id: str) -> tuple[int, int, dict[str, bytes]]:
        """Every viewer's whole view as stored, with the version and format they show (for the audit)."""
        version, document_format, kept = self.store.fields(views.VIEWS.key(game_id))
        if document_format != tables.FORMAT:  # kept another way, perhaps: not this service's to read
            return version, document_format, kept
        return version, document_format, {field: views.view_of(kept, field) for field in kept}

    def result(self, game_id: str) -> bytes | None:
        return self.store.value(results.RESULTS.key(game_id))

    def review(self, game_id: str) -> bytes | None:
        """The game's review as kept, if it is of this service's format."""
        return reviews.REVIEWS.current(self.store.value(reviews.REVIEWS.key(game_id)))

    def keep_review(self, game_id: str, version: int, document: bytes) -> None:
        """Keep a finished game's review, whole, in one write (a step that dies before it leaves none), and let its
        progress go."""
        self.store.write_documents(game_id, version, tables.FORMAT, {reviews.REVIEWS.key(game_id): document})
        self.store.delete(reviews.REVIEWS.progress_key(game_id))

    def review_progress(self, game_id: str) -> tuple[int, bytes] | None:
        """How far the game's review has come while its steps run, if in this service's format: how many decisions
        are judged, and they (as the review's steps encode them)."""
        found = self.store.progress(reviews.REVIEWS.progress_key(game_id))
        if found is None or found[0] != reviews.FORMAT:
            return None
        return found[1], found[2]

    def keep_review_progress(self, game_id: str, judged: int, decisions: bytes) -> bool:
        """Keep how far the game's review has come, unless a progress at least as far is kept (by another copy of
        the step); whether it was. It expires once abandoned (reviews.PROGRESS_TTL_S)."""
        key = reviews.REVIEWS.progress_key(game_id)
        return self.store.write_progress(key, reviews.FORMAT, judged, decisions, reviews.PROGRESS_TTL_S)

    # -- keeping them -----------------------------------------------------------------------------------------

    def documents(self, ruleset: Any, table: Table[Any]) -> dict[str, Document]:
        """The game's documents as of this table, by key: what a commit writes with its events."""
        rendered = {d.key(table.game_id): d.render(ruleset, table) for d in self.game_documents}
        return {key: document for key, document in rendered.items() if document is not None}

    def follow(self, decision: Decision) -> None:
        """Bring every read model a saved decision feeds up to it, and tell the players seated what concerns them
        but what its save kept on their feeds already (`notices_of`)."""
        change = self.change(decision)
        told: list[Notice] = (
            [] if self.store.one_server else notices.notices(change.ruleset, change.before, change.after)
        )
        for model in self.models.values():
            if model.fed_by(change):
                told += model.apply(change)
        self.feeds.tell(told, change.at)

    def notices_of(self, decision: Decision) -> list[Entry]:
        """What a decision tells the players seated, as their feeds keep it, for its save to keep with it: where the
        store can (`EventStore.one_server`: a game and its players' feeds on one Redis); else none, and `follow`
        tells them once it is saved."""
        if not self.store.one_server:
            return []
        change = self.change(decision)
        return notices.entries(notices.notices(change.ruleset, change.before, change.after), change.at)

    @staticmethod
    def change(decision: Decision) -> Change:
        """What a saved decision changed, as the read models read it."""
        before = decision.before.table if decision.before else None
        return Change(decision.after.ruleset, before, decision.after.table, decision.envelopes[-1].at)

    def catch_up(self, game: Game) -> None:
        """Write a game's every read model as of its table (a read found them behind)."""
        documents = self.documents(game.ruleset, game.table)
        self.store.write_documents(game.game_id, game.version, tables.FORMAT, documents)
        change = Change(game.ruleset, None, game.table, self.tallied_at(game.game_id, game.table))
        for model in self.models.values():
            if model.fed_by(change):
                model.apply(change)

    def tallied_at(self, game_id: str, table: Table[Any]) -> str:
        """When the game was tallied (its ratings' order), '' if it has not been."""
        if not table.tallied:
            return ""
        [tally] = self.store.read(game_id, after=table.status_since - 1, limit=1)
        return tally.at

    def drop(self) -> int:
        """Delete every read model apart from the games, and every game's documents; the logs stay. How many
        keys went (in memory: how many entries)."""
        dropped = sum(model.drop() for model in self.models.values())
        return dropped + self.store.drop_documents([*(d.key("*") for d in self.game_documents), *LATE_DOCUMENTS])

    def rebuild(self, batch: int = REBUILD_BATCH) -> int:
        """Drop every read model and feed each game's last table to them all again, from its log alone (the ratings
        fold every tallied game once, at the end). `batch` games at a time: their logs read together, their
        documents written together (a round trip each, not one a game). How many games."""
        self.drop()
        rebuilds = [model.rebuild() for model in self.models.values()]
        game_ids = list(self.store.game_ids())
        count = 0
        for start in range(0, len(game_ids), batch):
            replayed = list(self.replayed(game_ids[start : start + batch]))
            written = [
                (game_id, table.version, self.documents(ruleset, table)) for game_id, ruleset, table, _ in replayed
            ]
            self.store.write_many_documents(tables.FORMAT, written)
            for _, ruleset, table, tallied_at in replayed:
                change = Change(ruleset, None, table, tallied_at)
                for rebuild in rebuilds:
                    rebuild.add(change)
            count += len(replayed)
        for rebuild in rebuilds:
            rebuild.finish()
        return count

    def replayed(self, game_ids: Sequence[str]) -> Iterator[tuple[str, Any, Table[Any], str]]:
        """These games' rules, last tables and tally times, from their logs alone (a game with none is left out)."""
        for game_id, envelopes in zip(game_ids, self.store.read_logs(game_ids), strict=True):
            if envelopes:
                ruleset = ruleset_of(envelopes[0])
                table = fold(ruleset, None, envelopes)
                assert table is not None
                yield game_id, ruleset, table, tally_time(table, envelopes)


class TableOf:
    """A game's table, folded from its log alone; None for a game with no log."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def __call__(self, game_id: str) -> Table[Any] | None:
        envelopes = self.store.read(game_id)
        return fold(ruleset_of(envelopes[0]), None, envelopes) if envelopes else None
