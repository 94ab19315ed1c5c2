"""How an envelope is kept in its game's stream, and read back: the stored form, not the logical one.

Each stream entry has one field, whose name says its form:

- `e`: the envelope as JSON (`envelope.encode`), every field named and every hash in hex: how every event was
  stored before the compact form. Such entries are never rewritten; they read as they always did.
- `c`: the compact form, a MessagePack array of the fields in a fixed order (see `compact`): the hashes, the nonce
  and the command id as raw bytes, the time as milliseconds since the epoch, no game id (the stream's key names
  the game) and no `prev_hash` when it is the hash of the entry before (always, for a game the service played).

Either way the rest of the code sees the same `Envelope` (hex strings, the ISO time): every hash is computed over
that logical envelope, so the hash chain, the audit and the export do not depend on how an event is kept. A field
the compact form cannot say exactly as it was (a time not written the service's way, a nonce or a hash that does not
round-trip through bytes) is kept as the string it was; an envelope MessagePack cannot hold at all (an integer
beyond 64 bits) is kept as JSON.

A `prev_hash` left out is recovered from the entry before, so a read that starts after version N reads entry N
as well (`envelopes`); a game's first event links to `GENESIS`.
"""

from __future__ import annotations

import binascii
import functools
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from events.envelope import GENESIS, Envelope
from events.envelope import decode as decode_json
from events.envelope import encode as encode_json

JSON = b"e"
"""The field of an envelope kept as JSON."""

COMPACT = b"c"
"""The field of an envelope kept in the compact form."""

Entry = tuple[bytes, bytes]
"""A stream entry's one field: its name and its value."""


# The compact form's fields (`compact`, `decoded`), in the order kept: version, type, schema_version, payload,
# seat, command_id, command, at, nonce, hash, then, only when they are not implied, prev_hash (None: the hash of the
# entry before) and game_id (the stream's game when absent). command_id, nonce, hash and prev_hash are bytes when
# they round-trip through bytes (hex; unpadded base64url for the nonce), else the strings they were; at is
# milliseconds since the epoch when that gives it back exactly, else the string it was.

_encode_msgpack = msgspec.msgpack.Encoder().encode
_decode_compact = msgspec.msgpack.Decoder(tuple).decode  # a tuple unpacks faster than a struct's fields read

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MILLISECOND = timedelta(milliseconds=1)


def _time_of(ms: int) -> str:
    """Milliseconds since the epoch as the service writes a time (games.table.utc_iso): `2026-12-01T07:42:20.123Z`."""
    seconds, millis = divmod(ms, 1000)
    return f"{_second_of(seconds)}.{millis:03d}Z"


@functools.lru_cache(maxsize=4096)
def _second_of(seconds: int) -> str:
    """`2026-12-01T07:42:20`: cached, since a game's events share their seconds (isoformat costs a microsecond)."""
    return (EPOCH + timedelta(seconds=seconds)).isoformat()[:19]


@functools.lru_cache(maxsize=256)
def _ms_of(at: str) -> int | str:
    """The time as milliseconds since the epoch if that gives it back exactly, else the string itself."""
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return at
    if moment.tzinfo is None:
        return at
    ms = (moment - EPOCH) // MILLISECOND
    return ms if _time_of(ms) == at else at


def _from_hex(text: str | None) -> bytes | str | None:
    """Lowercase hex as its bytes; anything else (None, other text) as it is."""
    if text is None:
        return None
    try:
        raw = bytes.fromhex(text)
    except ValueError:
        return text
    return raw if raw.hex() == text else text


_URLSAFE = bytes.maketrans(b"+/", b"-_")
_STANDARD = bytes.maketrans(b"-_", b"+/")


def _from_base64(text: str) -> bytes | str:
    """Unpadded base64url (a nonce) as its bytes; anything else as it is."""
    try:
        raw = binascii.a2b_base64(text.encode().translate(_STANDARD) + b"=" * (-len(text) % 4))
    except (ValueError, UnicodeEncodeError):
        return text
    return raw if _base64(raw) == text else text


def _base64(raw: bytes) -> str:
    """Unpadded base64url, as `secrets.token_urlsafe` writes it (binascii: a rebuild decodes one an event)."""
    return binascii.b2a_base64(raw, newline=False).translate(_URLSAFE).rstrip(b"=").decode()


def _hex(value: Any) -> Any:
    return value.hex() if isinstance(value, bytes) else value


def compact(envelope: Envelope, game_id: str, linked: bool) -> Entry:
    """The entry that keeps `envelope` in game `game_id`'s stream; `linked`: its `prev_hash` is the hash of the
    entry before it there, and is left out."""
    fields: list[Any] = [
        envelope.version,
        envelope.type,
        envelope.schema_version,
        envelope.payload,
        envelope.seat,
        _from_hex(envelope.command_id),
        envelope.command,
        _ms_of(envelope.at),
        _from_base64(envelope.nonce),
        _from_hex(envelope.hash),
    ]
    if envelope.game_id != game_id:
        fields += [None if linked else _from_hex(envelope.prev_hash), envelope.game_id]
    elif not linked:
        fields.append(_from_hex(envelope.prev_hash))
    try:
        return COMPACT, _encode_msgpack(fields)
    except (OverflowError, msgspec.EncodeError):
        return JSON, encode_json(envelope)


def decoded(game_id: str, entry: Entry, prev: str | None) -> Envelope:
    """The envelope an entry keeps; `prev`: the hash of the entry before (None if not known: then the entry must
    say its own, as every JSON one does)."""
    field, value = entry
    if field == COMPACT:
        return _envelope(game_id, value, prev)
    if field == JSON:
        return decode_json(value)
    raise ValueError(f"a stream entry of unknown form {field!r}")


def _envelope(game_id: str, value: bytes, prev: str | None) -> Envelope:
    """The envelope a compact entry keeps (its fields: the comment above `compact`)."""
    kept = _decode_compact(value)
    version, type_, schema_version, payload, seat, command_id, command, at, nonce, hash_ = kept[:10]
    if len(kept) > 10 and kept[10] is not None:
        prev = _hex(kept[10])
    if len(kept) > 11:
        game_id = kept[11]
    if prev is None:
        raise ValueError(f"event {version} links to the entry before it, which was not read")
    return Envelope(
        game_id=game_id,
        version=version,
        type=type_,
        schema_version=schema_version,
        payload=payload,
        seat=seat,
        command_id=command_id.hex() if type(command_id) is bytes else command_id,
        command=command,
        at=_time_of(at) if type(at) is int else at,
        prev_hash=prev,
        nonce=_base64(nonce) if type(nonce) is bytes else nonce,
        hash=hash_.hex() if type(hash_) is bytes else hash_,
    )


def envelopes(game_id: str, entries: Iterable[Entry], after: int = 0) -> list[Envelope]:
    """The envelopes of version > `after` among consecutive entries of one stream, oldest first. A read after
    version N > 0 gives entry N first, if there is one: only its hash is used, as the next one's `prev_hash`."""
    prev: str | None = GENESIS if after == 0 else None
    out: list[Envelope] = []
    for entry in entries:
        if prev is None and not out:
            before = decoded(game_id, entry, "")  # its own link is not needed
            if before.version <= after:
                prev = before.hash
                continue
        envelope = decoded(game_id, entry, prev)
        out.append(envelope)
        prev = envelope.hash
    return out


def entries_in(reply: Iterable[tuple[Any, Any]]) -> list[Entry]:
    """A stream read's entries (XRANGE, XREAD: id and fields by name) as entries."""
    return [next(iter(fields.items())) for _, fields in reply]
