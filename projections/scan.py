"""Deleting a Redis read model: its keys, found by their SCAN patterns."""

from __future__ import annotations

from collections.abc import Iterable

import redis


def drop(client: redis.Redis, patterns: Iterable[str]) -> int:
    """Delete every key matching the patterns, in batches; how many went."""
    dropped = 0
    for pattern in patterns:
        batch = list(client.scan_iter(match=pattern, count=1000))
        for i in range(0, len(batch), 500):
            dropped += int(client.delete(*batch[i : i + 500]))
    return dropped
