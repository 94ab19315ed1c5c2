"""Liveness and Redis reachability."""

from __future__ import annotations

from typing import Any

import redis
from flask import current_app
from flask.views import MethodView

from service.api import schemas
from service.api.parsing import Blueprint

blp = Blueprint("health", __name__, url_prefix="/healthz", description="Health")


@blp.route("")
class Health(MethodView):
    @blp.response(200, schemas.HealthSchema)
    @blp.alt_response(503, schema=schemas.HealthSchema)
    def get(self) -> Any:
        """Liveness, and whether Redis answers"""
        try:
            current_app.extensions["syndicate.redis"].ping()
        except redis.RedisError:
            return {"status": "degraded", "redis": "unreachable"}, 503
        return {"status": "ok", "redis": "ok"}
