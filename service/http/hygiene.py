"""HTTP manners every route shares: CORS for the configured origins and conditional GETs (`If-None-Match`
→ 304). (A 429's headers: service/http/ratelimit.py.)"""

from __future__ import annotations

from flask import Flask, Response, request
from flask_cors import CORS

ALLOWED_METHODS = ["GET", "HEAD", "POST", "DELETE", "OPTIONS"]
"""The methods the API's routes take (flask-cors would offer PUT and PATCH too)."""
ALLOWED_HEADERS = [
    "Authorization",
    "Content-Type",
    "If-Match",
    "If-None-Match",
    "Idempotency-Key",
    "Last-Event-ID",
    "X-Request-ID",
]
EXPOSED_HEADERS = [
    "ETag",
    "Location",
    "Retry-After",
    "X-Pagination",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "RateLimit-Policy",
    "X-Request-ID",
]


def allow_origins(app: Flask, origins: tuple[str, ...]) -> None:
    """Browsers on these origins may call the API (none unless configured). No cookies are involved: a page
    authenticates with a bearer token, and opens a seat's live feed with a stream ticket. A request with no
    `Origin` (not a browser's cross-origin call) gets no CORS headers."""
    if origins:
        CORS(
            app,
            origins=list(origins),
            methods=ALLOWED_METHODS,
            allow_headers=ALLOWED_HEADERS,
            expose_headers=EXPOSED_HEADERS,
            max_age=600,
            always_send=False,
            vary_header=False,  # flask-cors adds it only for two origins or more; vary_by_origin, always
        )
        app.after_request(vary_by_origin)


def install(app: Flask, origins: tuple[str, ...]) -> None:
    """The manners of every answer: CORS for the configured origins, and honest headers (below)."""
    allow_origins(app, origins)
    app.after_request(honest_headers)


def honest_headers(response: Response) -> Response:
    """An API answer may depend on who asks (a seat's view, a player's games): it varies by `Authorization`
    for any cache. An answer without a body (204, 304, a preflight) claims no Content-Type."""
    if request.path.startswith("/v1/"):
        if "Vary" in response.headers:
            response.vary.add("Authorization")
        else:  # the usual answer: no need to parse and write back a Vary of none
            response.headers.add("Vary", "Authorization")
    empty = response.status_code in (204, 304) or (
        request.method == "OPTIONS" and not response.is_streamed and not response.get_data()
    )
    if empty:
        response.headers.pop("Content-Type", None)
    return response


def vary_by_origin(response: Response) -> Response:
    """Whether an answer carries CORS headers depends on the request's Origin: a cache must keep them apart."""
    response.vary.add("Origin")
    return response


def etag(version: int, seat: int | None = None) -> str:
    """An answer's entity tag: the version of the game it shows and, for a seat's own view, the seat. A view
    differs by viewer, and a cache holding several answers may ask with all their tags (RFC 9111 4.3.1; a
    browser does when Authorization differs): the 304 must name the viewer's own, never another's."""
    return f'"{version}"' if seat is None else f'"{version}-{seat}"'


def unchanged(version: int, seat: int | None = None, vary: str | None = None) -> Response | None:
    """304 Not Modified if the caller's `If-None-Match` names this answer's tag; None to answer in full. It
    varies as the full answer would (by `Authorization`, as every answer: `honest_headers`)."""
    tag = etag(version, seat)
    if request.if_none_match and request.if_none_match.contains_weak(tag.strip('"')):
        return Response(status=304, headers={"ETag": tag, **({"Vary": vary} if vary else {})})
    return None
