"""RQ jobs: JSON-able arguments, one use case each. The worker process sets up the house once.

Each job leaves one JSON log line at INFO (its id, the id of the request it came from, its game, outcome and
duration) and its count in the metrics."""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from rq import get_current_job

from service.application.house import House
from service.bootstrap import bootstrap
from service.config import Config
from service.observability import logs, metrics

log = logging.getLogger("syndicate.jobs")

_house: House | None = None

R = TypeVar("R")


def use(house: House) -> None:
    """Make the jobs of this process act through `house`."""
    global _house
    _house = house


def house() -> House:
    if _house is None:
        config = Config()
        use(House(bootstrap(config), config.stall_s))
    assert _house is not None
    return _house


def logged(job: Callable[..., R]) -> Callable[..., R]:
    """One line per job run: what it was, for which game, what came of it (`failed`: RQ logs why) and how long."""

    @functools.wraps(job)
    def run(*args: Any) -> R:
        started, outcome = time.perf_counter(), "failed"
        current = get_current_job()
        cause = logs.request_id.set(current.meta.get("request_id") if current else None)
        try:
            result = job(*args)
            outcome = str(result)
            return result
        finally:
            fields = {
                "job": job.__name__,
                "job_id": current.id if current else None,
                "request_id": logs.request_id.get(),
                "game_id": args[0] if args else None,
                "outcome": outcome,
                "duration_ms": round((time.perf_counter() - started) * 1000, 2),
            }
            level = logging.WARNING if outcome == "failed" else logging.INFO
            subject = " ".join(str(part) for part in (job.__name__, *args[:1]))
            log.log(level, "%s: %s", subject, outcome, extra={"fields": fields})
            logs.request_id.reset(cause)
            counted(time.time())

    return run


def counted(at: float) -> None:
    """Count the job among those done: admission control weighs the queue against the workers' pace."""
    scheduler = house().services.scheduler
    if scheduler is not None:
        with contextlib.suppress(redis.RedisError):  # a count lost is a pace a little underestimated
            scheduler.job_done(at)


def starting(kind: str, game_id: str) -> None:
    """This job of the game's runs: a need that arises from now on gets a job of its own."""
    current, scheduler = get_current_job(), house().services.scheduler
    if current is not None and scheduler is not None:
        scheduler.started(kind, game_id, current.id)


@logged
def bots_turn(game_id: str) -> str:
    starting("bot", game_id)
    outcome = house().play_bots(game_id)
    if outcome.startswith("played for"):
        metrics.BOT_TURNS.inc(int(outcome.split()[2]))
    return outcome


@logged
def deadline(game_id: str, wait_since: int) -> str:
    outcome = house().expire(game_id, wait_since)
    if outcome not in ("moved on", "played for 0 seats", "not due"):
        metrics.DEADLINES_FIRED.inc()
    return outcome


@logged
def tally(game_id: str) -> str:
    starting("tally", game_id)
    return house().tally(game_id)


@logged
def sweep() -> int:
    return house().sweep()
