"""Writes answered only once replicas hold them: Redis `WAIT`, sent on the connection that wrote.

Redis replicates asynchronously, so a master that fails over loses what its replicas had not received yet,
answered or not. With `min_replicas` above 0, a write whose answer is a promise (a commit, a stream ticket, a
player's change) is sent in one pipeline with `WAIT <min_replicas> <timeout_ms>` behind it, to the master of
its key's slot: the same connection, so the WAIT counts the replicas that have this very write. Fewer in time is
NotReplicatedError; the write stays on the master and may or may not outlive a failover, which a retry with
the same `Idempotency-Key` finds out.

The redis-server the project ships is 6.2: it has `WAIT` but not `WAITAOF` (7.2), so the promise is that
many replicas hold the write in memory, not that any disk does.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis
from redis.cluster import RedisCluster
from redis.exceptions import AskError, ClusterError, MovedError, TryAgainError

Write = Callable[[Any], Any]
"""Issues a write on what it is given (a client or a pipeline) and returns the reply, if any."""


class NotReplicatedError(Exception):
    """Fewer replicas than asked for confirmed a write in time; the write stands on the master alone."""

    def __init__(self, acknowledged: int, wanted: int) -> None:
        super().__init__(f"{acknowledged} of {wanted} replicas confirmed the write in time")
        self.acknowledged = acknowledged
        self.wanted = wanted


@dataclass(frozen=True)
class Replication:
    min_replicas: int = 0
    timeout_ms: int = 1000

    def write(self, client: redis.Redis, key: str, write: Write) -> Any:
        """Run `write` on the master of `key`'s slot; with `min_replicas`, answer only once WAIT confirms it."""
        if not self.min_replicas:
            return write(client)
        try:
            return self._write_and_wait(client, key, write)
        except (MovedError, AskError):  # the slot moved (a failover): nothing ran; once more, on its new master
            refresh(client)
            return self._write_and_wait(client, key, write)
        except (redis.ConnectionError, ClusterError, TryAgainError):  # the node is gone, or its slots are not served
            refresh(client)
            raise

    def _write_and_wait(self, client: redis.Redis, key: str, write: Write) -> Any:
        pipe = master_of(client, key).pipeline(transaction=False)
        write(pipe)
        pipe.execute_command("WAIT", self.min_replicas, self.timeout_ms)
        reply, acknowledged = pipe.execute()
        if int(acknowledged) < self.min_replicas:
            raise NotReplicatedError(int(acknowledged), self.min_replicas)
        return reply


def master_of(client: redis.Redis, key: str) -> redis.Redis:
    """A plain client of the node serving `key`'s slot: in a cluster its master, else the one Redis."""
    if isinstance(client, RedisCluster):
        return client.get_redis_connection(client.get_node_from_key(key))
    return client


def refresh(client: redis.Redis) -> None:
    """Have a cluster client learn the slots again (after MOVED, or a node that went away)."""
    if isinstance(client, RedisCluster):
        with contextlib.suppress(redis.RedisError):  # no node answers yet: the next command tries again
            client.nodes_manager.initialize()
