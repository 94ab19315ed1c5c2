"""The event store's contract, held by both stores: Redis (the service's) and memory (for use-case tests)."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from typing import Any

import msgspec
import pytest
import redis

from events import keys
from events.envelope import GENESIS, Envelope, content_hash, sealed
from events.feeds import Entry
from events.memory import MemoryEventStore
from events.player_store import encode_player
from events.store import (
    Commit,
    DuplicateRequestError,
    EventStore,
    LiveToken,
    RedisEventStore,
    StaleVersionError,
    TokenNotLiveError,
)
from players.state import Player, TokenRecord


def envelope(version: int, prev: str = GENESIS) -> Envelope:
    return sealed(
        Envelope(
            game_id="g", version=version, type="seat_joined", schema_version=1, payload={"v": version}, prev_hash=prev
        )
    )


def commit(envelopes: list[Envelope], expected: int, snapshot: bytes = b"{}", **kwargs: Any) -> Commit:
    return Commit(
        game_id="g",
        ruleset="twelve-gangsters",
        envelopes=envelopes,
        expected_version=expected,
        snapshot=snapshot,
        snapshot_format=3,
        **kwargs,
    )


@pytest.fixture(params=["redis", "memory"])
def make_store(request: pytest.FixtureRequest) -> Callable[[], EventStore]:
    """A maker of handles on one store: several handles share it, as processes share a Redis."""
    if request.param == "memory":
        shared = MemoryEventStore()
        return lambda: shared
    client: redis.Redis = request.getfixturevalue("redis_client")
    return lambda: RedisEventStore(redis.Redis(connection_pool=client.connection_pool))


@pytest.fixture
def store(make_store: Callable[[], EventStore]) -> EventStore:
    return make_store()


def test_a_commit_lands_at_the_expected_version_and_reads_back_by_version(store: EventStore) -> None:
    assert store.commit(commit([envelope(1), envelope(2)], 0)) == 2
    assert store.commit(commit([envelope(3)], 2)) == 3
    assert [e.version for e in store.read("g")] == [1, 2, 3]
    assert [e.version for e in store.read("g", after=1)] == [2, 3]
    assert [e.version for e in store.read("g", after=0, limit=2)] == [1, 2]
    assert list(store.game_ids()) == ["g"]


def test_redis_keeps_a_game_in_a_stream_whose_ids_are_the_versions(redis_client: redis.Redis) -> None:
    RedisEventStore(redis_client).commit(commit([envelope(1), envelope(2)], 0))
    assert [entry_id for entry_id, _ in redis_client.xrange(keys.events("g"))] == [b"1-0", b"2-0"]


def test_a_stale_commit_is_refused_and_changes_nothing(store: EventStore) -> None:
    store.commit(commit([envelope(1)], 0, b"one"))
    with pytest.raises(StaleVersionError) as refused:
        store.commit(commit([envelope(1)], 0, b"two", documents={VIEWS: {"spectator": b"{}"}}))
    assert refused.value.actual == 1
    assert len(store.read("g")) == 1
    assert store.load("g").snapshot == b"one"
    assert store.fields(VIEWS) == (0, 0, {})


def test_of_many_racing_commits_on_one_version_exactly_one_lands(make_store: Callable[[], EventStore]) -> None:
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def racer(n: int) -> None:
        store = make_store()
        barrier.wait()
        try:
            store.commit(commit([envelope(1)], 0, str(n).encode()))
            outcomes.append("landed")
        except StaleVersionError:
            outcomes.append("stale")

    threads = [threading.Thread(target=racer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["landed"] + ["stale"] * 7
    assert len(make_store().read("g")) == 1


def test_load_returns_snapshot_tail_tokens_and_stored_answer_in_one_step(store: EventStore) -> None:
    first = envelope(1)
    store.commit(commit([first], 0, b"state", token_hashes={0: "hash0"}, answer_key=("caller", "k"), answer=b"ans"))
    loaded = store.load("g", ("caller", "k"))
    assert (loaded.snapshot, loaded.snapshot_version, loaded.ruleset) == (b"state", 1, "twelve-gangsters")
    assert loaded.snapshot_format == 3
    assert loaded.tail == [] and loaded.head_hash == first.hash
    assert loaded.token_hashes == {0: "hash0"} and loaded.answer == b"ans"
    assert store.token_hashes("g") == {0: "hash0"}
    assert store.load("g", ("caller", "other")).answer is None


def test_a_reused_idempotency_key_returns_the_first_answer_and_commits_nothing(store: EventStore) -> None:
    store.commit(commit([envelope(1)], 0, answer_key=("caller", "k"), answer=b"first"))
    with pytest.raises(DuplicateRequestError) as duplicate:
        store.commit(commit([envelope(2)], 1, answer_key=("caller", "k"), answer=b"second"))
    assert duplicate.value.answer == b"first"
    assert len(store.read("g")) == 1


VIEWS, RESULT = "syndicate:game:{g}:views", "syndicate:game:{g}:result"
"""Two documents of the game: one of fields, one a value."""


def test_the_documents_stored_with_a_commit_are_read_while_current(store: EventStore) -> None:
    store.commit(commit([envelope(1)], 0, documents={VIEWS: {"spectator": b"s1", "0": b"seat0"}}))
    assert store.current_fields("g", VIEWS, ["0", "1", "spectator"], 3) == [b"seat0", None, b"s1"]
    assert store.current_fields("g", VIEWS, ["0"], 2) is None  # another format: to be rebuilt
    assert store.value(RESULT) is None
    store.commit(commit([envelope(2)], 1, documents={VIEWS: {"spectator": b"s2"}, RESULT: b"r"}))
    assert store.current_fields("g", VIEWS, ["spectator"], 3) == [b"s2"]
    assert store.current_fields("g", VIEWS, ["0"], 3) == [None]
    assert store.value(RESULT) == b"r"
    assert store.fields(VIEWS) == (2, 3, {"spectator": b"s2"})


def test_documents_written_behind_the_log_are_not_served_and_never_move_back(store: EventStore) -> None:
    store.commit(commit([envelope(1), envelope(2)], 0))
    store.write_documents("g", 1, 3, {VIEWS: {"spectator": b"old"}})
    assert store.current_fields("g", VIEWS, ["spectator"], 3) is None  # behind the log
    store.write_documents("g", 2, 3, {VIEWS: {"spectator": b"new"}, RESULT: b"r"})
    store.write_documents("g", 1, 3, {VIEWS: {"spectator": b"old"}, RESULT: b"old"})  # late: changes nothing
    assert store.current_fields("g", VIEWS, ["spectator"], 3) == [b"new"] and store.value(RESULT) == b"r"
    store.write_documents("g", 2, 4, {VIEWS: {"spectator": b"other"}})  # another format replaces it
    assert store.fields(VIEWS) == (2, 4, {"spectator": b"other"})


def test_a_value_is_written_again_beside_fields_of_the_same_version(store: EventStore) -> None:
    # A rebuild drops the views, then the results: a commit between the two leaves the views current and the
    # result gone, and the catch-up at the same version writes the result back.
    store.commit(commit([envelope(1)], 0, documents={VIEWS: {"spectator": b"s"}, RESULT: b"r"}))
    store.drop_documents(["syndicate:game:{*}:result"])
    assert store.value(RESULT) is None
    store.write_documents("g", 1, 3, {VIEWS: {"spectator": b"s"}, RESULT: b"r"})
    assert store.value(RESULT) == b"r"
    assert store.drop_documents(["syndicate:game:{*}:views", "syndicate:game:{*}:result"]) == 2


def test_many_logs_are_read_and_many_games_documents_written_at_once_by_the_same_rules(store: EventStore) -> None:
    store.commit(commit([envelope(1), envelope(2)], 0))
    other = dataclasses.replace(commit([envelope(1)], 0), game_id="h")
    store.commit(other)
    logs = store.read_logs(["h", "none", "g"])
    assert [[e.version for e in log] for log in logs] == [[1], [], [1, 2]]
    assert logs[2] == store.read("g")
    other_views = "syndicate:game:{h}:views"
    store.write_documents("g", 2, 3, {VIEWS: {"spectator": b"new"}})
    store.write_many_documents(
        3, [("g", 1, {VIEWS: {"spectator": b"old"}, RESULT: b"r"}), ("h", 1, {other_views: {"0": b"h"}})]
    )
    assert store.fields(VIEWS) == (2, 3, {"spectator": b"new"})  # a later one stays, and its game writes nothing
    assert store.value(RESULT) is None
    assert store.current_fields("h", other_views, ["0"], 3) == [b"h"]


PROGRESS = "syndicate:game:{g}:review-progress"


def test_a_progress_only_grows_until_another_format_replaces_it_and_goes_when_deleted(store: EventStore) -> None:
    assert store.progress(PROGRESS) is None
    assert store.write_progress(PROGRESS, 1, 2, b"two", ttl_s=60)
    assert not store.write_progress(PROGRESS, 1, 1, b"one", ttl_s=60), "a shorter progress is not kept"
    assert not store.write_progress(PROGRESS, 1, 2, b"two again", ttl_s=60), "nor one as long"
    assert store.progress(PROGRESS) == (1, 2, b"two")
    assert store.write_progress(PROGRESS, 1, 3, b"three", ttl_s=60)
    assert store.write_progress(PROGRESS, 2, 1, b"other", ttl_s=60), "one of another format is replaced"
    assert store.progress(PROGRESS) == (2, 1, b"other")
    store.delete(PROGRESS)
    assert store.progress(PROGRESS) is None
    store.write_progress(PROGRESS, 1, 1, b"one", ttl_s=60)
    assert store.drop_documents(["syndicate:game:{*}:review-progress"]) == 1
    assert store.progress(PROGRESS) is None


def test_a_progress_in_redis_expires_once_abandoned(redis_client: redis.Redis) -> None:
    store = RedisEventStore(redis_client)
    store.write_progress(PROGRESS, 1, 1, b"one", ttl_s=60)
    assert 0 < redis_client.ttl(PROGRESS) <= 60
    store.write_progress(PROGRESS, 1, 2, b"two", ttl_s=90)
    assert 60 < redis_client.ttl(PROGRESS) <= 90, "each step that keeps more keeps it longer"


def test_waiting_for_events_returns_what_lands(make_store: Callable[[], EventStore]) -> None:
    store = make_store()
    store.commit(commit([envelope(1)], 0))
    assert store.wait_for("g", 1, block_s=0.1, count=10) == []
    landed: list[list[Envelope]] = []
    waiter = threading.Thread(target=lambda: landed.append(make_store().wait_for("g", 1, block_s=5, count=10)))
    waiter.start()
    store.commit(commit([envelope(2)], 1))
    waiter.join(timeout=10)
    assert [e.version for e in landed[0]] == [2]


def test_a_missing_snapshot_falls_back_to_the_whole_log(redis_client: redis.Redis) -> None:
    store = RedisEventStore(redis_client)
    store.commit(commit([envelope(1), envelope(2)], 0))
    redis_client.delete(keys.snapshot("g"))
    loaded = store.load("g")
    assert loaded.snapshot is None and [e.version for e in loaded.tail] == [1, 2]


def test_hash_covers_every_field_but_itself() -> None:
    one = envelope(1)
    assert one.hash == content_hash(one)
    tampered = Envelope(**{**{f: getattr(one, f) for f in one.__struct_fields__}, "payload": {"v": 99}})
    assert content_hash(tampered) != one.hash


def test_a_commit_on_a_player_token_lands_only_while_the_player_holds_it(redis_client: redis.Redis) -> None:
    store = RedisEventStore(redis_client)
    assert store.one_server
    live = Player(player_id="p1", name="Ann", created_at="t", version=2, tokens={"t1": TokenRecord("d1", "t")})
    redis_client.set(keys.player_state("p1"), encode_player(live))
    token = LiveToken("p1", "t1", "d1")
    assert store.commit(commit([envelope(1)], 0, token=token, answer_key=("caller", "k"), answer=b"first")) == 1
    # Another secret under the same ids, a token of a player with no state, a token revoked: nothing lands, not even
    # the first answer of a request sent again (its token is checked before anything else).
    for refused in (LiveToken("p1", "t1", "d2"), LiveToken("p2", "t1", "d1"), LiveToken("p1", "t2", "d1")):
        with pytest.raises(TokenNotLiveError):
            store.commit(commit([envelope(2, envelope(1).hash)], 1, token=refused))
    redis_client.set(keys.player_state("p1"), encode_player(msgspec.structs.replace(live, tokens={})))
    for sent in (
        commit([envelope(2, envelope(1).hash)], 1, token=token),
        commit([], 1, token=token, answer_key=("caller", "k")),
    ):
        with pytest.raises(TokenNotLiveError):
            store.commit(sent)
    assert [e.version for e in store.read("g")] == [1]


def test_a_store_that_cannot_check_a_player_token_refuses_a_commit_on_one() -> None:
    store = MemoryEventStore()
    assert not store.one_server
    with pytest.raises(ValueError, match="check the token first"):
        store.commit(commit([envelope(1)], 0, token=LiveToken("p1", "t1", "d1")))
    assert store.read("g") == []


def test_a_commits_notices_are_kept_on_the_feeds_with_it_once_and_only_if_it_lands(redis_client: redis.Redis) -> None:
    store = RedisEventStore(redis_client)
    feed, sent = "syndicate:player:{p1}:feed", "syndicate:player:{p1}:feed-sent"
    due = Entry(feed, sent, "g:1:due", b'{"kind":"decision_due"}', 1000)
    store.commit(commit([envelope(1)], 0, notices=[due]))
    with pytest.raises(StaleVersionError):  # refused: its notices are not kept either
        store.commit(commit([envelope(1)], 0, notices=[dataclasses.replace(due, key="g:1:other")]))
    store.commit(commit([envelope(2, envelope(1).hash)], 1, notices=[due]))  # the same notice again: kept once
    assert [fields[b"n"] for _, fields in redis_client.xrange(feed)] == [due.data]
    assert redis_client.zrange(sent, 0, -1) == [b"g:1:due"]
    with pytest.raises(ValueError, match="tell the notices after"):
        MemoryEventStore().commit(commit([envelope(1)], 0, notices=[due]))
