"""Configuration from the environment, with defaults that work on a laptop."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import redis

REDIS_SOCKET_TIMEOUT_S = 30
"""Longer than a live feed's blocking read (15 s), short enough to notice a Redis gone silent."""


@dataclass(frozen=True)
class Config:
    redis_url: str | None = field(default_factory=lambda: os.environ.get("REDIS_URL") or None)
    data_dir: Path = field(default_factory=lambda: Path(os.environ.get("SYNDICATE_DATA_DIR", "var")))
    redis_port: int = field(default_factory=lambda: int(os.environ.get("SYNDICATE_REDIS_PORT", "6390")))
    redis_fsync: str = field(default_factory=lambda: os.environ.get("SYNDICATE_REDIS_FSYNC", "always"))
    rate_limit: str = field(default_factory=lambda: os.environ.get("SYNDICATE_RATE_LIMIT", "600 per minute"))
    host: str = field(default_factory=lambda: os.environ.get("SYNDICATE_HOST", "127.0.0.1"))
    port: int = field(default_factory=lambda: int(os.environ.get("SYNDICATE_PORT", "8000")))
    workers: int = field(default_factory=lambda: int(os.environ.get("SYNDICATE_WEB_WORKERS", "2")))
    redis_max_connections: int = field(
        default_factory=lambda: int(os.environ.get("SYNDICATE_REDIS_MAX_CONNECTIONS", "1000"))
    )
    sweep_s: float = field(default_factory=lambda: float(os.environ.get("SYNDICATE_SWEEP_S", "5")))
    stall_s: float = field(default_factory=lambda: float(os.environ.get("SYNDICATE_STALL_S", "10")))
    cors_origins: tuple[str, ...] = field(
        default_factory=lambda: tuple(
            o.strip() for o in os.environ.get("SYNDICATE_CORS_ORIGINS", "").split(",") if o.strip()
        )
    )
    """Origins whose pages may call the API from a browser, comma-separated (`*` for any); none by default."""
    trusted_proxies: int = field(default_factory=lambda: int(os.environ.get("SYNDICATE_TRUSTED_PROXIES", "0")))
    """Proxies in front of the API whose `X-Forwarded-For`/`-Proto`/`-Host` are believed (service/app.py)."""
    worker_metrics_port: int = field(default_factory=lambda: int(os.environ.get("SYNDICATE_WORKER_METRICS_PORT", "0")))
    """Where `syndicate worker` serves its own `/metrics` (a worker container's); 0: nowhere."""

    @property
    def rate_limit_storage(self) -> str:
        """Where the rate limit counts: the same Redis (the `limits` library's URL)."""
        if not self.redis_url:
            raise RuntimeError("REDIS_URL is not set")
        return self.redis_url

    def redis(self) -> redis.Redis:
        """A client for the configured Redis; every live feed holds one connection while it waits."""
        if not self.redis_url:
            raise RuntimeError("REDIS_URL is not set: `syndicate run` starts a Redis of its own and sets it")
        return redis.Redis.from_url(
            self.redis_url, socket_timeout=REDIS_SOCKET_TIMEOUT_S, max_connections=self.redis_max_connections
        )
