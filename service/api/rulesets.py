"""The games the service offers."""

from __future__ import annotations

from typing import Any

import msgspec
from flask.views import MethodView

from games.base import Ruleset
from games.registry import RULESETS
from games.table import options_of
from service.api import schemas
from service.api.parsing import Blueprint

blp = Blueprint("rulesets", __name__, url_prefix="/v1/rulesets", description="The games offered")


def describe(ruleset: Ruleset[Any]) -> dict[str, Any]:
    return {
        "id": ruleset.id,
        "name": ruleset.name,
        "min_players": ruleset.min_seats,
        "max_players": ruleset.max_seats,
        "description": ruleset.description,
        "options": [
            {"name": name, "type": o.kind.__name__, "default": o.default, "description": o.description}
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
