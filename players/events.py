"""The facts of a player's own log, one typed event per kind, and how an entry of the log is stored.

Each type has a stable `type` name and a `schema_version`, as a game's events do (`games.base.Event`). An entry
is stored as the JSON object `{"version", "type", "schema_version", "payload", "at"}` (what players' logs have
always held, byte for byte); one stored at an older schema version is upcast when read, never rewritten.
"""

from __future__ import annotations

from typing import Any

import msgspec

from games.base import Event, upcast


class PlayerEvent(Event, frozen=True, kw_only=True):
    """A fact of a player's log."""


class PlayerRegistered(PlayerEvent, frozen=True):
    """The first fact of every player's log: its id and the name it claimed."""

    type = "player_registered"
    player_id: str
    name: str


class PlayerTokenIssued(PlayerEvent, frozen=True):
    """A token was handed out; only the sha256 of the whole token is kept."""

    type = "player_token_issued"
    token_id: str
    digest: str


class PlayerTokenRevoked(PlayerEvent, frozen=True):
    """A token opens nothing from now on."""

    type = "player_token_revoked"
    token_id: str


PLAYER_EVENTS: tuple[type[PlayerEvent], ...] = (PlayerRegistered, PlayerTokenIssued, PlayerTokenRevoked)

EVENT_TYPES: dict[str, type[PlayerEvent]] = {cls.type: cls for cls in PLAYER_EVENTS}
"""Player event types by stable name: what a stored entry is read as."""


class UnknownPlayerEventError(Exception):
    """A stored entry of a type no player event has."""


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of a player's log: its event, its place in the log (1 for the registration), and when."""

    version: int
    event: PlayerEvent
    at: str


class _Stored(msgspec.Struct, frozen=True, kw_only=True):
    """An entry as stored. The field order is the stored JSON's, so the bytes stay those written before."""

    version: int
    type: str
    schema_version: int = 1
    payload: dict[str, Any]
    at: str


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(_Stored).decode


def encode_entry(entry: Entry) -> bytes:
    event = entry.event
    payload = msgspec.to_builtins(event)
    return _encode(
        _Stored(
            version=entry.version, type=event.type, schema_version=event.schema_version, payload=payload, at=entry.at
        )
    )


def decode_entry(raw: bytes) -> Entry:
    """A stored entry, its event upcast to its type's current schema version."""
    stored = _decode(raw)
    cls = EVENT_TYPES.get(stored.type)
    if cls is None:
        raise UnknownPlayerEventError(stored.type)
    return Entry(version=stored.version, event=upcast(cls, stored.schema_version, stored.payload), at=stored.at)
