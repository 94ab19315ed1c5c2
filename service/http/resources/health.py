"""Liveness, readiness, Redis reachability and the Prometheus metrics."""

from __future__ import annotations

from typing import Any

import redis
from flask import Response
from flask.views import MethodView

from service.http import schemas
from service.http.context import services
from service.http.parsing import Blueprint
from service.observability import metrics

blp = Blueprint("health", __name__, description="Health and metrics")

METRICS_DOC = (
    "Prometheus' text format: `syndicate_http_requests_total` (by route, method, status), "
    "`syndicate_move_duration_seconds`, `syndicate_moves_total` (by ruleset, by whom), `syndicate_refusals_total` "
    "(by code), `syndicate_bot_turns_total`, `syndicate_deadlines_fired_total`, `syndicate_queue_jobs` (by state), "
    "`syndicate_live_feeds_open`"
)


def ping_redis() -> None:
    """Raise redis.ConnectionError (or TimeoutError) unless Redis answers."""
    services().repository.ping()


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
    @blp.response(200, schemas.ReadinessSchema)
    @blp.alt_response(503, response="SERVICE_UNAVAILABLE")
    def get(self) -> Any:
        """Ready when Redis and the job queue's Redis answer; else 503 `unavailable`, as every route needing Redis"""
        ping_redis()  # an error leaves as the same 503 problem every route gives without Redis
        services().jobs.ping()  # moves enqueue bots, deadlines and tallies there
        return {"status": "ok", "redis": "ok", "queue": "ok"}


@blp.route("/metrics")
class Metrics(MethodView):
    @blp.doc(
        operationId="getMetrics",
        responses={
            "200": {"description": METRICS_DOC, "content": {metrics.CONTENT_TYPE: {"schema": {"type": "string"}}}}
        },
    )
    @blp.response(200)
    def get(self) -> Any:
        """Prometheus metrics, summed across the server's workers; not rate limited, answers without Redis"""
        return Response(metrics.exposition(services().jobs.counts), content_type=metrics.CONTENT_TYPE)
