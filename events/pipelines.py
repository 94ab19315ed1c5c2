"""Many games' reads or writes sent together: one pipeline per Redis node that serves their keys, so one round trip
(and, for writes under `appendfsync always`, about one fsync) per node for the lot, where a call each would pay one
apiece. What a rebuild sends, thousands of games at a time.

Not a transaction: for reads, and for writes that are idempotent and forward only (a rebuild's), which may land in
any order and be sent again. A Redis Cluster's own pipelines refuse scripts, so each node gets a plain pipeline of
its own (the node serving a key's slot, as `replication.master_of` finds it).
"""

from __future__ import annotations

from typing import Any

import redis
from redis.client import Pipeline

from events.replication import master_of


class Pipelines:
    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self._pipes: dict[int, Pipeline] = {}
        self._queued: list[tuple[Pipeline, int]] = []

    def on(self, key: str) -> Pipeline:
        """The pipeline of `key`'s node, to queue exactly one command (or script call) on: its reply comes back in
        this place among `execute`'s."""
        node = master_of(self.client, key)
        pipe = self._pipes.get(id(node))
        if pipe is None:
            pipe = self._pipes[id(node)] = node.pipeline(transaction=False)
        self._queued.append((pipe, len(pipe)))
        return pipe

    def execute(self) -> list[Any]:
        """Send every node's pipeline; the replies in the order the commands were queued."""
        replies = {id(pipe): pipe.execute() for pipe in self._pipes.values()}
        found = [replies[id(pipe)][i] for pipe, i in self._queued]
        self._pipes.clear()
        self._queued.clear()
        return found
