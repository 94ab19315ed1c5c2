"""RQ jobs: JSON-able arguments, one use case of the house each. RQ calls them by name; they act through the house
of the worker that runs them (`Workshop`, set around each job by service/worker/runner.py).

Each job leaves one JSON log line at INFO (its id, the id of the request it came from, its game, outcome and
duration) and its count in the metrics."""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

import redis
from rq import get_current_job

from service.application.house import Done, House, Outcome
from service.application.review import Reviewed
from service.observability import logs, metrics
from service.worker.scheduler import Scheduler

log = logging.getLogger("syndicate.jobs")

R = TypeVar("R")


@dataclass(frozen=True)
class Workshop:
    """What a worker's jobs work with: the house (over the worker's services), and the queue's scheduler."""

    house: House
    scheduler: Scheduler


working: ContextVar[Workshop] = ContextVar("working")
"""The workshop of the worker running the current job."""


@contextlib.contextmanager
def at(workshop: Workshop) -> Iterator[None]:
    """Run jobs with this workshop (the worker does, around each job)."""
    token = working.set(workshop)
    try:
        yield
    finally:
        working.reset(token)


def workshop() -> Workshop:
    try:
        return working.get()
    except LookupError:
        raise RuntimeError("a job runs in a worker that gives it its workshop (service/worker/runner.py)") from None


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
    with contextlib.suppress(redis.RedisError):  # a count lost is a pace a little underestimated
        workshop().scheduler.job_done(at)


def starting(kind: str, game_id: str) -> None:
    """This job of the game's runs: a need that arises from now on gets a job of its own."""
    current = get_current_job()
    if current is not None:
        workshop().scheduler.started(kind, game_id, current.id)


@logged
def bots_turn(game_id: str) -> Done:
    starting("bot", game_id)
    done = workshop().house.play_bots(game_id)
    metrics.BOT_TURNS.inc(done.seats)
    return done


@logged
def deadline(game_id: str, wait_since: int) -> Done:
    done = workshop().house.expire(game_id, wait_since)
    if done.outcome is Outcome.TIMED_OUT or done.seats:
        metrics.DEADLINES_FIRED.inc()
    return done


@logged
def tally(game_id: str) -> Done:
    starting("tally", game_id)
    return workshop().house.tally(game_id)


@logged
def review(game_id: str) -> Reviewed:
    """One step of a finished game's review. One that leaves more to judge queues the next, behind the other
    reviews' steps, and hands it the review's pending mark (a read meanwhile queues no other); the last clears the
    mark once the review is kept. A step lost with its worker leaves its mark to a job that is no longer alive: the
    next read queues a step again, which goes on from the progress kept."""
    current = get_current_job()
    reviewed = workshop().house.review(game_id)
    if current is not None:
        if reviewed is Reviewed.MORE:
            workshop().scheduler.review_next(game_id, current.id)
        else:
            workshop().scheduler.started("review", game_id, current.id)
    return reviewed


@logged
def sweep() -> int:
    return workshop().house.sweep()
