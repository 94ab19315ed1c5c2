import threading

import pytest
import redis

from events import keys
from events.envelope import GENESIS, Envelope, content_hash, sealed
from events.store import DuplicateRequestError, EventStore, Idempotency, StaleVersionError


def envelope(version: int, prev: str = GENESIS) -> Envelope:
    return sealed(
        Envelope(
            game_id="g", version=version, type="seat_joined", schema_version=1, payload={"v": version}, prev_hash=prev
        )
    )


def test_append_lands_at_the_expected_version_with_ids_by_version(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client)
    assert store.append("g", [envelope(1), envelope(2)], 0, b"{}", "twelve-gangsters") == 2
    assert store.append("g", [envelope(3)], 2, b"{}", "twelve-gangsters") == 3
    ids = [entry_id for entry_id, _ in redis_client.xrange(keys.events("g"))]
    assert ids == [b"1-0", b"2-0", b"3-0"]
    assert [e.version for e in store.read("g", after=1)] == [2, 3]
    assert [e.version for e in store.read("g", after=0, limit=2)] == [1, 2]


def test_a_stale_append_is_refused_and_changes_nothing(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client)
    store.append("g", [envelope(1)], 0, b"one", "twelve-gangsters")
    with pytest.raises(StaleVersionError) as refused:
        store.append("g", [envelope(1)], 0, b"two", "twelve-gangsters")
    assert refused.value.actual == 1
    assert store.version("g") == 1
    assert redis_client.hget(keys.snapshot("g"), "state") == b"one"


def test_of_many_racing_appends_on_one_version_exactly_one_lands(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client)
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def racer(n: int) -> None:
        barrier.wait()
        try:
            EventStore(redis.Redis(connection_pool=redis_client.connection_pool)).append(
                "g", [envelope(1)], 0, str(n).encode(), "twelve-gangsters"
            )
            outcomes.append("landed")
        except StaleVersionError:
            outcomes.append("stale")

    threads = [threading.Thread(target=racer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["landed"] + ["stale"] * 7
    assert store.version("g") == 1


def test_load_returns_snapshot_tail_tokens_and_stored_answer_in_one_call(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client)
    first = envelope(1)
    key = keys.idempotency("g", "caller", "k")
    store.append("g", [first], 0, b"state", "twelve-gangsters", {0: "hash0"}, Idempotency(key, b"answer"))
    loaded = store.load("g", key)
    assert (loaded.snapshot, loaded.snapshot_version, loaded.ruleset) == (b"state", 1, "twelve-gangsters")
    assert loaded.tail == [] and loaded.head_hash == first.hash
    assert loaded.token_hashes == {0: "hash0"} and loaded.answer == b"answer"


def test_a_reused_idempotency_key_returns_the_first_answer_and_appends_nothing(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client)
    key = keys.idempotency("g", "caller", "k")
    store.append("g", [envelope(1)], 0, b"s", "twelve-gangsters", idempotency=Idempotency(key, b"first"))
    with pytest.raises(DuplicateRequestError) as duplicate:
        store.append("g", [envelope(2)], 1, b"s", "twelve-gangsters", idempotency=Idempotency(key, b"second"))
    assert duplicate.value.answer == b"first"
    assert store.version("g") == 1


def test_a_missing_snapshot_falls_back_to_the_whole_log(redis_client: redis.Redis) -> None:
    store = EventStore(redis_client)
    store.append("g", [envelope(1), envelope(2)], 0, b"s", "twelve-gangsters")
    redis_client.delete(keys.snapshot("g"))
    loaded = store.load("g")
    assert loaded.snapshot is None and [e.version for e in loaded.tail] == [1, 2]


def test_hash_covers_every_field_but_itself() -> None:
    one = envelope(1)
    assert one.hash == content_hash(one)
    tampered = Envelope(**{**{f: getattr(one, f) for f in one.__struct_fields__}, "payload": {"v": 99}})
    assert content_hash(tampered) != one.hash
