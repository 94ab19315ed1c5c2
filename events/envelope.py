"""The envelope every stored event travels in, with its place in the game's hash chain."""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

import msgspec

GENESIS = "0" * 64
"""The `prev_hash` of a game's first event."""


class Envelope(msgspec.Struct, frozen=True, kw_only=True):
    """One stored fact: what happened (`type`, `payload`), when in the game (`version`), who caused it
    (`seat`, `command`), and the chain link (`prev_hash`, `hash`).

    `command` is the command that caused a batch of events; it rides on the batch's first event.
    `nonce` is a secret drawn when the event is sealed and covered by its hash: shown only to those who see
    the whole event, so nobody can confirm a guess at hidden content by recomputing a hash they were shown.
    """

    game_id: str
    version: int
    type: str
    schema_version: int
    payload: dict[str, Any]
    seat: int | None = None
    command_id: str | None = None
    command: dict[str, Any] | None = None
    at: str = ""
    prev_hash: str = GENESIS
    nonce: str = ""
    hash: str = ""


def content_hash(envelope: Envelope) -> str:
    """sha256 of the canonical JSON (sorted keys, no spaces) of every field but `hash` itself.

    Events sealed before nonces existed have none, and their hash never covered one."""
    fields = msgspec.to_builtins(envelope)
    fields.pop("hash", None)
    if not fields.get("nonce"):
        fields.pop("nonce", None)
    canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


NONCE_BYTES = 16
"""128 bits: far beyond enumeration."""


def new_nonce() -> str:
    return secrets.token_urlsafe(NONCE_BYTES)


def sealed(envelope: Envelope) -> Envelope:
    """The envelope with its own hash filled in."""
    return msgspec.structs.replace(envelope, hash=content_hash(envelope))


# The envelope as JSON: a line of an exported log, and a stream entry as every event was stored before the compact
# form (events/entries.py: how a stream keeps an envelope).
encode = msgspec.json.Encoder().encode
decode = msgspec.json.Decoder(Envelope).decode
