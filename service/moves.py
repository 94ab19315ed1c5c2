"""Turning a request body into a ruleset's move."""

from __future__ import annotations

from typing import Any

import msgspec

from games.base import Move, Ruleset
from service.errors import InvalidRequestError


def parse_move(ruleset: Ruleset[Any], body: dict[str, Any]) -> Move:
    """The ruleset's move for a request body; InvalidRequestError for an unknown type or bad field."""
    move_type = ruleset.move_type(str(body.get("type")))
    if move_type is None:
        names = ", ".join(m.__struct_config__.tag for m in ruleset.moves)  # type: ignore[misc]
        raise InvalidRequestError(f"unknown move type {body.get('type')!r}; {ruleset.id} takes: {names}")
    try:
        return msgspec.convert(body, move_type)
    except msgspec.ValidationError as error:
        raise InvalidRequestError(f"invalid move: {error}") from None
