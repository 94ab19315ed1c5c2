"""Live feed tickets: a short-lived, single-use secret that opens one seat's live feed.

A browser's EventSource cannot send `Authorization`, and a seat token must never travel in a URL (it would
land in logs and histories). So a client trades its token for a ticket (`POST …/stream-tickets`) and opens
the feed with `?ticket=`: the ticket is kept only as a hash, expires after TICKET_TTL_S seconds, and is
deleted by the read that redeems it (GETDEL), so it opens at most one feed.
"""

from __future__ import annotations

import hashlib
import secrets

import redis

from events import keys
from events.replication import Replication

TICKET_TTL_S = 60


def digest(ticket: str) -> str:
    return hashlib.sha256(ticket.encode()).hexdigest()


class TicketStore:
    def __init__(self, client: redis.Redis, replication: Replication | None = None) -> None:
        self.redis = client
        self.replication = replication or Replication()

    def issue(self, game_id: str, seat: int, holder: str, ttl_s: int = TICKET_TTL_S) -> str:
        """A new ticket for the seat's feed of the game, as long as `holder` holds the seat (held by the
        replicas asked for, before it is handed out)."""
        ticket = secrets.token_urlsafe(32)
        key = keys.stream_ticket(game_id, digest(ticket))
        self.replication.write(self.redis, key, lambda target: target.set(key, f"{seat}:{holder}", ex=ttl_s))
        return ticket

    def redeem(self, game_id: str, ticket: str) -> tuple[int, str] | None:
        """The seat the ticket opens the feed for and who held it then, once; None for an unknown, used or
        expired ticket."""
        found: bytes | None = self.redis.getdel(keys.stream_ticket(game_id, digest(ticket)))  # type: ignore[assignment]
        if found is None:
            return None
        seat, _, holder = found.decode().partition(":")
        return int(seat), holder

    def issue_player(self, player_id: str, ttl_s: int = TICKET_TTL_S) -> str:
        """A new ticket for the player's own feed: `<player id>.<secret>`, the id saying where it is kept."""
        ticket = f"{player_id}.{secrets.token_urlsafe(32)}"
        key = keys.player_ticket(player_id, digest(ticket))
        self.replication.write(self.redis, key, lambda target: target.set(key, 1, ex=ttl_s))
        return ticket

    def redeem_player(self, ticket: str) -> str | None:
        """The player whose feed the ticket opens, once; None for an unknown, used or expired ticket."""
        player_id, dot, _ = ticket.partition(".")
        if not dot or not player_id.isalnum():
            return None
        return player_id if self.redis.getdel(keys.player_ticket(player_id, digest(ticket))) is not None else None
