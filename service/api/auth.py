"""Who is calling: the seat token in `Authorization: Bearer <token>`, or nobody (a spectator)."""

from __future__ import annotations

from flask import request

from service.errors import InvalidTokenError


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise InvalidTokenError("send the seat token as 'Authorization: Bearer <token>'")
    return token.strip()
