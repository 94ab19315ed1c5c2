"""The leaderboard: players and bots of a ruleset by rating, and the quick match into the lobby."""

from __future__ import annotations

from typing import Any

import msgspec
from flask.views import MethodView
from flask_smorest.pagination import PaginationParameters

from service.application import queries, seating
from service.http import player_schemas, schemas
from service.http.context import services
from service.http.openapi.document import PLAYER
from service.http.parsing import Blueprint
from service.http.resources.players import me

blp = Blueprint("leaderboard", __name__, url_prefix="/v1", description="Ratings and matchmaking")


@blp.route("/leaderboard")
class Leaderboard(MethodView):
    @blp.doc(operationId="getLeaderboard")
    @blp.arguments(schemas.LeaderboardQuerySchema, location="query")
    @blp.response(200, schemas.LeaderboardSchema)
    @blp.paginate()
    def get(self, query: dict[str, str], pagination_parameters: PaginationParameters) -> Any:
        """Players and bots of a ruleset by rating (mu - 3 sigma): games, wins, uncertainty; paginated"""
        ruleset = query["ruleset"]
        p = pagination_parameters
        total, rows = queries.leaderboard(services(), ruleset, (p.page - 1) * p.page_size, p.page_size)
        p.item_count = total
        return {"ruleset": ruleset, "players": rows}


@blp.route("/quick-match")
class QuickMatch(MethodView):
    @blp.doc(operationId="quickMatch", security=PLAYER)
    @blp.arguments(player_schemas.QuickMatchSchema)
    @blp.response(200, player_schemas.QuickMatchResultSchema)
    @blp.alt_response(201, schema=player_schemas.QuickMatchResultSchema, description="a new game was created")
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(409, response="CONFLICT")
    def post(self, body: dict[str, Any]) -> Any:
        """Take a seat in the oldest waiting game of a ruleset, seat count and options that can be trusted (secret
        randomness, no seats held anonymously), or create one"""
        acted, seat, made = seating.quick_match(services(), body["ruleset"], body["seat_count"], me(), body["options"])
        lobby = msgspec.json.decode(msgspec.json.encode(queries.lobby_entry(acted.game.table)))
        return {"seat": seat, "created": made, "game": lobby}, 201 if made else 200
