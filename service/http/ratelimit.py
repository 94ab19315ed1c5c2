"""Requests are limited per client address, across every route but the health checks and static files.

One fixed-window counter per client in Redis, one round trip a request, kept by the `limits` library (the
engine Flask-Limiter is built on, used directly: it does the same count for a fraction of the per-request
work). A client cannot dodge the limit by sending made-up tokens, and seat tokens never reach its keys. If
the counter's Redis cannot be reached, requests pass (the route answers 503 itself if it needs Redis).
"""

from __future__ import annotations

import logging
import time

import redis
from flask import Flask, request
from limits import RateLimitItem, parse
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from service.http.errors import RateLimitedError

log = logging.getLogger(__name__)

PREFIX = "syndicate:rate"
TIMEOUT_S = 1
"""How long a count may take before the request passes uncounted: a Redis gone silent delays every request by
this much, on top of its own wait if it needs Redis."""
EXEMPT = frozenset(
    {"health.Health", "health.Live", "health.Ready", "health.Metrics", "static", "docs_assets.static", "web.static"}
)


def caller_key() -> str:
    """Whose requests these are: the client's address (behind SYNDICATE_TRUSTED_PROXIES proxies, as the outermost
    trusted one saw it: service/http/app.py)."""
    return request.remote_addr or "anonymous"


class RateLimit:
    def __init__(self, storage_url: str, rule: str) -> None:
        self.item: RateLimitItem = parse(rule)
        self.limiter = FixedWindowRateLimiter(
            storage_from_string(storage_url, socket_timeout=TIMEOUT_S, socket_connect_timeout=TIMEOUT_S)
        )

    def install(self, app: Flask) -> None:
        app.before_request(self.check)

    def check(self) -> None:
        """Count the request; RateLimitedError (429) once over the limit, with when to come back."""
        if request.endpoint in EXEMPT or request.method == "OPTIONS":
            return
        key = caller_key()
        try:
            if self.limiter.hit(self.item, PREFIX, key):
                return
            reset_at, remaining = self.limiter.get_window_stats(self.item, PREFIX, key)
        except redis.RedisError as error:  # fail open: an outage is answered by the routes that need Redis
            log.warning("rate limit not counted: %s", error)
            return
        reset_in = min(self.item.get_expiry(), max(1, int(reset_at - time.time())))
        detail, headers = refusal(self.item, reset_in, remaining)
        raise RateLimitedError(detail, headers=headers)


RATE_LIMIT_HEADERS = ("Retry-After", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy")


def refusal(rule: RateLimitItem | str, reset_in: int, remaining: int = 0) -> tuple[str, dict[str, str]]:
    """What a 429 says: its detail, and its headers (when to come back, which limit it hit)."""
    item = parse(rule) if isinstance(rule, str) else rule
    amount, window = item.amount, item.get_expiry()
    detail = f"over {amount} requests per {window} s from this address; try again in {reset_in} s"
    values = (reset_in, amount, remaining, reset_in, f"{amount};w={window}")
    return detail, dict(zip(RATE_LIMIT_HEADERS, map(str, values), strict=True))
