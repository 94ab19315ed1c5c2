"""The games the service offers."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from games.registry import RULESETS
from service.application import offered
from service.http import schemas
from service.http.catalogue_schemas import CatalogueSchema
from service.http.context import services
from service.http.parsing import Blueprint

blp = Blueprint("rulesets", __name__, url_prefix="/v1/rulesets", description="The games offered")


@blp.route("")
class RulesetCollection(MethodView):
    @blp.doc(operationId="listRulesets")
    @blp.response(200, schemas.RulesetSchema(many=True))
    def get(self) -> Any:
        """The games offered: players, options, bots and move types"""
        return offered.rulesets(services())


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
        return offered.catalogue(ruleset_id)
