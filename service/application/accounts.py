"""The use cases of registered players: register, authenticate, issue and revoke tokens.

A player token reads `<player id>.<token id>.<secret>`: the ids say where its hash is kept (the player's own
slot) and which one to compare; only the sha256 of the whole token is stored, in the player's log and state.
Seat tokens have no dot, so the two kinds never mix.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from events.player_store import Claim, StalePlayerError
from players.events import Entry, PlayerRegistered, PlayerTokenIssued, PlayerTokenRevoked
from players.state import Player, token_matches
from service.application import tokens
from service.application.errors import (
    ConcurrentModificationError,
    InvalidTokenError,
    NameConfusableError,
    NameTakenError,
    PlayerNotFoundError,
    TokenNotFoundError,
    TooManyTokensError,
)
from service.application.services import Services

MAX_TOKENS = 20
"""Live tokens a player may hold at once: rotate by issuing a new one, then revoking the old."""
VOUCHED = 10_000
"""Tokens a process remembers it has seen live (`Vouched`)."""


class Vouched:
    """The digests of the player tokens this process has seen live (checked against their player by a read), the
    newest `VOUCHED`. Only such a token's move is decided before its token is checked again, by the save itself: one
    never seen live (a forged one) is read and refused first, so how long its refusal takes tells nothing of the
    move. A token found not live is forgotten."""

    def __init__(self, most: int = VOUCHED) -> None:
        self._seen: OrderedDict[str, None] = OrderedDict()
        self._most = most
        self._guard = threading.Lock()

    def __contains__(self, digest: str) -> bool:
        return digest in self._seen

    def add(self, digest: str) -> None:
        with self._guard:
            self._seen[digest] = None
            self._seen.move_to_end(digest)
            if len(self._seen) > self._most:
                self._seen.popitem(last=False)

    def forget(self, digest: str) -> None:
        with self._guard:
            self._seen.pop(digest, None)


vouched = Vouched()


def is_player_token(token: str) -> bool:
    return token.count(".") == 2


def _issue(services: Services, player: Player, at: str) -> tuple[Entry, str, str]:
    token_id = services.entropy.hex(4)
    token = f"{player.player_id}.{token_id}.{services.entropy.token()}"
    issued = PlayerTokenIssued(token_id=token_id, digest=tokens.digest(token))
    return Entry(version=player.version + 1, event=issued, at=at), token_id, token


def register_player(services: Services, name: str) -> tuple[Player, str, str]:
    """A new player with its first token (handed out once); NameTakenError for a name held already,
    NameConfusableError for one that looks like a name held (which is not told)."""
    player_id = services.entropy.hex(8)
    claim = services.players.claim_name(name, player_id)
    if claim is Claim.NAME_HELD:
        raise NameTakenError(f"the name {name!r} is taken (names are unique whatever their case)")
    if claim is Claim.LOOKALIKE_HELD:
        detail = f"the name {name!r} looks like a name a player holds (names are compared as they look, across scripts)"
        raise NameConfusableError(detail)
    at = services.clock()
    registered = Entry(version=1, event=PlayerRegistered(player_id=player_id, name=name), at=at)
    blank = Player(player_id=player_id, name=name, created_at=at, version=1)
    issued, token_id, token = _issue(services, blank, at)
    return services.players.commit(None, [registered, issued]), token_id, token


def authenticate(services: Services, token: str, read: Player | None = None) -> Player:
    """The player a token belongs to; InvalidTokenError for a token unknown or revoked. `read`: the player as
    the request read it already (its state, at most a round trip old); any other player is read afresh."""
    player_id, token_id, _ = token.split(".", 2)
    if read is not None and read.player_id == player_id:
        player: Player | None = read
    else:
        player = services.players.get(player_id) if tokens.GAME_ID.fullmatch(player_id) else None
    digest = tokens.digest(token)
    if player is None or not token_matches(player, token_id, digest):
        vouched.forget(digest)
        raise InvalidTokenError("this player token is unknown or revoked")
    vouched.add(digest)
    return player


def token_id_of(token: str) -> str:
    """The id a player token names (`<player id>.<token id>.<secret>`)."""
    return token.split(".", 2)[1]


def token_lives(services: Services, player_id: str, token_id: str) -> bool:
    """Whether the player's token of this id is still live: what opened a feed or minted a ticket must be, for the
    feed to go on or the ticket to open one."""
    player = services.players.get(player_id)
    return player is not None and token_id in player.tokens


def issue_token(services: Services, player: Player) -> tuple[str, str]:
    """Another token for the player: its id and the token, handed out once."""
    if len(player.tokens) >= MAX_TOKENS:
        raise TooManyTokensError(f"a player holds at most {MAX_TOKENS} tokens: revoke one first")
    event, token_id, token = _issue(services, player, services.clock())
    try:
        services.players.commit(player, [event])
    except StalePlayerError:
        raise ConcurrentModificationError("the player changed meanwhile; try again") from None
    return token_id, token


def revoke_token(services: Services, player: Player, token_id: str) -> None:
    """Revoke one of the player's tokens (the one in use too): it opens nothing from now on."""
    if token_id not in player.tokens:
        raise TokenNotFoundError(f"the player has no live token {token_id!r}")
    event = Entry(version=player.version + 1, event=PlayerTokenRevoked(token_id=token_id), at=services.clock())
    try:
        services.players.commit(player, [event])
    except StalePlayerError:
        raise ConcurrentModificationError("the player changed meanwhile; try again") from None


def player_by_id(services: Services, player_id: str) -> Player:
    player = services.players.get(player_id) if tokens.GAME_ID.fullmatch(player_id) else None
    if player is None:
        raise PlayerNotFoundError(f"no player {player_id!r}")
    return player
