"""A game's live feed as Server-Sent Events: the log as the caller may see it, as it lands.

Each stored event is one SSE message: `id` its version, `event` its type, `data` the event as `GET …/events`
shows it. Three things are said on the feed only, never stored:
- `view`, after the backlog and after each batch of events that lands (with the `id` of the batch's last
  event): the game as the feed's viewer sees it, exactly as `GET /v1/games/{id}` answers it, so a seat's client
  knows from the feed alone whose decision is awaited and its own `legal_moves`;
- `game_finished`, right after the event that ends the game (with the same `id`), carrying the result; sent
  again at the start of a feed resumed at or after that event, so a client that reconnects cannot miss it;
- a comment (`: keep-alive`) every KEEPALIVE_S seconds of silence, so proxies keep the connection open.
The first message also carries `retry:`, the reconnection delay. The feed stays open until `game_tallied` (or
`game_aborted`) has been sent, then ends; a feed asked for after that has nothing left to say (the view
answers 204), so a browser's EventSource stops reconnecting. It also ends, cleanly, when the server is
stopping: a waiting feed looks up every WAKE_S seconds, and its client reconnects (to another worker) with
`Last-Event-ID`. A seat's feed lasts no longer than the credential that opened it: it ends when its seat is
left, and within CHECK_S seconds of the revocation of the player token that opened it (or minted its ticket).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import msgspec

from events.envelope import Envelope
from events.repository import Game, GameRepository, fold
from games import table as tables
from games.base import SPECTATOR
from games.table import Status, Table
from projections.results import result_of
from service.application.feeds import always
from service.application.redaction import feed_item
from service.observability import metrics

T = TypeVar("T")

KEEPALIVE_S = 15
WAKE_S = 3
"""How long a feed blocks on Redis at most before it looks whether the server is stopping: well within
gunicorn's graceful timeout (service/ops/cli.py)."""
CHECK_S = 1
"""How often a feed opened with a player token looks whether the token still lives."""
RETRY_MS = 2000
PAGE = 500


encode = msgspec.json.Encoder().encode

KEEP_ALIVE = ": keep-alive\n\n"
OPEN = ""
"""A feed's first chunk: empty, so nothing an SSE client reads, but the server sends the status and headers with
it, at once: a feed with nothing to send yet is open all the same (not a request waiting for its answer)."""


class Messages:
    """A feed's messages as SSE blocks. The first also carries `retry:`, the reconnection delay: sent in a block
    of its own, SSE clients report it as an empty event."""

    def __init__(self) -> None:
        self.retry_sent = False

    def block(self, entry_id: str | int, kind: str, data: str) -> str:
        retry = "" if self.retry_sent else f"retry: {RETRY_MS}\n"
        self.retry_sent = True
        return f"{retry}id: {entry_id}\nevent: {kind}\ndata: {data}\n\n"


def counted(messages: Iterator[str]) -> Iterator[str]:
    """A feed's messages, after OPEN, counted among the live feeds while they last."""
    metrics.LIVE_FEEDS.inc()
    try:
        yield OPEN
        yield from messages
    finally:  # also when the client goes away: the server closes the generator
        metrics.LIVE_FEEDS.dec()


def waiting(
    read: Callable[[float], list[T]], more: Callable[[], bool], wake_s: float = WAKE_S
) -> Iterator[list[T] | None]:
    """What a live feed waits for, while `more()` (the feed's credential stands, the server serves): each batch that
    `read(block_s)` gives, and None after each KEEPALIVE_S of silence (time for a keep-alive). It looks up every
    `wake_s` seconds, so a stopping server (or a `more` turned false) ends its feeds within that."""
    quiet_since = time.monotonic()
    while more():
        landed = read(min(wake_s, KEEPALIVE_S))
        if landed:
            quiet_since = time.monotonic()
            yield landed
        elif time.monotonic() - quiet_since >= KEEPALIVE_S:
            quiet_since = time.monotonic()
            yield None


def finished_at(table: Table[Any]) -> int | None:
    """The version of the event that ended the game, if it has ended."""
    return table.ended_at if table.status is Status.FINISHED else None


def closed(table: Table[Any]) -> bool:
    """Whether the feed has nothing more to wait for: the game is tallied, or was aborted."""
    return table.tallied or table.status is Status.ABORTED


def nothing_left(game: Game, after: int) -> bool:
    """Whether a feed resumed after `after` would have nothing to send: the game is over and read to its end."""
    return closed(game.table) and after >= game.table.version


class Feed:
    """One client's feed: it keeps its own copy of the table, folding in each event it relays, so a new event
    costs one blocking read and nothing else. `allowed()`: whether the credential that opened it still stands
    (a player token not revoked), looked at every CHECK_S seconds; `always` for a spectator or a seat token,
    which only leaving the seat revokes (the feed sees it). `serving()`: whether the server still serves (gunicorn's
    worker says: service/http/context.py)."""

    def __init__(
        self,
        repository: GameRepository,
        game: Game,
        seat: int | None,
        after: int,
        allowed: Callable[[], bool] = always,
        serving: Callable[[], bool] = always,
    ) -> None:
        self.repository, self.game, self.seat, self.after = repository, game, seat, after
        self.allowed, self.serving = allowed, serving
        self.blocks = Messages()

    def messages(self) -> Iterator[str]:
        return counted(self.follow())

    def follow(self) -> Iterator[str]:
        repository, game_id = self.repository, self.game.game_id
        end = finished_at(self.game.table)
        if end is not None and self.after >= end:
            yield self.finished(end)
        while self.after < self.game.table.version:  # the backlog, shown as the game stands now
            page = repository.log(game_id, after=self.after, limit=min(PAGE, self.game.table.version - self.after))
            for envelope in page:
                yield from self.relay(envelope, self.game, end)
        yield self.view()
        for landed in waiting(
            lambda block_s: repository.wait_for(game_id, self.after, block_s=block_s, count=PAGE),
            lambda: not closed(self.game.table) and self.allowed() and self.serving(),
            WAKE_S if self.allowed is always else CHECK_S,
        ):
            if landed is None:
                yield KEEP_ALIVE
                continue
            for envelope in landed:
                table = fold(self.game.ruleset, self.game.table, [envelope])
                assert table is not None
                self.game = Game(self.game.ruleset, table, envelope.hash, self.game.token_hashes)
                if self.seat is not None and table.seats[self.seat].is_open:
                    return  # its holder left: what it opened ends, and the seat's next holder sees none of it
                yield from self.relay(envelope, self.game, finished_at(table))
            yield self.view()

    def relay(self, envelope: Envelope, game: Game, end: int | None) -> Iterator[str]:
        item = feed_item(game.ruleset, game.table, envelope, self.seat)
        yield self.message(envelope.version, envelope.type, item)
        self.after = envelope.version
        if envelope.version == end:
            yield self.finished(end)

    def view(self) -> str:
        """The game as the feed's viewer sees it now: what `GET /v1/games/{id}` answers."""
        table = self.game.table
        data = encode(tables.view(self.game.ruleset, table, self.seat if self.seat is not None else SPECTATOR))
        return self.blocks.block(table.version, "view", data.decode())

    def finished(self, version: int) -> str:
        # The result as of the event that ended the game, whenever the feed is read: the tally comes after.
        table = msgspec.structs.replace(self.game.table, version=version, tallied=False)
        body = {"game_id": table.game_id, "version": version, "result": result_of(self.game.ruleset, table)}
        return self.message(version, "game_finished", body)

    def message(self, version: int, kind: str, data: dict[str, Any]) -> str:
        return self.blocks.block(version, kind, json.dumps(data, separators=(",", ":")))
