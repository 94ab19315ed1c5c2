"""Seat tokens: random secrets handed out once, kept only as hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import re


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(token: str, hashes: dict[int, str]) -> int | None:
    """The seat whose stored hash matches the token, checking every seat in constant time each."""
    found = None
    candidate = digest(token)
    for seat, stored in hashes.items():
        if hmac.compare_digest(candidate, stored):
            found = seat
    return found


GAME_ID = re.compile(r"[0-9a-f]{16}")
"""How game and player ids are written: 16 hex digits."""
