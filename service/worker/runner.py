"""`syndicate worker`: an RQ worker with its scheduler, and the sweep, both outliving Redis outages.

RQ 3.0 rides out an outage only while it waits for a job. A job that meets a dead Redis ends `work()`
("found an unhandled exception, quitting"), the scheduler process dies at its first failed heartbeat, and RQ
restarts a dead scheduler only in its maintenance pass. So this worker keeps going itself: when RQ's loop ends
for any reason but SIGINT or SIGTERM, it waits (with backoff) and runs it again with a fresh RQ worker and
scheduler. That lives here, not in `syndicate run`'s supervisor, so that a worker run on its own (a container
with a Redis elsewhere) also comes back to work once Redis answers again.

A stop is logged as RQ carries it out, so that an operator tells a clean stop from a kill: on SIGTERM or SIGINT a
line says what the worker had in hand (nothing, or a job it finishes first: RQ's warm shutdown); a second signal
a second or more later interrupts that job (RQ fails it, or hands it back to its queue while it has retries left),
with a line of its own; and once the worker is done, a last line says how the job in hand ended.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import socket
import threading
import time
from types import FrameType
from typing import Any

import redis
from rq import Queue, SimpleWorker
from rq.exceptions import DuplicateJobError, StopRequested
from rq.executions import Execution
from rq.job import Job, JobStatus

from service.observability.processes import alive
from service.worker import jobs
from service.worker.backoff import Backoff
from service.worker.scheduler import QUEUE, QUEUES, Scheduler

log = logging.getLogger(__name__)

MAINTENANCE_S = 60
"""RQ's maintenance pass restarts a dead scheduler (RQ's default is every 10 minutes). Until it does, about a
minute after an outage, scheduled jobs wait, and the sweep requeues any deadline that falls overdue."""

stopping = threading.Event()
"""Set by SIGINT or SIGTERM: RQ's loop is not run again."""


class Worker(SimpleWorker):
    """RQ's in-process worker, which runs each job with its workshop (the house it acts through), and whose stop
    request outlives its own loop and works with Redis away."""

    max_connection_wait_time = Backoff.cap
    """While it waits for a job, RQ rides out an outage itself, its retries doubling to this (RQ's own cap is a
    minute: a worker would sit idle up to a minute after Redis came back)."""

    def __init__(self, *args: Any, workshop: jobs.Workshop, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.workshop = workshop
        self.in_hand: Job | None = None
        self.kept: Job | None = None
        """The job in hand when a stop was asked, which the worker finishes (or is interrupted in) before it stops."""
        self.ended = ""
        """How the last job ended: `finished`, `failed`, `handed back` to its queue for a retry, or `interrupted`
        with RQ unable to record it (Redis away)."""

    def execute_job(self, job: Job, queue: Queue) -> None:
        self.in_hand = job
        try:
            super().execute_job(job, queue)
        finally:
            self.in_hand = None

    def perform_job(self, job: Job, queue: Queue, execution: Execution) -> bool:
        self.ended = "interrupted"  # unless RQ gets to record how it ended
        with jobs.at(self.workshop):
            done = bool(super().perform_job(job, queue, execution))
        retried = job.get_status(refresh=False) in (JobStatus.QUEUED, JobStatus.SCHEDULED)
        self.ended = "finished" if done else "handed back" if retried else "failed"
        return done

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        stopping.set()
        name = signal.Signals(signum).name
        try:
            super().request_stop(signum, frame)  # type: ignore[no-untyped-call]  # asks Redis whether a job runs
        except (redis.ConnectionError, redis.TimeoutError):
            self.kept = self.in_hand
            log.info("worker stopping on %s with Redis away: %s", name, doing(self.kept), extra=about(self.kept, name))
            raise StopRequested() from None  # with Redis away, no job can finish anyway
        except StopRequested:
            log.info("worker stopping on %s: idle", name, extra=about(None, name))
            raise
        self.kept = self.in_hand  # RQ found it busy: it stops once the job in hand is done
        what, extra = doing(self.kept, none="the job in hand"), about(self.kept, name)
        log.info("worker stopping on %s once %s is done; a second signal interrupts it", name, what, extra=extra)

    def request_force_stop(self, signum: int, frame: FrameType | None) -> None:
        try:
            super().request_force_stop(signum, frame)  # ignores a repeat within 1 s
        except SystemExit:
            name = signal.Signals(signum).name
            what, extra = doing(self.in_hand), about(self.in_hand, name)
            log.warning("worker stopping at once on a second %s: interrupting %s", name, what, extra=extra)
            raise

    def stopped(self) -> None:
        """The last line of a stop asked for: how the job in hand ended, if there was one."""
        if self.kept is None:
            log.info("worker stopped: idle", extra=about(None, outcome="idle"))
        else:
            log.info("worker stopped: %s %s", doing(self.kept), self.ended, extra=about(self.kept, outcome=self.ended))


def doing(job: Job | None, none: str = "no job") -> str:
    return none if job is None else f"job {job.id} ({job.description})"


def about(job: Job | None, signal_name: str | None = None, **fields: str) -> dict[str, Any]:
    """A stop's fields for the JSON log: the signal, and the job in hand (its id, function and queue) or none."""
    found: dict[str, Any] = {"signal": signal_name} if signal_name else {}
    found["job_id"] = None if job is None else job.id
    if job is not None:
        found |= {"function": job.func_name, "queue": job.origin}
    return {"fields": found | fields}


def on_stop_signal(signum: int, frame: FrameType | None) -> None:
    if not stopping.is_set():
        name = signal.Signals(signum).name
        log.info("worker stopping on %s: idle, between two runs of RQ's loop", name, extra=about(None, name))
    stopping.set()


def handle_stop_signals() -> None:
    """Between two runs of RQ's loop: RQ's own handlers belong to a worker that is done."""
    signal.signal(signal.SIGINT, on_stop_signal)
    signal.signal(signal.SIGTERM, on_stop_signal)


def work_until_stopped(client: redis.Redis, workshop: jobs.Workshop, backoff: Backoff | None = None) -> None:
    """Run RQ's loop (with the scheduler) again and again, until SIGINT or SIGTERM."""
    backoff = backoff or Backoff()
    handle_stop_signals()
    worker: Worker | None = None
    while not stopping.is_set():
        started = time.monotonic()
        try:
            queues = [Queue(name, connection=client) for name in QUEUES]  # in order: people's games first
            worker = Worker(queues, connection=client, maintenance_interval=MAINTENANCE_S, workshop=workshop)
            worker.work(with_scheduler=True, logging_level="WARNING")
            reason = "RQ's loop ended"
        except (redis.ConnectionError, redis.TimeoutError) as error:
            reason = f"Redis unreachable ({error})"
        except SystemExit:  # RQ's cold shutdown (a second signal) outside a job, which would end it unlogged
            reason = "stopped at once"
        handle_stop_signals()
        if stopping.is_set():
            break
        worker = None  # a stop from now on finds the worker between runs, with no job in hand
        delay = backoff.delay(time.monotonic() - started)
        log.warning("worker stopped: %s; starting it again in %g s", reason, delay)
        stopping.wait(delay)
    if worker is None:
        log.info("worker stopped: idle", extra=about(None, outcome="idle"))
    else:
        worker.stopped()


def sweep_every(client: redis.Redis, period_s: float) -> None:
    """Enqueue the sweep once per period; many workers share one sweep per period.

    A period that cannot reach Redis is logged and skipped, never fatal: the sweep is what recovers
    the games an outage stalled."""
    queue = Queue(QUEUE, connection=client)
    while True:
        bucket = int(time.time() // period_s)
        try:
            with contextlib.suppress(DuplicateJobError):
                queue.enqueue("service.worker.jobs.sweep", job_id=f"sweep-{bucket}", unique=True, result_ttl=60)
        except redis.RedisError as error:
            log.warning("sweep not queued: %s", error)
        except Exception:
            log.exception("sweep not queued")
        time.sleep(period_s)


RELEASE_S = 0.1
"""How often a worker queues the paced turns of all-bot games that fell due."""


def release_paced(scheduler: Scheduler, period_s: float = RELEASE_S) -> None:
    """Queue the paced turns of all-bot games as they fall due, as long as the worker lives; a period that cannot
    reach Redis is skipped (a turn held back too long is queued by the sweep)."""
    while not stopping.is_set():
        try:
            scheduler.release_due(time.time())
        except redis.RedisError as error:
            log.warning("paced turns not released: %s", error)
            stopping.wait(1)
        except Exception:
            log.exception("paced turns not released")
            stopping.wait(1)
        stopping.wait(period_s)


def running_here(client: redis.Redis) -> bool:
    """Whether a worker of this host is registered with Redis and its process lives: a container's health check
    (`syndicate worker --check`). False while Redis is away: the worker cannot work then either."""
    try:
        workers = SimpleWorker.all(connection=client)  # whatever class registered them
    except redis.RedisError:
        return False
    return any(w.hostname == socket.gethostname() and w.pid and alive(w.pid) for w in workers)
