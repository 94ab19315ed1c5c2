"""Who is calling: a seat's or a player's token in `Authorization: Bearer <token>`, a live feed's ticket, or
nobody (a spectator)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import request

from events import keys
from events.player_store import decode_player
from players.state import Player
from service.application import accounts, callers, tokens
from service.application.callers import Caller
from service.application.errors import InvalidRequestError, InvalidTicketError, InvalidTokenError
from service.http.ratelimit import caller_key, read_ahead

T = TypeVar("T")


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise InvalidTokenError("send the seat token as 'Authorization: Bearer <token>'")
    return token.strip()


def player_state(token: str) -> str | None:
    """The key of the player a player token names: where a move's save cannot check the token itself (a Redis
    Cluster), a seated request reads it first, so the rate limit reads it ahead, with its counts when it asks Redis
    (service/http/ratelimit.py)."""
    player_id = token.partition(".")[0]
    return (
        keys.player_state(player_id)
        if accounts.is_player_token(token) and tokens.GAME_ID.fullmatch(player_id)
        else None
    )


def no_read(token: str) -> None:
    """Nothing read ahead: a move's save checks a player's token in its own step (`events.store.LiveToken`)."""
    return None


def seated_caller(token: str) -> Caller:
    """Who sends a seated request: its token, and the token's player if read ahead (the use case checks the token
    against it, as against a player it read itself)."""
    key = player_state(token)
    raw = read_ahead(key) if key is not None else None
    return Caller(token=token, player=decode_player(raw) if raw else None)


def holder_of(player: Player | None) -> str:
    """The client a request holds its games as: its player, else its address (service/application/admission.py)."""
    return callers.holder_of(player, caller_key())


def redeemed(ticket: str, redeem: Callable[[str], T | None]) -> T:
    """What a live feed's ticket opens, once (EventSource sends no header: a ticket stands for the token)."""
    if bearer_token() is not None:
        raise InvalidRequestError("send a token or a ticket, not both")
    found = redeem(ticket)
    if found is None:
        raise InvalidTicketError("this ticket is unknown, used or expired; ask for a new one")
    return found
