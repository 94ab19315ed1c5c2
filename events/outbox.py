"""The writes that follow a saved decision, sent to Redis together: one round trip, and one fsync, for the lot.

Once a decision is saved its followers write what it changes elsewhere: the lobby's entry, a job for the workers
(the tally of a game that ended). Each would pay a round trip of its own, and under `appendfsync always` an fsync
apiece, before the move is answered. While `together(client)` is open, a writer that writes to that same Redis
(`open_for`) queues its write in one transaction instead, sent as the block closes. On a Redis Cluster the followers
write to other Redis (the lobby's slot, the queues' own Redis), and nothing is opened: each writes as before.

Only unconditional writes go in (a script that decides for itself, a job with its pending mark): nothing queued
can read what another queued write did. A script Redis does not hold yet (restarted, or new) answers NOSCRIPT in
the transaction while the rest is applied; it is loaded and called again alone, which every script queued here
allows (each writes as of its own arguments, never backwards).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import redis
from redis.client import Pipeline
from redis.commands.core import Script

from events.pipelines import send


class Outbox:
    """One transaction of writes to `client`, sent by `send`."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self._pipeline: Pipeline | None = None
        self._scripts: dict[str, Script] = {}

    @property
    def pipeline(self) -> Pipeline:
        """The transaction to queue writes on (commands only: their replies are not read)."""
        if self._pipeline is None:
            self._pipeline = self.client.pipeline(transaction=True)
            self._pipeline.multi()  # from the start: RQ, given it, would open the transaction after what is queued
        return self._pipeline

    def script(self, script: Script, keys: list[str], args: list[Any]) -> None:
        """Queue a script call, by its sha alone (redis-py's own way in a pipeline asks SCRIPT EXISTS first)."""
        self._scripts[script.sha] = script
        self.pipeline.evalsha(script.sha, len(keys), *keys, *args)

    def send(self) -> None:
        """Send what was queued, if anything (a script Redis did not hold is loaded and called again); the first
        error a write met is raised."""
        if self._pipeline is None:
            return
        pipeline, self._pipeline = self._pipeline, None
        scripts, self._scripts = self._scripts, {}
        failed = next((reply for reply in send(self.client, pipeline, scripts) if isinstance(reply, Exception)), None)
        if failed is not None:
            raise failed


_open: ContextVar[Outbox | None] = ContextVar("outbox", default=None)


def open_for(client: Any) -> Outbox | None:
    """The outbox open for writes to `client`, if any."""
    outbox = _open.get()
    return outbox if outbox is not None and outbox.client is client else None


@contextmanager
def together(client: redis.Redis) -> Iterator[Outbox]:
    """An outbox for the writes to `client` made inside the block (by writers that ask `open_for`), sent as the block
    closes, in one round trip; also if it raises, so that what was written before is written, as it would be without
    the block. Within a block open already for this client, that block's outbox, which the outer block sends."""
    outer = open_for(client)
    if outer is not None:
        yield outer
        return
    outbox = Outbox(client)
    token = _open.set(outbox)
    try:
        yield outbox
    finally:
        _open.reset(token)
        outbox.send()
