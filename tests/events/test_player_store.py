"""The player store's contract, held by both stores: Redis (the service's) and memory (for use-case tests); and
Redis's bytes, the same as players have always been stored with."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
import redis

from events import keys
from events.player_store import (
    Claim,
    MemoryPlayerStore,
    PlayerStore,
    RedisPlayerStore,
    StalePlayerError,
    rewrite_players,
)
from players.events import Entry, PlayerRegistered, PlayerTokenIssued, PlayerTokenRevoked
from players.state import TokenRecord, fold
from tests.players.test_player_domain import LOG, STATE, STORED

AT, LATER = "2025-01-02T03:04:05Z", "2025-01-02T04:00:00Z"
ANN, BOB, CAT = "0123456789abcdef", "1111111111111111", "2222222222222222"


def registration(player_id: str, name: str) -> list[Entry]:
    """A new player's first commit: registered, with its first token."""
    return [
        Entry(version=1, event=PlayerRegistered(player_id=player_id, name=name), at=AT),
        Entry(version=2, event=PlayerTokenIssued(token_id="t1", digest="d1"), at=AT),
    ]


@pytest.fixture(params=["redis", "memory"])
def make_store(request: pytest.FixtureRequest) -> Callable[[], PlayerStore]:
    """A maker of handles on one store: several handles share it, as processes share a Redis."""
    if request.param == "memory":
        shared = MemoryPlayerStore()
        return lambda: shared
    client: redis.Redis = request.getfixturevalue("redis_client")
    return lambda: RedisPlayerStore(redis.Redis(connection_pool=client.connection_pool))


@pytest.fixture
def store(make_store: Callable[[], PlayerStore]) -> PlayerStore:
    return make_store()


def test_a_commit_lands_at_the_players_version_and_reads_back(store: PlayerStore) -> None:
    first = registration(ANN, "Ann")
    ann = store.commit(None, first)
    assert (ann.player_id, ann.name, ann.created_at, ann.version) == (ANN, "Ann", AT, 2)
    assert ann.tokens == {"t1": TokenRecord("d1", AT)} and store.get(ANN) == ann
    revoked = Entry(version=3, event=PlayerTokenRevoked(token_id="t1"), at=LATER)
    later = store.commit(ann, [revoked])
    assert later.version == 3 and later.tokens == {}
    assert store.log(ANN) == [*first, revoked]
    assert store.get(ANN) == later == fold(store.log(ANN))
    assert list(store.player_ids()) == [ANN]
    assert store.get(BOB) is None and store.log(BOB) == []


def test_a_stale_commit_is_refused_and_changes_nothing(store: PlayerStore) -> None:
    ann = store.commit(None, registration(ANN, "Ann"))
    issued = store.commit(ann, [Entry(version=3, event=PlayerTokenIssued(token_id="t2", digest="d2"), at=LATER)])
    with pytest.raises(StalePlayerError):
        store.commit(ann, [Entry(version=3, event=PlayerTokenRevoked(token_id="t1"), at=LATER)])
    with pytest.raises(StalePlayerError):
        store.commit(None, registration(ANN, "Ann"))  # a second registration of one id
    assert store.get(ANN) == issued and len(store.log(ANN)) == 3


def test_of_many_racing_commits_on_one_version_exactly_one_lands(make_store: Callable[[], PlayerStore]) -> None:
    ann = make_store().commit(None, registration(ANN, "Ann"))
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def racer(n: int) -> None:
        store = make_store()
        barrier.wait()
        try:
            store.commit(ann, [Entry(version=3, event=PlayerTokenIssued(token_id=f"t{n}", digest="d"), at=LATER)])
            outcomes.append("landed")
        except StalePlayerError:
            outcomes.append("stale")

    threads = [threading.Thread(target=racer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["landed"] + ["stale"] * 7
    assert len(make_store().log(ANN)) == 3


def test_a_name_is_held_however_it_is_spelled(store: PlayerStore) -> None:
    assert store.claim_name("Ann", ANN) is Claim.MADE
    for same in ("ann", "aNN", "\uff21nn"):  # fullwidth A
        assert store.claim_name(same, BOB) is Claim.NAME_HELD


def test_a_name_that_looks_like_a_name_held_is_refused(store: PlayerStore) -> None:
    assert store.claim_name("Ann", ANN) is Claim.MADE
    for lookalike in ("\u0410nn", "\u0391nn", "\u0391\u039d\u039d"):  # a Cyrillic A; a Greek A; Greek A, N, N
        assert store.claim_name(lookalike, BOB) is Claim.LOOKALIKE_HELD
    assert store.claim_name("Anne", BOB) is Claim.MADE  # another name


def test_a_claim_takes_the_name_and_its_skeleton_both_or_neither(store: PlayerStore) -> None:
    assert store.claim_name("Ann", ANN) is Claim.MADE
    assert store.claim_name("\u0410nn", BOB) is Claim.LOOKALIKE_HELD  # a name of its own, Ann's skeleton
    # Bob took nothing: the same name again is refused for Ann's skeleton, not for a name Bob would hold.
    assert store.claim_name("\u0410NN", CAT) is Claim.LOOKALIKE_HELD


def test_a_players_own_claims_are_its_own(store: PlayerStore) -> None:
    assert store.claim_name("Ann", ANN) is Claim.MADE
    assert store.claim_name("aNN", ANN) is Claim.MADE
    assert store.claim_name("Ann", BOB) is Claim.NAME_HELD


def test_a_rewrite_writes_each_player_and_its_claims_as_its_log_leaves_them(store: PlayerStore) -> None:
    assert store.claim_name("Zed", CAT) is Claim.MADE  # (Redis claims every skeleton once, on a first claim)
    # Players whose claims were never written (as before skeletons were claimed), two of whose names look alike.
    first = registration(ANN, "Ann")
    ann = store.commit(None, first)
    olga = store.commit(None, registration(BOB, "Olga"))
    store.commit(None, registration(CAT, "0lga"))
    store.rewrite(fold(first[:1]))  # a state behind its log
    assert store.get(ANN) == fold(first[:1])
    rewrite_players(store)
    assert store.get(ANN) == ann and store.get(BOB) == olga
    assert sorted(store.player_ids()) == [ANN, BOB, CAT]
    assert store.claim_name("ANN", "3333333333333333") is Claim.NAME_HELD
    assert store.claim_name("\u0391nn", "3333333333333333") is Claim.LOOKALIKE_HELD
    for name in ("olga", "0LGA"):  # each keeps its name; one of them the skeleton they share
        assert store.claim_name(name, "3333333333333333") is Claim.NAME_HELD
    assert store.claim_name("O1ga", "3333333333333333") is Claim.LOOKALIKE_HELD


def test_redis_stores_a_player_in_the_bytes_players_have_always_been_stored_in(redis_client: redis.Redis) -> None:
    store = RedisPlayerStore(redis_client)
    store.commit(None, LOG)
    assert [fields[b"e"] for _, fields in redis_client.xrange(keys.player_events(ANN))] == STORED
    assert [entry_id for entry_id, _ in redis_client.xrange(keys.player_events(ANN))] == [
        b"1-0",
        b"2-0",
        b"3-0",
        b"4-0",
    ]
    assert redis_client.get(keys.player_state(ANN)) == STATE


def test_redis_reads_a_player_stored_before_its_events_were_typed(redis_client: redis.Redis) -> None:
    for version, raw in enumerate(STORED, start=1):
        redis_client.xadd(keys.player_events(ANN), {"e": raw}, id=f"{version}-0")
    redis_client.set(keys.player_state(ANN), STATE)
    store = RedisPlayerStore(redis_client)
    assert store.log(ANN) == LOG
    assert store.get(ANN) == fold(LOG)
