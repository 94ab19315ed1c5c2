"""Who is asking: a seat's token, a player's token, the house playing a seat, or nobody (a spectator).

A seat token opens one seat of one game; a player token (`<player id>.<token id>.<secret>`) acts for every seat its
player holds. Only hashes of either are stored, compared in constant time.
"""

from __future__ import annotations

from dataclasses import dataclass

from events.repository import Game
from events.store import LiveToken
from games.commands import By
from players.state import Player
from service.application import accounts, tokens
from service.application.errors import InvalidTokenError
from service.application.services import Services


@dataclass(frozen=True)
class Caller:
    """Who sends a move: a player with a seat token (or a player token), or the house playing a seat (`by` a bot or a
    deadline)."""

    token: str | None = None
    seat: int | None = None
    by: By | None = None
    player: Player | None = None
    """The player a player token names, as read ahead with the request's rate-limit counts (one round trip for
    both): the token is still checked against it, never taken on its word."""

    @property
    def key(self) -> str:
        """Whose idempotency keys these are."""
        return tokens.digest(self.token)[:32] if self.token is not None else f"house-{self.seat}"


def seat_of(services: Services, game: Game, token: str | None, player: Player | None = None) -> int | None:
    """The caller's seat, None for a spectator; InvalidTokenError for a token of no seat. A player token
    acts for the seat its player holds (`player`: the token's, when the caller knows it already)."""
    if token is None:
        return None
    if accounts.is_player_token(token):
        player = player or accounts.authenticate(services, token)
        seat = player_seat(game, player.player_id)
    else:
        seat = tokens.seat_of(token, dict(game.token_hashes))
    if seat is None:
        raise InvalidTokenError("this token holds no seat in this game")
    return seat


def player_seat(game: Game, player_id: str) -> int | None:
    """The seat the player holds in the game, if any."""
    return next((i for i, s in enumerate(game.table.seats) if s.player == player_id), None)


def claimed_seat(game: Game, token: str) -> int | None:
    """The seat of the player a player token names, the token not yet checked: for a save that checks it in its own
    step (`events.store.LiveToken`), and for nothing else."""
    return player_seat(game, token.partition(".")[0])


def live_token(services: Services, caller: Caller) -> LiveToken | None:
    """The caller's player token, for the save to check, where the store can, nobody has read its player for this
    request and this process has seen it live before (`accounts.vouched`); else None: the token is checked by a read
    first (or is none of a player's)."""
    token = caller.token
    if token is None or caller.player is not None or not accounts.is_player_token(token):
        return None
    digest = tokens.digest(token)
    if not services.repository.one_server or digest not in accounts.vouched:
        return None
    player_id, token_id, _ = token.split(".", 2)
    return LiveToken(player_id, token_id, digest)


def seat_holder(game: Game, seat: int) -> str:
    """Who holds a seat: its player, or the hash of its seat token. A seat left and taken again has another
    holder, so what was handed to the first (a stream ticket) opens nothing of the second's."""
    player = game.table.seats[seat].player
    return f"player:{player}" if player else game.token_hashes.get(seat, "")


def player_of(services: Services, token: str | None, read: Player | None = None) -> Player | None:
    """The registered player whose token this is; None for no token or a seat token (`read`: its player as read
    already, which spares reading it again)."""
    if token is None or not accounts.is_player_token(token):
        return None
    return accounts.authenticate(services, token, read)


def account_of(services: Services, token: str | None) -> Player | None:
    """The player a new game or a join acts for: None without a token. These take only a live player token
    (a seat token belongs to its own game): any other is InvalidTokenError, never ignored."""
    if token is None:
        return None
    if not accounts.is_player_token(token):
        raise InvalidTokenError("only a player token creates or joins a game as someone")
    return accounts.authenticate(services, token)


def holder_of(player: Player | None, address: str) -> str:
    """The client a request holds its games as: its player, else its address (service/application/admission.py)."""
    return f"player:{player.player_id}" if player is not None else f"address:{address}"
