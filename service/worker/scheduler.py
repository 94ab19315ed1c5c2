"""Enqueues what a game needs after each change: its bots' turn, a deadline, the final tally; and a finished
game's review, once a read asks for it.

A game has at most one job of each kind waiting in the queue, whatever happens to it meanwhile: the job's id is
kept under the game's `pending_job` key, set only if none is (the job clears it as it starts, so a need that
arises while it runs gets a job of its own). A bot's turn is for the game, not for a version: it plays every seat
the house plays that the game awaits when it runs, so the other seats' moves in a simultaneous round never leave
stale jobs behind, and a job that finds nothing to do costs one read. A deadline is for a wait, and a new wait's
replaces the last one's while it is still scheduled. A review is made in steps, each a job of its own that runs a
second or so: the review's mark is held across them, each step that leaves more to judge handing it on to the next
(`review_next`, queued at the back of its queue), and the last clears it once the review is kept; a read that finds
no review queues a first step only if no step is pending, or the one pending is lost (its worker died: it is
queued again, and goes on from the progress the last step kept). A step whose mark another chain holds by then (one
thought lost that was not) queues no step after it: one chain goes on.

Three queues, taken in order: `syndicate` (games with a human seat, deadlines, tallies, the sweep) before
`syndicate-bots` (all-bot games): no burst of all-bot games delays a person's game by more than the job at hand;
and last `syndicate-reviews`, the steps of finished games' reviews (nobody waits at a table for one): a worker goes
back to the games between two steps, and the steps of many reviews take turns, each queued behind the others'.
An all-bot game plays at most one turn per `bot_pace_s`: its next turn waits in `paced_turns` until it is due,
and the workers queue it then (`release_due`, several times a second: RQ's own scheduler keeps whole seconds,
and stops for a minute after an outage). Every job is idempotent besides.
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

import redis
from rq import Queue, Retry
from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry

from events import keys
from events.outbox import together
from events.repository import Decision
from games import table as tables
from games.table import Status, Table
from service.observability import logs

QUEUE = "syndicate"
BOT_QUEUE = "syndicate-bots"
REVIEW_QUEUE = "syndicate-reviews"
QUEUES = (QUEUE, BOT_QUEUE, REVIEW_QUEUE)
"""What a worker takes from, in this order: a job of a queue always comes before one of the next."""
RETRY = Retry(max=5, interval=[1, 2, 4, 8, 16])
"""A failed job is tried again with backoff; a worker killed mid-job counts as a failure."""
PENDING_TTL_S = 3600
"""How long a pending mark may outlive a job lost with the queue itself; the sweep looks sooner (`rescue`)."""
PACE_WINDOW_S = 10
"""The workers' pace is their jobs done per second over this many seconds."""
WAITING = {JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED}
RUNS_AT_MOST_S = 10
"""Longer than any job of ours runs (a bot's turn takes milliseconds, a deadline waits 2 s at most for its time, a
step of a review judges for a second and finishes the decision at hand)."""

REVIEW_JOB = "service.worker.jobs.review"

# KEYS: the game's pending mark of a kind. ARGV: the new job's id, the mark's TTL.
_CLAIM = "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) and 1 or 0"
# A started job clears its own mark, not one set since for another job.
_CLEAR = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
# A review's mark is handed on from a step to the next: unless another chain of steps holds it (a read queued one
# when this one's step seemed lost). ARGV: this step's id, the next's, the mark's TTL.
_HAND_ON = """
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
return 1
"""
# A deadline's mark only moves forward: `<wait>|<job id>`; the old job's id, or '' if this wait is not newer.
_NEXT_DEADLINE = """
local old = redis.call('GET', KEYS[1])
if old and tonumber(string.match(old, '^(%d+)|')) >= tonumber(ARGV[1]) then return false end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. ARGV[2], 'EX', ARGV[3])
return old or ''
"""

# KEYS: the paced turns. ARGV: now, how many. The turns due, taken out (each by one worker only).
_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
if #due > 0 then redis.call('ZREM', KEYS[1], unpack(due)) end
return due
"""

acting_for: ContextVar[str | None] = ContextVar("acting_for", default=None)
"""The game whose bots' turn this context is playing: its follow-up is queued once the turn is done, not after
each of its moves."""


def due_second(deadline: str) -> datetime:
    """The whole second on or after a deadline: the queue keeps a job's time in whole seconds, cut down, so a
    job set for the deadline itself could run up to a second before it."""
    return datetime.fromtimestamp(math.ceil(datetime.fromisoformat(deadline).timestamp()), UTC)


def all_bots(table: Table[Any]) -> bool:
    """Whether no person sits at the table: only the house plays it."""
    return all(seat.bot is not None for seat in table.seats)


class Scheduler:
    """`bot_pace_s`: the least time between two turns of an all-bot game (0: as fast as the workers go)."""

    def __init__(self, client: redis.Redis, bot_pace_s: float = 0.0) -> None:
        self.redis = client
        self.queue = Queue(QUEUE, connection=client)
        self.bot_queue = Queue(BOT_QUEUE, connection=client)
        self.review_queue = Queue(REVIEW_QUEUE, connection=client)
        self.bot_pace_s = bot_pace_s
        self._claim = client.register_script(_CLAIM)
        self._clear = client.register_script(_CLEAR)
        self._hand_on = client.register_script(_HAND_ON)
        self._next_deadline = client.register_script(_NEXT_DEADLINE)
        self._due = client.register_script(_DUE)

    def follow(self, decision: Decision) -> None:
        """Enqueue what a saved decision leaves the game needing."""
        self.after(decision.after.ruleset, decision.after.table, decision.expected_version)

    def playing(self, game_id: str) -> AbstractContextManager[None]:
        return playing_for(game_id)

    def after(self, ruleset: Any, table: Table[Any], previous_version: int) -> None:
        """Enqueue the jobs the table needs now that it moved on from `previous_version`."""
        game_id = table.game_id
        if table.status is Status.FINISHED and not table.tallied:
            ended_now = table.status_since > previous_version  # no tally can be pending before the game's end
            self.once("tally", game_id, self.queue, "service.worker.jobs.tally", first=ended_now)
        bots_at = tables.bots_at(table)
        if bots_at and table.wait_since > previous_version:  # the wait for players, from a new seat change
            self.deadline(table, due_second(bots_at))
        if table.status is not Status.IN_PROGRESS:
            return
        awaited = ruleset.awaiting(table.rules)
        if acting_for.get() != game_id and any(tables.house_moves(table, s, d) for s, d in awaited.items()):
            self.bots_turn(table)
        # A deadline matters only where a person is awaited: the house never keeps its own seats waiting.
        person = any(not tables.house_moves(table, s, d) for s, d in awaited.items())
        due = tables.deadline_at(ruleset, table)
        if due and person and table.wait_since > previous_version:
            self.deadline(table, due_second(due))

    def bots_turn(self, table: Table[Any]) -> None:
        """The game's bots' turn: at once for a game with a person, `bot_pace_s` later for an all-bot one."""
        if all_bots(table):
            self.once("bot", table.game_id, self.bot_queue, "service.worker.jobs.bots_turn", delay_s=self.bot_pace_s)
        else:
            self.once("bot", table.game_id, self.queue, "service.worker.jobs.bots_turn")

    def review(self, game_id: str) -> None:
        """A finished game's review, last of all the queues: its first step, unless a step is pending and alive."""
        self._again("review", game_id, lambda: self.once("review", game_id, self.review_queue, REVIEW_JOB))

    def review_next(self, game_id: str, job_id: str) -> bool:
        """The next step of a review, behind every step queued already (reviews take turns), the review's mark
        handed on to it from the step `job_id`; none if another chain of steps holds the mark. Whether it was
        queued."""
        next_id = f"review-{game_id}-{secrets.token_hex(4)}"
        if not self._hand_on(keys=[keys.pending_job("review", game_id)], args=[job_id, next_id, PENDING_TTL_S]):
            return False
        self.enqueue(self.review_queue, next_id, REVIEW_JOB, game_id)
        return True

    def once(
        self, kind: str, game_id: str, queue: Queue, function: str, delay_s: float = 0.0, first: bool = False
    ) -> bool:
        """Enqueue a job of this kind for the game, unless one is pending; whether it was enqueued. A bots' turn
        held back `delay_s` seconds waits for `release_due`. `first`: the decision that calls for it is the first
        that could (the game's end, for its tally), so none can be pending: the job is marked pending as it is
        queued, in the same round trip, instead of claimed in one of its own."""
        job_id = f"{kind}-{game_id}-{secrets.token_hex(4)}"
        if first and delay_s <= 0:
            self.enqueue(queue, job_id, function, game_id, mark=keys.pending_job(kind, game_id))
            return True
        if not self._claim(keys=[keys.pending_job(kind, game_id)], args=[job_id, PENDING_TTL_S]):
            return False
        if delay_s > 0:
            self.redis.zadd(keys.paced_turns(), {job_id: time.time() + delay_s})
        else:
            self.enqueue(queue, job_id, function, game_id)
        return True

    def release_due(self, now: float, limit: int = 500) -> int:
        """Queue the paced turns now due; how many."""
        due: Any = self._due(keys=[keys.paced_turns()], args=[now, limit])
        for job_id in due:
            game_id = job_id.decode().split("-")[1]
            self.enqueue(self.bot_queue, job_id.decode(), "service.worker.jobs.bots_turn", game_id)
        return len(due)

    def started(self, kind: str, game_id: str, job_id: str) -> None:
        """A job of this kind starts: a need that arises from now on gets a job of its own."""
        self._clear(keys=[keys.pending_job(kind, game_id)], args=[job_id])

    def deadline(self, table: Table[Any], at: datetime | None) -> None:
        """The deadline job of the table's current wait (at once for None), instead of any earlier wait's."""
        game_id, wait = table.game_id, table.wait_since
        job_id = f"deadline-{game_id}-{wait}"
        ttl = max(PENDING_TTL_S, int((at - datetime.now(UTC)).total_seconds()) + PENDING_TTL_S) if at else PENDING_TTL_S
        old = self._next_deadline(keys=[keys.pending_job("deadline", game_id)], args=[wait, job_id, ttl])
        if old is None:
            return  # a later wait's deadline is set already
        if old:
            self.cancel(old.decode().split("|", 1)[1])
        self.enqueue(self.queue, job_id, "service.worker.jobs.deadline", game_id, wait, at=at)

    def cancel(self, job_id: str) -> None:
        """Take a job out of the schedule if it is still waiting there (one queued or running is left to find that
        it has nothing to do)."""
        if ScheduledJobRegistry(queue=self.queue).remove(job_id):
            self.redis.delete(Job.key_for(job_id))

    def rescue(self, ruleset: Any, table: Table[Any]) -> int:
        """What the sweep asks of a game that has waited too long: each job it needs and has no live one of, again.
        The number of jobs enqueued."""
        game_id, enqueued = table.game_id, 0
        if table.status is Status.FINISHED and not table.tallied:
            enqueued += self._again(
                "tally", game_id, lambda: self.once("tally", game_id, self.queue, "service.worker.jobs.tally")
            )
        bots_at = tables.bots_at(table)
        if bots_at and not self._live_deadline(table):
            self.redis.delete(keys.pending_job("deadline", game_id))
            self.deadline(table, None)  # the sweep asks only once it is due
            enqueued += 1
        if table.status is not Status.IN_PROGRESS:
            return enqueued
        awaited = ruleset.awaiting(table.rules)
        if any(tables.house_moves(table, s, d) for s, d in awaited.items()):
            queue = self.bot_queue if all_bots(table) else self.queue
            enqueued += self._again(
                "bot", game_id, lambda: self.once("bot", game_id, queue, "service.worker.jobs.bots_turn")
            )
        due = tables.deadline_at(ruleset, table)
        if (
            due
            and any(not tables.house_moves(table, s, d) for s, d in awaited.items())
            and not self._live_deadline(table)
        ):
            at: datetime | None = due_second(due)
            if at is not None and at <= datetime.now(UTC):
                at = None  # a deadline past: at once (the queue's scheduler may be down)
            self.redis.delete(keys.pending_job("deadline", game_id))
            self.deadline(table, at)
            enqueued += 1
        return enqueued

    def _again(self, kind: str, game_id: str, enqueue: Any) -> int:
        """Enqueue a job of this kind again, unless the one pending is alive."""
        mark = keys.pending_job(kind, game_id)
        pending: Any = self.redis.get(mark)
        if pending is not None and self.alive(pending.decode()):
            return 0
        self._clear(keys=[mark], args=[pending or b""])
        return int(enqueue())

    def _live_deadline(self, table: Table[Any]) -> bool:
        pending: Any = self.redis.get(keys.pending_job("deadline", table.game_id))
        if pending is None:
            return False
        wait, _, job_id = pending.decode().partition("|")
        return int(wait) == table.wait_since and self.alive(job_id)

    def alive(self, job_id: str) -> bool:
        """Whether the job is still to run, or running on a worker that lives (not lost, failed or done). A job
        "started" longer ago than a job of ours ever runs was on a worker that died; one scheduled for long ago waits
        on a scheduler that died; one "queued" but out of its queue was taken by a worker that died before starting it
        (RQ's maintenance finds it a minute or two later): all are lost."""
        if self.redis.zscore(keys.paced_turns(), job_id) is not None:
            return True  # held back for its pace: a worker queues it when due (one that is late does, later)
        try:
            job = Job.fetch(job_id, connection=self.redis)
        except Exception:  # no such job (RQ raises NoSuchJobError, or fails on a half-written one)
            return False
        status, now = job.get_status(refresh=False), datetime.now(UTC)
        if status is JobStatus.STARTED:
            beat = job.last_heartbeat or job.started_at
            return beat is not None and (now - beat.replace(tzinfo=UTC)).total_seconds() < RUNS_AT_MOST_S
        if status is JobStatus.QUEUED:  # and in its queue: one a worker took and died before starting is lost
            return self.redis.lpos(Queue(job.origin, connection=self.redis).key, job_id) is not None
        if status is JobStatus.SCHEDULED:  # due long ago: the queue's scheduler is down (RQ restarts it in a while)
            due: Any = self.redis.zscore(ScheduledJobRegistry(job.origin, connection=self.redis).key, job_id)
            return due is not None and now.timestamp() - due < RUNS_AT_MOST_S
        return status in WAITING

    def ping(self) -> None:
        self.redis.ping()

    def counts(self) -> dict[tuple[str, str], int]:
        """Each queue's jobs by state (queued, scheduled, started, failed), as RQ keeps them."""
        return {
            (queue.name, state): count
            for queue in (self.queue, self.bot_queue, self.review_queue)
            for state, count in (
                ("queued", queue.count),
                ("scheduled", queue.scheduled_job_registry.count),
                ("started", queue.started_job_registry.count),
                ("failed", queue.failed_job_registry.count),
            )
        }

    def depth(self, all_bot_game: bool) -> int:
        """How many jobs a new game's first would wait behind: the first queue's; for an all-bot game, the second's
        too, and the paced turns (each due within a pace, before its own)."""
        ahead = self.queue.count
        if not all_bot_game:
            return ahead
        paced: Any = self.redis.zcard(keys.paced_turns())
        return ahead + self.bot_queue.count + int(paced)

    def job_done(self, at: float) -> None:
        """Count a job the workers finished, in its second: the queue's pace."""
        key = keys.jobs_done(int(at))
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.incr(key)
            pipe.expire(key, 2 * PACE_WINDOW_S)
            pipe.execute()

    def pace(self, now: float) -> float:
        """Jobs the workers finished per second, over the last PACE_WINDOW_S seconds."""
        second = int(now)
        done: Any = self.redis.mget([keys.jobs_done(second - k) for k in range(1, PACE_WINDOW_S + 1)])
        return sum(int(n) for n in done if n is not None) / PACE_WINDOW_S

    def enqueue(
        self, queue: Queue, job_id: str, function: str, *args: Any, at: datetime | None = None, mark: str | None = None
    ) -> None:
        """Queue the job (at `at`, if given); with `mark`, set that key to the job's id as the pending job's mark, in
        the same transaction."""
        # Done jobs are not kept (their log line says what came of them); failed ones a day.
        options: dict[str, Any] = {"job_id": job_id, "retry": RETRY, "result_ttl": 0, "failure_ttl": 86400}
        if cause := logs.request_id.get():
            options["meta"] = {"request_id": cause}  # the job's log line names the request it came from
        if at:
            assert mark is None
            queue.enqueue_at(at, function, *args, **options)
            return
        # In a transaction of ours, RQ adds the queue to its list, saves the job and pushes it in one round trip
        # (without one it takes two): a request that finishes a game, or calls a bot, answers sooner. Where the
        # decision's followers write together, it goes in their transaction (events/outbox.py); else in its own.
        with together(queue.connection) as outbox:
            if mark is not None:
                outbox.pipeline.set(mark, job_id, ex=PENDING_TTL_S)
            queue.enqueue(function, *args, pipeline=outbox.pipeline, **options)


@contextmanager
def playing_for(game_id: str) -> Iterator[None]:
    """While the house plays a game's bots' turn: its moves queue no turn of their own (the turn's end does)."""
    token = acting_for.set(game_id)
    try:
        yield
    finally:
        acting_for.reset(token)
