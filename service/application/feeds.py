"""Who may follow a live feed, and for how long: a game's (as a seat or a spectator) and a player's own.

A browser's EventSource cannot send a token, so a client trades its token for a ticket (events/tickets.py): single
use, short lived, and standing for the credential that minted it. A feed lasts no longer than that credential: a seat
left opens nothing of its next holder's, and a player token revoked ends what it opened (`Opened.allowed`, which the
feed looks at while it waits).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from events.repository import Game
from service.application import accounts
from service.application.callers import seat_holder, seat_of
from service.application.errors import InvalidTokenError
from service.application.services import Services


def always() -> bool:
    return True


@dataclass(frozen=True)
class Opened:
    """A feed opened: whose it is (a seat, None for a spectator; or a player's id), and what must hold for it to go
    on (`always` for a spectator or a seat token, which only leaving the seat revokes, and the feed sees that)."""

    seat: int | None = None
    player_id: str = ""
    allowed: Callable[[], bool] = always


def token_lives(services: Services, player_id: str, token_id: str) -> Callable[[], bool]:
    """Whether the player's token of this id still lives, asked again each time."""
    return lambda: accounts.token_lives(services, player_id, token_id)


def minted_by(token: str | None) -> str:
    """The id of the player token a ticket stands for ('' for a seat token)."""
    return accounts.token_id_of(token) if token and accounts.is_player_token(token) else ""


def game_feed(services: Services, game: Game, token: str | None) -> Opened:
    """A game's feed opened with a token (or none: a spectator's)."""
    seat = seat_of(services, game, token)
    if token is not None and accounts.is_player_token(token):
        return Opened(seat, allowed=token_lives(services, token.split(".", 1)[0], accounts.token_id_of(token)))
    return Opened(seat)


def game_feed_by_ticket(services: Services, game: Game, ticket: str) -> Opened | None:
    """A game's feed opened with a ticket, once; None for a ticket unknown, used or expired, of a seat that changed
    hands since, or minted with a player token revoked since."""
    found = services.tickets.redeem(game.game_id, ticket)
    if found is None or seat_holder(game, found.seat) != found.holder:
        return None
    if not found.token_id:
        return Opened(found.seat)
    allowed = token_lives(services, found.holder.removeprefix("player:"), found.token_id)
    return Opened(found.seat, allowed=allowed) if allowed() else None


def seat_ticket(services: Services, game_id: str, token: str | None) -> tuple[str, int]:
    """A ticket that opens the caller's seat's feed once, and the seat."""
    game = services.repository.get(game_id)
    seat = seat_of(services, game, token)
    if seat is None:
        raise InvalidTokenError("a ticket is for a seat's feed: send the seat token")
    return services.tickets.issue(game_id, seat, seat_holder(game, seat), token_id=minted_by(token)), seat


def player_feed(services: Services, token: str) -> Opened:
    """A player's own feed, opened with its player token."""
    player = accounts.authenticate(services, token)
    return Opened(player_id=player.player_id, allowed=token_lives(services, player.player_id, minted_by(token)))


def player_feed_by_ticket(services: Services, ticket: str) -> Opened | None:
    """A player's feed opened with a ticket, once; None for one unknown, used, expired or minted with a token
    revoked since."""
    found = services.tickets.redeem_player(ticket)
    if found is None:
        return None
    player_id, token_id = found
    if not token_id:
        return Opened(player_id=player_id)
    allowed = token_lives(services, player_id, token_id)
    return Opened(player_id=player_id, allowed=allowed) if allowed() else None
