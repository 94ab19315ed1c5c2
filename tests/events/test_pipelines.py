"""Many keys' commands in one pipeline per node: replies in the order queued, a script sent by its sha alone and
given to a node that lacks it without running any call twice, and an error raised once everything is sent."""

from __future__ import annotations

import pytest
import redis

from events.pipelines import Pipelines


def test_replies_come_back_in_order_and_a_missing_script_is_loaded_without_running_a_call_twice(
    redis_client: redis.Redis,
) -> None:
    count = redis_client.register_script("return redis.call('INCR', KEYS[1])")
    add_ten = redis_client.register_script("return redis.call('INCRBY', KEYS[1], 10)")
    add_ten(keys=["b"])  # known to the server; `count` is not yet
    batch = Pipelines(redis_client)
    batch.on("a").get("a")
    batch.script(count, ["a"], [])
    batch.script(add_ten, ["b"], [])
    batch.script(count, ["a"], [])
    assert batch.execute() == [None, 1, 20, 2]
    redis_client.script_flush()  # a restarted node: it knows no script
    batch.script(count, ["a"], [])
    assert batch.execute() == [3]
    assert batch.execute() == []


def test_an_error_is_raised_once_every_command_is_sent(redis_client: redis.Redis) -> None:
    redis_client.set("text", "not a number")
    batch = Pipelines(redis_client)
    batch.on("text").incr("text")
    batch.on("after").set("after", "landed")
    with pytest.raises(redis.ResponseError):
        batch.execute()
    assert redis_client.get("after") == b"landed"
