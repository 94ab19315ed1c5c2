"""Configuration from the environment, with defaults that work on a laptop."""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from redis import Redis
from redis.cluster import RedisCluster

from events.replication import Replication
from games.search import DEFAULT_BUDGET_MS
from service.application.admission import Limits
from service.application.ports import Judge, house_judge
from service.application.review import REVIEW_STEP_S

REDIS_SOCKET_TIMEOUT_S = 5
"""Longer than a live feed's blocking read (live.WAKE_S, 3 s), short enough that a Redis gone silent (stopped, or
cut off without a reset) costs a request seconds, not minutes, before its 503. A replica WAIT adds its own time."""

DEFAULT_RATE_LIMIT = "600 per minute"
"""Requests without a token per client address, unless SYNDICATE_RATE_LIMIT says otherwise (the `limits`
library's notation; service/http/ratelimit.py says what each budget counts)."""
DEFAULT_TOKEN_RATE_LIMIT = "3000 per minute"
"""Requests per bearer token (a seat's or a player's), unless SYNDICATE_RATE_LIMIT_TOKEN says otherwise."""
RATE_LIMIT_SETTINGS = (
    "SYNDICATE_RATE_LIMIT",
    "SYNDICATE_RATE_LIMIT_TOKEN",
    "SYNDICATE_RATE_LIMIT_ADDRESS",
    "SYNDICATE_RATE_LIMIT_OPEN",
)
"""Every budget's setting, for a deployment that sets them all alike (a benchmark's or a test's)."""


def every_rate_limit(rule: str) -> dict[str, str]:
    """Every budget set to one rule, as environment variables."""
    return dict.fromkeys(RATE_LIMIT_SETTINGS, rule)


DEFAULT_ADDRESS_RATE_LIMIT = "6000 per minute"
"""Requests with a token per client address, whatever the token, unless SYNDICATE_RATE_LIMIT_ADDRESS says otherwise."""
DEFAULT_OPEN_RATE_LIMIT = "60 per minute"
"""Creations, joins and registrations without a token per client address, unless SYNDICATE_RATE_LIMIT_OPEN says
otherwise."""


def flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


class ConfigError(RuntimeError):
    """The environment asks for something that cannot work; said at start-up, not at the first request."""


@dataclass(frozen=True)
class Config:
    redis_url: str | None = field(default_factory=lambda: os.environ.get("REDIS_URL") or None)
    redis_cluster: bool = field(default_factory=lambda: flag("SYNDICATE_REDIS_CLUSTER"))
    """`REDIS_URL` names a node of a Redis Cluster; the client learns the others from it."""
    queue_url: str | None = field(default_factory=lambda: os.environ.get("SYNDICATE_QUEUE_URL") or None)
    """The plain Redis for RQ's jobs, scheduler and sweep (RQ does not speak Cluster); REDIS_URL by default."""
    min_replicas: int = field(default_factory=lambda: int(os.environ.get("SYNDICATE_MIN_REPLICAS", "0")))
    """Replicas that must hold a write before it is answered (Redis `WAIT`); 0: do not wait."""
    replica_timeout_ms: int = field(default_factory=lambda: int(os.environ.get("SYNDICATE_REPLICA_TIMEOUT_MS", "1000")))
    data_dir: Path = field(default_factory=lambda: Path(os.environ.get("SYNDICATE_DATA_DIR", "var")))
    redis_port: int = field(default_factory=lambda: int(os.environ.get("SYNDICATE_REDIS_PORT", "6390")))
    redis_fsync: str = field(default_factory=lambda: os.environ.get("SYNDICATE_REDIS_FSYNC", "always"))
    rate_limit: str = field(default_factory=lambda: os.environ.get("SYNDICATE_RATE_LIMIT", DEFAULT_RATE_LIMIT))
    rate_limit_token: str = field(
        default_factory=lambda: os.environ.get("SYNDICATE_RATE_LIMIT_TOKEN", DEFAULT_TOKEN_RATE_LIMIT)
    )
    rate_limit_address: str = field(
        default_factory=lambda: os.environ.get("SYNDICATE_RATE_LIMIT_ADDRESS", DEFAULT_ADDRESS_RATE_LIMIT)
    )
    rate_limit_open: str = field(
        default_factory=lambda: os.environ.get("SYNDICATE_RATE_LIMIT_OPEN", DEFAULT_OPEN_RATE_LIMIT)
    )
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
    """Proxies in front of the API whose `X-Forwarded-For`/`-Proto`/`-Host` are believed (service/http/app.py)."""
    worker_metrics_port: int = field(default_factory=lambda: int(os.environ.get("SYNDICATE_WORKER_METRICS_PORT", "0")))
    """Where `syndicate worker` serves its own `/metrics` (a worker container's); 0: nowhere."""
    bot_pace_s: float = field(default_factory=lambda: float(os.environ.get("SYNDICATE_BOT_PACE_S", "1")))
    """The least time between two turns of an all-bot game (0: as fast as the workers go)."""
    bot_budget_ms: float = field(
        default_factory=lambda: float(os.environ.get("SYNDICATE_BOT_BUDGET_MS", str(DEFAULT_BUDGET_MS)))
    )
    """How long a searching bot (`hard`) thinks over one decision, in milliseconds of the worker's clock."""
    games_per_address: int = field(default_factory=lambda: int(os.environ.get("SYNDICATE_GAMES_PER_ADDRESS", "20")))
    """Unfinished games an anonymous client (by address) may hold: created, or seated in."""
    games_per_player: int = field(default_factory=lambda: int(os.environ.get("SYNDICATE_GAMES_PER_PLAYER", "20")))
    """Unfinished games a player may hold: created, or seated in."""
    admission_s: float = field(default_factory=lambda: float(os.environ.get("SYNDICATE_ADMISSION_S", "5")))
    """New games are refused (503) while the queued work ahead of them would take the workers longer than this."""
    judge: str = field(default_factory=lambda: os.environ.get("SYNDICATE_JUDGE", ""))
    """Another judge for finished games' reviews than the house's, as `module:name` (a test's); empty: the house's
    (service/application/ports.py `house_judge`)."""

    review_step_s: float = field(
        default_factory=lambda: float(os.environ.get("SYNDICATE_REVIEW_STEP_S", str(REVIEW_STEP_S)))
    )
    """How long one step of a finished game's review judges (a job of its own): a bot's turn waits behind one step
    at most."""

    def review_judge(self) -> Judge:
        """The judge of finished games' reviews: the one `judge` names, else the house's."""
        if not self.judge:
            return house_judge()
        module, _, name = self.judge.partition(":")
        try:
            found: Judge = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError, ValueError) as error:
            raise ConfigError(f"SYNDICATE_JUDGE={self.judge!r} names no judge ({error})") from None
        return found

    def limits(self) -> Limits:
        return Limits(self.games_per_address, self.games_per_player, self.admission_s)

    @property
    def rate_limit_storage(self) -> str:
        """Where the rate limit counts: the same Redis (the `limits` library's URL; `redis+cluster://` for a
        cluster, whose keys spread over its masters)."""
        if not self.redis_url:
            raise RuntimeError("REDIS_URL is not set")
        if self.redis_cluster:
            return "redis+cluster://" + urlsplit(self.redis_url).netloc
        return self.redis_url

    @property
    def redis_timeout_s(self) -> float:
        """How long a Redis command may take to answer before the request is 503 `unavailable`."""
        return REDIS_SOCKET_TIMEOUT_S + (self.replica_timeout_ms / 1000 if self.min_replicas else 0)

    def redis(self) -> Redis:
        """A client for the games' Redis (a RedisCluster in cluster mode, which speaks the same commands);
        every live feed holds one connection while it waits."""
        self.check()
        assert self.redis_url
        options = {"socket_timeout": self.redis_timeout_s, "max_connections": self.redis_max_connections}
        if self.redis_cluster:
            return RedisCluster.from_url(self.redis_url, **options)  # type: ignore[return-value]
        return Redis.from_url(self.redis_url, **options)

    def queue_redis(self) -> Redis:
        """A client for the Redis that holds RQ's queues: always a plain Redis."""
        self.check()
        url = self.queue_url or self.redis_url
        assert url
        return Redis.from_url(url, socket_timeout=self.redis_timeout_s)

    def replication(self) -> Replication:
        return Replication(self.min_replicas, self.replica_timeout_ms)

    def check(self) -> None:
        """ConfigError if the settings cannot work together."""
        if not self.redis_url:
            raise ConfigError("REDIS_URL is not set: `syndicate run` starts a Redis of its own and sets it")
        if self.redis_cluster and not self.queue_url:
            raise ConfigError(
                "SYNDICATE_REDIS_CLUSTER is on but SYNDICATE_QUEUE_URL is not set: RQ's queues need a plain "
                "Redis of their own (RQ does not speak Redis Cluster)"
            )
        if self.min_replicas < 0 or self.replica_timeout_ms < 1:
            raise ConfigError("SYNDICATE_MIN_REPLICAS must be 0 or more, SYNDICATE_REPLICA_TIMEOUT_MS 1 or more")
