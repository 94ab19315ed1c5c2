"""Enqueues what a game needs after each change: a bot's turn, a deadline, the final tally.

Job ids are stable (`bot-<game>-<version>-<seat>`, `deadline-<game>-<wait>`, `tally-<game>`) and
enqueued as unique, so the same need is queued once; every job is idempotent besides.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

import redis
from rq import Queue, Retry
from rq.exceptions import DuplicateJobError

from events.repository import Decision
from games import table as tables
from games.table import Status, Table
from service import logs

QUEUE = "syndicate"
RETRY = Retry(max=5, interval=[1, 2, 4, 8, 16])
"""A failed job is tried again with backoff; a worker killed mid-job counts as a failure."""


def due_second(deadline: str) -> datetime:
    """The whole second on or after a deadline: the queue keeps a job's time in whole seconds, cut down, so a
    job set for the deadline itself could run up to a second before it."""
    return datetime.fromtimestamp(math.ceil(datetime.fromisoformat(deadline).timestamp()), UTC)


class Scheduler:
    def __init__(self, client: redis.Redis) -> None:
        self.queue = Queue(QUEUE, connection=client)

    def after_save(self, decision: Decision) -> None:
        """Enqueue what a saved decision leaves the game needing."""
        self.after(decision.after.ruleset, decision.after.table, decision.expected_version)

    def after(self, ruleset: Any, table: Table[Any], previous_version: int, suffix: str = "") -> None:
        """Enqueue the jobs the table needs now that it moved on from `previous_version`.

        `suffix` makes fresh ids, for the sweep to requeue a need whose job was lost."""
        game_id = table.game_id
        if table.status is Status.FINISHED and not table.tallied:
            self.enqueue(f"tally-{game_id}{suffix}", "service.jobs.tally", game_id)
        if table.status is not Status.IN_PROGRESS:
            return
        for seat in ruleset.awaiting(table.rules):
            if tables.house_plays(table, seat):
                job_id = f"bot-{game_id}-{table.version}-{seat}{suffix}"
                self.enqueue(job_id, "service.jobs.bot_move", game_id, table.version, seat)
        due = tables.deadline_at(ruleset, table)
        if due and (table.wait_since > previous_version or suffix):
            job_id = f"deadline-{game_id}-{table.wait_since}{suffix}"
            at: datetime | None = due_second(due)
            if suffix and at is not None and at <= datetime.now(UTC):
                at = None  # the sweep, for a deadline past: at once (the queue's scheduler may be down)
            self.enqueue(job_id, "service.jobs.deadline", game_id, table.wait_since, at=at)

    def enqueue(self, job_id: str, function: str, *args: Any, at: datetime | None = None) -> None:
        options: dict[str, Any] = {"job_id": job_id, "retry": RETRY, "result_ttl": 600, "unique": True}
        if cause := logs.request_id.get():
            options["meta"] = {"request_id": cause}  # the job's log line names the request it came from
        try:
            if at:
                self.queue.enqueue_at(at, function, *args, **options)
            else:
                self.queue.enqueue(function, *args, **options)
        except DuplicateJobError:
            pass  # already queued: the need is covered
