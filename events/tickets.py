"""Live feed tickets: a short-lived, single-use secret that opens one seat's live feed.

A browser's EventSource cannot send `Authorization`, and a seat token must never travel in a URL (it would
land in logs and histories). So a client trades its token for a ticket (`POST …/stream-tickets`) and opens
the feed with `?ticket=`: the ticket is kept only as a hash, expires after TICKET_TTL_S seconds, and is
deleted by the read that redeems it (GETDEL), so it opens at most one feed. A ticket keeps which credential
minted it (the seat's holder, and a player token's id): it stands for that credential, and opens nothing once
the credential is revoked.

`TicketStore` is what the service asks of the tickets; `RedisTicketStore` keeps them in Redis, `MemoryTicketStore`
in a dict, for tests that need no Redis (tests/events/test_tickets.py runs both).
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections.abc import Callable
from typing import Protocol, TypeVar

import msgspec
import redis

from events import keys
from events.replication import Replication

TICKET_TTL_S = 60

T = TypeVar("T")


def digest(ticket: str) -> str:
    return hashlib.sha256(ticket.encode()).hexdigest()


class SeatTicket(msgspec.Struct, array_like=True):
    """What a seat's ticket opens: the seat's feed, while `holder` holds it (and token `token_id` lives)."""

    seat: int
    holder: str
    token_id: str = ""


class TicketStore(Protocol):
    def issue(self, game_id: str, seat: int, holder: str, ttl_s: int = TICKET_TTL_S, token_id: str = "") -> str:
        """A new ticket for the seat's feed of the game, as long as `holder` holds the seat and, for a ticket minted
        with a player token, as long as token `token_id` lives."""

    def redeem(self, game_id: str, ticket: str) -> SeatTicket | None:
        """What the ticket opens, once; None for an unknown, used or expired ticket."""

    def issue_player(self, player_id: str, token_id: str = "", ttl_s: int = TICKET_TTL_S) -> str:
        """A new ticket for the player's own feed, as long as its token `token_id` lives: `<player id>.<secret>`,
        the id saying where it is kept."""

    def redeem_player(self, ticket: str) -> tuple[str, str] | None:
        """The player whose feed the ticket opens and the id of the token that minted it ('' if unknown), once;
        None for an unknown, used or expired ticket."""


def _new_ticket() -> str:
    return secrets.token_urlsafe(32)


def _player_of(ticket: str) -> str | None:
    """The player a player ticket names (`<player id>.<secret>`); None if it names none."""
    player_id, dot, _ = ticket.partition(".")
    return player_id if dot and player_id.isalnum() else None


class RedisTicketStore:
    """`replication`: how many replicas must hold a ticket before it is handed out."""

    def __init__(self, client: redis.Redis, replication: Replication | None = None) -> None:
        self.redis = client
        self.replication = replication or Replication()

    def issue(self, game_id: str, seat: int, holder: str, ttl_s: int = TICKET_TTL_S, token_id: str = "") -> str:
        ticket = _new_ticket()
        key = keys.stream_ticket(game_id, digest(ticket))
        value = msgspec.json.encode(SeatTicket(seat, holder, token_id))
        self.replication.write(self.redis, key, lambda target: target.set(key, value, ex=ttl_s))
        return ticket

    def redeem(self, game_id: str, ticket: str) -> SeatTicket | None:
        found: bytes | None = self.redis.getdel(keys.stream_ticket(game_id, digest(ticket)))  # type: ignore[assignment]
        if found is None:
            return None
        if not found.startswith(b"["):  # `<seat>:<holder>`, as tickets were kept before they named a token
            seat, _, holder = found.decode().partition(":")
            return SeatTicket(int(seat), holder)
        return msgspec.json.decode(found, type=SeatTicket)

    def issue_player(self, player_id: str, token_id: str = "", ttl_s: int = TICKET_TTL_S) -> str:
        ticket = f"{player_id}.{_new_ticket()}"
        key = keys.player_ticket(player_id, digest(ticket))
        self.replication.write(self.redis, key, lambda target: target.set(key, token_id or "-", ex=ttl_s))
        return ticket

    def redeem_player(self, ticket: str) -> tuple[str, str] | None:
        player_id = _player_of(ticket)
        if player_id is None:
            return None
        found: bytes | None = self.redis.getdel(keys.player_ticket(player_id, digest(ticket)))  # type: ignore[assignment]
        if found is None:
            return None
        token_id = found.decode()
        return player_id, "" if token_id in ("1", "-") else token_id


class MemoryTicketStore:
    """Tickets in a dict, by their keys in Redis, each until `clock()` (seconds) reaches its expiry."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._seats: dict[str, tuple[float, SeatTicket]] = {}
        self._players: dict[str, tuple[float, str]] = {}
        self._lock = threading.Lock()

    def _keep(self, kept: dict[str, tuple[float, T]], key: str, ttl_s: int, value: T) -> None:
        with self._lock:
            kept[key] = (self.clock() + ttl_s, value)

    def _take(self, kept: dict[str, tuple[float, T]], key: str) -> T | None:
        with self._lock:
            found = kept.pop(key, None)
        if found is None or self.clock() >= found[0]:
            return None
        return found[1]

    def issue(self, game_id: str, seat: int, holder: str, ttl_s: int = TICKET_TTL_S, token_id: str = "") -> str:
        ticket = _new_ticket()
        self._keep(self._seats, keys.stream_ticket(game_id, digest(ticket)), ttl_s, SeatTicket(seat, holder, token_id))
        return ticket

    def redeem(self, game_id: str, ticket: str) -> SeatTicket | None:
        return self._take(self._seats, keys.stream_ticket(game_id, digest(ticket)))

    def issue_player(self, player_id: str, token_id: str = "", ttl_s: int = TICKET_TTL_S) -> str:
        ticket = f"{player_id}.{_new_ticket()}"
        self._keep(self._players, keys.player_ticket(player_id, digest(ticket)), ttl_s, token_id)
        return ticket

    def redeem_player(self, ticket: str) -> tuple[str, str] | None:
        player_id = _player_of(ticket)
        if player_id is None:
            return None
        token_id = self._take(self._players, keys.player_ticket(player_id, digest(ticket)))
        return None if token_id is None else (player_id, token_id)
