"""Every request gets an id, one JSON log line and its count in `/metrics`.

The id is the client's (or its proxy's) `X-Request-ID` when that is a plain token of at most 128 characters,
else a new one; either way the answer carries it back, so a client's report and our log line meet.
"""

from __future__ import annotations

import logging
import re
import time
import uuid

from flask import Flask, Response, g, request

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
    seconds = time.perf_counter() - g.get("started", time.perf_counter())
    request_id = g.get("request_id") or uuid.uuid4().hex
    route = request.url_rule.rule if request.url_rule is not None else "unmatched"
    response.headers[HEADER] = request_id
    metrics.REQUESTS.labels(route, request.method, str(response.status_code)).inc()
    if request.endpoint == MOVE_ENDPOINT:
        metrics.MOVE_SECONDS.observe(seconds)
    fields = {
        "request_id": request_id,
        "method": request.method,
        "route": route,
        "path": request.path,
        "game_id": (request.view_args or {}).get("game_id"),
        "status": response.status_code,
        "duration_ms": round(seconds * 1000, 2),
        "client": request.remote_addr,
    }
    log.info("%s %s %d", request.method, request.path, response.status_code, extra={"fields": fields})
    return response
