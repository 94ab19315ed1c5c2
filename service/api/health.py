"""Liveness, readiness and Redis reachability."""

from __future__ import annotations

from typing import Any

import redis
from flask.views import MethodView

from service.api import schemas
from service.api.context import services
from service.api.parsing import Blueprint

blp = Blueprint("health", __name__, description="Health")


def ping_redis() -> None:
    """Raise redis.ConnectionError (or TimeoutError) unless Redis answers."""
    services().repository.store.ping()


@blp.route("/healthz")
class Health(MethodView):
    @blp.doc(operationId="getHealth")
    @blp.response(200, schemas.HealthSchema)
    @blp.alt_response(503, schema=schemas.HealthSchema, description="Redis does not answer: `degraded`")
    def get(self) -> Any:
        """Liveness, and whether Redis answers"""
        try:
            ping_redis()
        except redis.RedisError:
            return {"status": "degraded", "redis": "unreachable"}, 503
        return {"status": "ok", "redis": "ok"}


@blp.route("/livez")
class Live(MethodView):
    @blp.doc(operationId="getLiveness")
    @blp.response(200, schemas.LivenessSchema)
    def get(self) -> Any:
        """The process answers; touches neither Redis nor the rate limit"""
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.doc(operationId="getReadiness")
    @blp.response(200, schemas.HealthSchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE")
    def get(self) -> Any:
        """Ready when Redis answers; otherwise 503 `unavailable`, as every route that needs Redis"""
        ping_redis()  # an error leaves as the same 503 problem every route gives without Redis
        return {"status": "ok", "redis": "ok"}
