"""Live feed tickets: a short-lived, single-use secret that opens one seat's live feed.

A browser's EventSource cannot send `Authorization`, and a seat token must never travel in a URL (it would
land in logs and histories). So a client trades its token for a ticket (`POST …/stream-tickets`) and opens
the feed with `?ticket=`: the ticket is kept only as a hash, expires after TICKET_TTL_S seconds, and is
deleted by the read that redeems it (GETDEL), so it opens at most one feed. A ticket keeps which credential
minted it (the seat's holder, and a player token's id): it stands for that credential, and opens nothing once
the credential is revoked.
"""

from __future__ import annotations

import hashlib
import secrets

import msgspec
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

    def issue(self, game_id: str, seat: int, holder: str, ttl_s: int = TICKET_TTL_S, token_id: str = "") -> str:
        """A new ticket for the seat's feed of the game, as long as `holder` holds the seat and, for a ticket minted
        with a player token, as long as token `token_id` lives (held by the replicas asked for, before it is
        handed out)."""
        ticket = secrets.token_urlsafe(32)
        key = keys.stream_ticket(game_id, digest(ticket))
        value = msgspec.json.encode(SeatTicket(seat, holder, token_id))
        self.replication.write(self.redis, key, lambda target: target.set(key, value, ex=ttl_s))
        return ticket

    def redeem(self, game_id: str, ticket: str) -> SeatTicket | None:
        """What the ticket opens, once; None for an unknown, used or expired ticket."""
        found: bytes | None = self.redis.getdel(keys.stream_ticket(game_id, digest(ticket)))  # type: ignore[assignment]
        if found is None:
            return None
        if not found.startswith(b"["):  # `<seat>:<holder>`, as tickets were kept before they named a token
            seat, _, holder = found.decode().partition(":")
            return SeatTicket(int(seat), holder)
        return msgspec.json.decode(found, type=SeatTicket)

    def issue_player(self, player_id: str, token_id: str = "", ttl_s: int = TICKET_TTL_S) -> str:
        """A new ticket for the player's own feed, as long as its token `token_id` lives: `<player id>.<secret>`,
        the id saying where it is kept."""
        ticket = f"{player_id}.{secrets.token_urlsafe(32)}"
        key = keys.player_ticket(player_id, digest(ticket))
        self.replication.write(self.redis, key, lambda target: target.set(key, token_id or "-", ex=ttl_s))
        return ticket

    def redeem_player(self, ticket: str) -> tuple[str, str] | None:
        """The player whose feed the ticket opens and the id of the token that minted it ('' if unknown), once;
        None for an unknown, used or expired ticket."""
        player_id, dot, _ = ticket.partition(".")
        if not dot or not player_id.isalnum():
            return None
        found: bytes | None = self.redis.getdel(keys.player_ticket(player_id, digest(ticket)))  # type: ignore[assignment]
        if found is None:
            return None
        token_id = found.decode()
        return player_id, "" if token_id in ("1", "-") else token_id


class SeatTicket(msgspec.Struct, array_like=True):
    """What a seat's ticket opens: the seat's feed, while `holder` holds it (and token `token_id` lives)."""

    seat: int
    holder: str
    token_id: str = ""
