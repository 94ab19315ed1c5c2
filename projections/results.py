"""Results of finished games, stored with the game."""

from __future__ import annotations

from typing import Any

import msgspec

from games.base import Ruleset
from games.table import Status, Table


def result_of(ruleset: Ruleset[Any], table: Table[Any]) -> dict[str, Any]:
    """The final tally of a finished game as the API shows it."""
    seats = [{"seat": i, **msgspec.to_builtins(s)} for i, s in enumerate(table.seats)]
    head = {
        "game_id": table.game_id,
        "ruleset": table.ruleset,
        "version": table.version,
        "tallied": table.tallied,
        "seats": seats,
    }
    return {**head, **msgspec.to_builtins(ruleset.result(table.rules))}


def encoded_result(ruleset: Ruleset[Any], table: Table[Any]) -> bytes | None:
    """The result read model of a game: stored with the decision once the game is over."""
    return msgspec.json.encode(result_of(ruleset, table)) if table.status is Status.FINISHED else None
