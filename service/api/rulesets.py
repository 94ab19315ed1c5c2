"""The games the service offers."""

from __future__ import annotations

from typing import Any

import msgspec
from flask.views import MethodView

from games.base import Ruleset
from games.registry import RULESETS
from games.table import options_of
from service.api import schemas
from service.api.catalogue_schemas import CatalogueSchema
from service.api.parsing import Blueprint
from service.errors import RulesetNotFoundError

blp = Blueprint("rulesets", __name__, url_prefix="/v1/rulesets", description="The games offered")


def describe(ruleset: Ruleset[Any]) -> dict[str, Any]:
    return {
        "id": ruleset.id,
        "name": ruleset.name,
        "min_players": ruleset.min_seats,
        "max_players": ruleset.max_seats,
        "description": ruleset.description,
        "options": [
            {
                "name": name,
                "type": o.kind.__name__,
                "default": o.default,
                "description": o.description,
                "minimum": 0 if o.names_a_seat else o.minimum,
                "maximum": o.maximum,  # a seat's number: up to the game's last seat
            }
            for name, o in options_of(ruleset).items()
        ],
        "move_types": [m.__struct_config__.tag for m in ruleset.moves],
        "moves": {m.__struct_config__.tag: msgspec.json.schema(m) for m in ruleset.moves},
    }


@blp.route("")
class RulesetCollection(MethodView):
    @blp.doc(operationId="listRulesets")
    @blp.response(200, schemas.RulesetSchema(many=True))
    def get(self) -> Any:
        """The games offered: players, options and move types"""
        return [describe(r) for r in RULESETS.values()]


def catalogue(ruleset_id: str) -> dict[str, Any]:
    """The game's own catalogue (games/<game>/catalogue.py), as JSON; RulesetNotFoundError for an unknown id."""
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is None:
        raise RulesetNotFoundError(f"no ruleset {ruleset_id!r}; offered: {', '.join(RULESETS)}")
    found = ruleset.catalogue
    return {
        "ruleset": ruleset.id,
        "cards": [dict(card) for card in found.cards],
        "kinds": dict(found.kinds),
        "constants": {name: {"value": c.value, "description": c.description} for name, c in found.constants.items()},
    }


RULESET_ID = {
    "in": "path",
    "name": "ruleset_id",
    "description": "a ruleset's `id`, as `GET /v1/rulesets` lists them",
    "schema": {"type": "string", "enum": list(RULESETS)},
}


@blp.route("/<ruleset_id>/cards", parameters=[RULESET_ID])
class CardCatalogue(MethodView):
    @blp.doc(operationId="getCardCatalogue")
    @blp.response(200, CatalogueSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, ruleset_id: str) -> Any:
        """A game's card catalogue: every card and loot id with its numbers, and the rules' other numbers"""
        return catalogue(ruleset_id)
