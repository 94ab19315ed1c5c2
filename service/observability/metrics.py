"""Prometheus metrics, added up across gunicorn's workers (prometheus-client's multiprocess mode).

`syndicate serve` and `syndicate run` point PROMETHEUS_MULTIPROC_DIR at a directory before any worker starts:
each process keeps its counts in files there, `/metrics` adds them up, and a gunicorn worker that exits is
marked dead, which drops its share of the live gauges and keeps its counts (service/ops/gunicorn_conf.py).
Without the variable (the tests, a worker container) the counts are the process's own.

The counts that happen in the worker (bot turns, deadlines) are in the API's `/metrics` under `syndicate run`,
which gives both the same directory; a worker container serves its own on SYNDICATE_WORKER_METRICS_PORT.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping

import redis
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, generate_latest, multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from events.repository import Decision
from games.commands import MakeMove

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

REQUESTS = Counter(
    "syndicate_http_requests", "HTTP requests answered, by route (its template), method and status",
    ["route", "method", "status"],
)  # fmt: skip
MOVE_SECONDS = Histogram(
    "syndicate_move_duration_seconds",
    "Time to answer POST /v1/games/{game_id}/moves, whatever the answer",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
MOVES = Counter("syndicate_moves", "Moves made, by ruleset and by whom: player, bot or deadline", ["ruleset", "by"])
REFUSALS = Counter("syndicate_refusals", "Problem answers (application/problem+json), by code", ["code"])
BOT_TURNS = Counter("syndicate_bot_turns", "Moves a bot made for its seat (a seat played in a turn of the house)")
DEADLINES_FIRED = Counter("syndicate_deadlines_fired", "Deadlines that acted (a wait closed, or late seats played for)")
LIVE_FEEDS = Gauge("syndicate_live_feeds_open", "Live feeds (SSE) open now", multiprocess_mode="livesum")


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


QueueCounts = Callable[[], Mapping[tuple[str, str], int]]
"""Each job queue's size by state: (queue, state) -> jobs."""


class QueueDepth(Collector):
    """Each job queue's size by state, read at each scrape; nothing while its Redis is away."""

    def __init__(self, counted: QueueCounts) -> None:
        self.counted = counted

    def collect(self) -> Iterator[Metric]:
        try:
            counts = self.counted()
        except redis.RedisError:
            return
        family = GaugeMetricFamily("syndicate_queue_jobs", "Jobs in each queue, by state", labels=["queue", "state"])
        for (queue, state), count in counts.items():
            family.add_metric([queue, state], count)
        yield family


def exposition(queues: QueueCounts | None) -> bytes:
    """The metrics in Prometheus' text format: every process's (or this one's), and the queues' depth."""
    directory = multiprocess_dir()
    if directory is None:
        body = generate_latest(REGISTRY)
    else:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=directory)
        body = generate_latest(registry)
    return body + (generate_latest(QueueDepth(queues)) if queues else b"")


class MovesCounted:
    """Counts each move saved, by ruleset and by whom: told of every saved decision (service/bootstrap.py)."""

    def follow(self, decision: Decision) -> None:
        if isinstance(decision.command, MakeMove):
            MOVES.labels(decision.after.ruleset.id, decision.command.by or "player").inc()
