"""Every request gets an id, one JSON log line and its count in `/metrics`.

The id is the client's (or its proxy's) `X-Request-ID` when that is a plain token of at most 128 characters,
else a new one; either way the answer carries it back, so a client's report and our log line meet.
"""

from __future__ import annotations

import logging
import re
import time
import uuid

from flask import Flask, Request, Response, g, request

from service.observability import logs, metrics

HEADER = "X-Request-ID"
GIVEN_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
MOVE_ENDPOINT = "games.MoveResource"

log = logging.getLogger("syndicate.http")


def install(app: Flask) -> None:
    """Call it first: its hook then runs before the rate limit's, so a refused request is logged too."""
    app.before_request(start)
    app.after_request(finish)


def start() -> None:
    g.started = time.perf_counter()
    given = request.headers.get(HEADER, "")
    g.request_id = given if GIVEN_ID.fullmatch(given) else uuid.uuid4().hex
    logs.request_id.set(g.request_id)  # for the jobs this request queues


def finish(response: Response) -> Response:
    """The answer is ready (a live feed's headers are: its line comes when it opens)."""
    asked: Request = request._get_current_object()  # type: ignore[attr-defined]  # once, not once an attribute
    kept = g._get_current_object()
    seconds = time.perf_counter() - getattr(kept, "started", time.perf_counter())
    request_id = getattr(kept, "request_id", None) or uuid.uuid4().hex
    rule = asked.url_rule
    route = rule.rule if rule is not None else "unmatched"
    method, status = asked.method, response.status_code
    response.headers.add(HEADER, request_id)  # no one else sets it
    metrics.REQUESTS.labels(route, method, str(status)).inc()
    if asked.endpoint == MOVE_ENDPOINT:
        metrics.MOVE_SECONDS.observe(seconds)
    if log.isEnabledFor(logging.INFO):
        path = asked.path
        fields = {
            "request_id": request_id,
            "method": method,
            "route": route,
            "path": path,
            "game_id": (asked.view_args or {}).get("game_id"),
            "status": status,
            "duration_ms": round(seconds * 1000, 2),
            "client": asked.remote_addr,
        }
        log.info("%s %s %d", method, path, status, extra={"fields": fields})
    return response
