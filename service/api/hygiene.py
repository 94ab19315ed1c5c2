"""HTTP manners every route shares: CORS for the configured origins, rate-limit headers on a 429, and
conditional GETs (`If-None-Match` → 304)."""

from __future__ import annotations

import time

from flask import Flask, Response, request
from flask_cors import CORS
from flask_limiter import Limiter

ALLOWED_HEADERS = ["Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key", "Last-Event-ID"]
EXPOSED_HEADERS = [
    "ETag",
    "Location",
    "Retry-After",
    "X-Pagination",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "RateLimit-Policy",
]


def allow_origins(app: Flask, origins: tuple[str, ...]) -> None:
    """Browsers on these origins may call the API (none unless configured). No cookies are involved: a page
    authenticates with a bearer token, and opens a seat's live feed with a stream ticket."""
    if origins:
        CORS(app, origins=list(origins), allow_headers=ALLOWED_HEADERS, expose_headers=EXPOSED_HEADERS, max_age=600)


def rate_limit_headers(app: Flask, limiter: Limiter) -> None:
    """A 429 says when to come back (`Retry-After`) and which limit it hit (`RateLimit-*`, IETF draft). Only a
    429 pays the extra Redis read these need: every other answer is left as it is."""

    @app.after_request
    def add(response: Response) -> Response:
        current = limiter.current_limit if response.status_code == 429 else None
        if current is not None:
            amount, window = current.limit.amount, current.limit.get_expiry()
            reset_in = min(window, max(1, current.reset_at - int(time.time())))
            response.headers.update(
                {
                    "Retry-After": str(reset_in),
                    "RateLimit-Limit": str(amount),
                    "RateLimit-Remaining": str(current.remaining),
                    "RateLimit-Reset": str(reset_in),
                    "RateLimit-Policy": f"{amount};w={window}",
                }
            )
        return response


def etag(version: int) -> str:
    return f'"{version}"'


def unchanged(version: int) -> Response | None:
    """304 Not Modified if the caller's `If-None-Match` names this version; None to answer in full. A view
    differs by caller, so the answer varies by `Authorization`."""
    if request.if_none_match and request.if_none_match.contains_weak(str(version)):
        return Response(status=304, headers={"ETag": etag(version), "Vary": "Authorization"})
    return None
