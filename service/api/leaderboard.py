"""The leaderboard across finished games, by player name."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from games.registry import RULESETS
from games.table import SetupError
from service import queries
from service.api import schemas
from service.api.context import services
from service.api.parsing import Blueprint

blp = Blueprint("leaderboard", __name__, url_prefix="/v1/leaderboard", description="Standings across games")


@blp.route("")
class Leaderboard(MethodView):
    @blp.doc(operationId="getLeaderboard")
    @blp.arguments(schemas.LeaderboardQuerySchema, location="query")
    @blp.response(200, schemas.LeaderboardSchema)
    def get(self, query: dict[str, str]) -> Any:
        """Players of a ruleset by wins, then points: games played, wins, points"""
        ruleset = query["ruleset"]
        if ruleset not in RULESETS:
            raise SetupError("unknown_ruleset", f"no ruleset {ruleset!r}; see GET /v1/rulesets")
        players = queries.leaderboard(services(), ruleset)
        return {"ruleset": ruleset, "players": players}
