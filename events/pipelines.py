"""Many keys' reads or writes sent together: one pipeline per Redis node that serves them, so one round trip per
node for the lot, where a call each would pay one apiece (and, for writes under `appendfsync always`, an fsync
apiece). A rebuild's thousands of games, or the rate limit's few budgets of one request.

Not a transaction: for reads, and for writes that may land in any order (a rebuild's, which are idempotent and
forward only; counters). A Redis Cluster's own pipelines refuse scripts, so each node gets a plain pipeline of its
own (the node serving a key's slot, as `replication.master_of` finds it). Scripts go by their sha alone, as one
call does: redis-py's way in a pipeline asks SCRIPT EXISTS first, a round trip each time; a node that answers
NOSCRIPT (restarted, or new) is given the script and those calls are sent again.
"""

from __future__ import annotations

from typing import Any

import redis
from redis.client import Pipeline
from redis.commands.core import Script
from redis.exceptions import NoScriptError

from events.replication import master_of


class Pipelines:
    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self._pipes: dict[int, tuple[redis.Redis, Pipeline, dict[str, Script]]] = {}
        self._queued: list[tuple[Pipeline, int]] = []

    def on(self, key: str) -> Pipeline:
        """The pipeline of `key`'s node, to queue exactly one command on: its reply comes back in this place among
        `execute`'s."""
        return self._queue(key)[1]

    def script(self, script: Script, keys: list[str], args: list[Any]) -> None:
        """Queue a script call on its first key's node (all its keys are of one slot)."""
        _, pipe, scripts = self._queue(keys[0])
        scripts[script.sha] = script
        pipe.evalsha(script.sha, len(keys), *keys, *args)

    def _queue(self, key: str) -> tuple[redis.Redis, Pipeline, dict[str, Script]]:
        node = master_of(self.client, key)
        found = self._pipes.get(id(node))
        if found is None:
            found = self._pipes[id(node)] = (node, node.pipeline(transaction=False), {})
        self._queued.append((found[1], len(found[1])))
        return found

    def execute(self) -> list[Any]:
        """Send every node's pipeline; the replies in the order the commands were queued. The first error any
        command met is raised once all are sent."""
        replies = {id(pipe): send(node, pipe, scripts) for node, pipe, scripts in self._pipes.values()}
        found = [replies[id(pipe)][i] for pipe, i in self._queued]
        self._pipes.clear()
        self._queued.clear()
        failed = next((r for r in found if isinstance(r, Exception)), None)
        if failed is not None:
            raise failed
        return found


def send(node: redis.Redis, pipe: Pipeline, scripts: dict[str, Script]) -> list[Any]:
    """Send a pipeline of `node`'s (a transaction or not); its replies, errors among them. The scripts it calls by sha
    are in `scripts`: if the node lacks one, they are all given to it and the calls it refused are sent again."""
    sent = list(pipe.command_stack)
    replies = pipe.execute(raise_on_error=False)
    missing = [i for i, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
    if missing:
        for script in scripts.values():
            node.script_load(script.script)
        for i in missing:
            args, options = sent[i]
            pipe.execute_command(*args, **options)
        for i, reply in zip(missing, pipe.execute(raise_on_error=False), strict=True):
            replies[i] = reply
    return list(replies)
