"""The result of a finished game: a game document, written with the decision that ends the game."""

from __future__ import annotations

from typing import Any

import msgspec

from events.keys import PREFIX
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


class Results:
    """The result (JSON), once the game is over."""

    PATTERN = f"{PREFIX}:game:{{*}}:result"

    def key(self, game_id: str) -> str:
        return f"{PREFIX}:game:{{{game_id}}}:result"

    def render(self, ruleset: Ruleset[Any], table: Table[Any]) -> bytes | None:
        return msgspec.json.encode(result_of(ruleset, table)) if table.status is Status.FINISHED else None


RESULTS = Results()
