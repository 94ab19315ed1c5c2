"""The writes that follow a decision go to Redis together: nothing is sent until the block closes, then all of it in
one transaction; a script Redis lost is loaded and called again; what was queued before an error is still written;
and a block inside another for the same Redis leaves the sending to the outer one."""

from __future__ import annotations

import pytest
import redis

from benchmarks.roundtrips import counting
from events.outbox import open_for, together


def test_the_writes_of_a_block_are_sent_together_as_it_closes(redis_client: redis.Redis) -> None:
    count = redis_client.register_script("return redis.call('INCR', KEYS[1])")
    count(keys=["z"])  # Redis holds the script
    with counting() as counted, together(redis_client) as outbox:
        assert open_for(redis_client) is outbox
        outbox.script(count, ["a"], [])
        outbox.pipeline.set("b", "written")
        assert redis_client.get("b") is None, "nothing sent yet"
        counted[0] = 0  # the read above
    assert counted[0] == 1
    assert redis_client.get("a") == b"1" and redis_client.get("b") == b"written"


def test_a_script_redis_lost_is_loaded_and_called_again(redis_client: redis.Redis) -> None:
    count = redis_client.register_script("return redis.call('INCR', KEYS[1])")
    count(keys=["a"])
    redis_client.script_flush()  # a restarted Redis: it knows no script
    with together(redis_client) as outbox:
        outbox.script(count, ["a"], [])
        outbox.pipeline.set("b", "written")
    assert redis_client.get("a") == b"2", "called once more, not twice"
    assert redis_client.get("b") == b"written"


def test_what_was_queued_before_an_error_is_written(redis_client: redis.Redis) -> None:
    with pytest.raises(RuntimeError), together(redis_client) as outbox:
        outbox.pipeline.set("b", "written")
        raise RuntimeError("a follower failed")
    assert redis_client.get("b") == b"written"
    assert open_for(redis_client) is None


def test_an_inner_block_leaves_the_sending_to_the_outer_one(redis_client: redis.Redis) -> None:
    with together(redis_client) as outer:
        with together(redis_client) as inner:
            inner.pipeline.set("b", "written")
        assert inner is outer
        assert redis_client.get("b") is None
    assert redis_client.get("b") == b"written"


def test_a_block_is_open_for_its_own_redis_alone(redis_client: redis.Redis, redis_server) -> None:
    other = redis.Redis.from_url(redis_server.url)
    with together(redis_client):
        assert open_for(other) is None
    assert open_for(redis_client) is None
