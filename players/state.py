"""A registered player as its log leaves it: its name, and the hashes of its live tokens.

`evolve` is made as a game's is, by `games.base.dispatcher` from one small function per event type. The
events carry no version or time (their entry does), so each function is handed, and gives back, a `Step`: the
player so far with the version and time of the entry being folded.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import msgspec

from games.base import Event, dispatcher
from players.events import Entry, PlayerRegistered, PlayerTokenIssued, PlayerTokenRevoked


class TokenRecord(msgspec.Struct, frozen=True):
    digest: str
    issued_at: str


class Player(msgspec.Struct, frozen=True, kw_only=True):
    player_id: str
    name: str
    created_at: str
    version: int
    tokens: dict[str, TokenRecord] = {}


class Step(NamedTuple):
    """The player before an entry of its log (None before its registration), and the entry's version and time."""

    player: Player | None
    version: int
    at: str


def _registered(step: Step, event: PlayerRegistered) -> Step:
    player = Player(player_id=event.player_id, name=event.name, created_at=step.at, version=step.version)
    return step._replace(player=player)


def _with_tokens(step: Step, tokens: Callable[[dict[str, TokenRecord]], dict[str, TokenRecord]]) -> Step:
    """The step with its player's tokens changed by `tokens`, at the step's version."""
    assert step.player is not None, "a player's log starts with player_registered"
    player = msgspec.structs.replace(step.player, tokens=tokens(step.player.tokens), version=step.version)
    return step._replace(player=player)


def _token_issued(step: Step, event: PlayerTokenIssued) -> Step:
    return _with_tokens(step, lambda tokens: {**tokens, event.token_id: TokenRecord(event.digest, step.at)})


def _token_revoked(step: Step, event: PlayerTokenRevoked) -> Step:
    return _with_tokens(step, lambda tokens: {i: record for i, record in tokens.items() if i != event.token_id})


EVOLVERS: dict[type[Event], Callable[[Step, Any], Step]] = {
    PlayerRegistered: _registered,
    PlayerTokenIssued: _token_issued,
    PlayerTokenRevoked: _token_revoked,
}
"""How each fact changes the player, by event type."""

_evolve = dispatcher(EVOLVERS, "player")


def evolve(player: Player | None, entry: Entry) -> Player:
    """The player after one entry of its log."""
    after = _evolve(Step(player, entry.version, entry.at), entry.event).player
    assert after is not None
    return after


def fold(entries: Iterable[Entry], player: Player | None = None) -> Player | None:
    """The player after the entries, from `player` (None: from the start of its log)."""
    for entry in entries:
        player = evolve(player, entry)
    return player


def token_matches(player: Player, token_id: str, digest: str) -> bool:
    """Whether the token of this id is live and hashes to `digest` (compared in constant time)."""
    record = player.tokens.get(token_id)
    return record is not None and hmac.compare_digest(record.digest, digest)
