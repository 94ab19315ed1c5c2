"""The games offered, as the API describes them: each ruleset's players, options, bots and moves, and its card
catalogue."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

import msgspec

from games.base import Ruleset
from games.bots import DESCRIPTIONS
from games.registry import RULESETS
from games.schema import move_schema
from games.table import bot_kinds, options_of
from projections.ratings import RATING_FIELDS
from service.application.errors import RulesetNotFoundError, UnknownRulesetError
from service.application.services import Services


def ruleset_named(ruleset_id: str, in_path: bool = False) -> Ruleset[Any]:
    """The ruleset of this id; for one of none, UnknownRulesetError (named in a body or a query) or
    RulesetNotFoundError (named by a path): the one lookup of a ruleset a caller names."""
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is None:
        refused = RulesetNotFoundError if in_path else UnknownRulesetError
        raise refused(f"no ruleset {ruleset_id!r}; offered: {', '.join(RULESETS)} (GET /v1/rulesets)")
    return ruleset


OPTION_TYPES = {int: "integer", bool: "boolean"}
"""An option's type by its JSON Schema name."""


def rules_of(ruleset: Ruleset[Any]) -> str:
    """The game's rules, and the rulings of this service where the rulebook is silent, in Markdown: the text of its
    package's docstring (its Ruleset's `description`), the one place they are written."""
    return inspect.cleandoc(ruleset.description)


def summary_of(ruleset: Ruleset[Any]) -> str:
    """The first paragraph of the game's rules: what it is, for how many players."""
    return " ".join(rules_of(ruleset).split("\n\n", 1)[0].split())


def rulesets(services: Services) -> list[dict[str, Any]]:
    """Every ruleset as `GET /v1/rulesets` lists it, with each bot kind's rating as the ratings stand now."""
    ratings = services.projections.ratings

    def rated(ruleset: Ruleset[Any]) -> dict[str, dict[str, Any] | None]:
        kinds = sorted(bot_kinds(ruleset))
        found = ratings.rows(ruleset.id, [f"bot:{kind}" for kind in kinds])
        return {kind: found.get(f"bot:{kind}") for kind in kinds}

    return [describe(r, rated(r)) for r in RULESETS.values()]


def describe(ruleset: Ruleset[Any], bot_ratings: Mapping[str, dict[str, Any] | None] | None = None) -> dict[str, Any]:
    """A ruleset as `GET /v1/rulesets` lists it: its players, options, bots (with their ratings, None for a kind
    not rated yet) and moves (each move's JSON Schema whole, without references, as the OpenAPI document's
    component of it)."""
    rated = bot_ratings or {}
    return {
        "id": ruleset.id,
        "name": ruleset.name,
        "min_players": ruleset.min_seats,
        "max_players": ruleset.max_seats,
        "description": summary_of(ruleset),
        "rules": rules_of(ruleset),
        "options": [
            {
                "name": name,
                "type": OPTION_TYPES[o.kind],
                "default": o.default,
                "description": o.description,
                "minimum": 0 if o.names_a_seat else o.minimum,
                "maximum": o.maximum,  # a seat's number: up to the game's last seat
            }
            for name, o in options_of(ruleset).items()
        ],
        "bots": sorted(bot_kinds(ruleset)),
        "bot_descriptions": {kind: DESCRIPTIONS.get(kind, "") for kind in sorted(bot_kinds(ruleset))},
        "bot_ratings": {kind: rating_only(rated.get(kind)) for kind in sorted(bot_kinds(ruleset))},
        "move_types": [m.__struct_config__.tag for m in ruleset.moves],
        "passes": list(ruleset.passes),
        "moves": {m.__struct_config__.tag: move_schema(m) for m in ruleset.moves},
    }


def rating_only(row: dict[str, Any] | None) -> dict[str, Any] | None:
    """A leaderboard row without whose it is (the key says)."""
    return None if row is None else {k: row[k] for k in RATING_FIELDS}


def catalogue(ruleset_id: str) -> dict[str, Any]:
    """The game's own catalogue (games/<game>/catalogue.py), as JSON; RulesetNotFoundError for an unknown id."""
    ruleset = ruleset_named(ruleset_id, in_path=True)
    found = ruleset.catalogue
    return {
        "ruleset": ruleset.id,
        "cards": msgspec.to_builtins(list(found.cards)),
        "kinds": dict(found.kinds),
        "constants": {name: {"value": c.value, "description": c.description} for name, c in found.constants.items()},
    }
