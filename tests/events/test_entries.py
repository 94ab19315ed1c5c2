"""How an envelope is kept in a stream entry: the compact form reads back as the very envelope that was stored,
JSON entries (every event stored before the compact form) read as they always did, and a `prev_hash` left out
is recovered wherever a read starts."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import msgspec
import pytest
import redis

from events import keys
from events.entries import COMPACT, JSON, compact, decoded, envelopes
from events.envelope import GENESIS, Envelope, content_hash, encode, sealed
from events.memory import MemoryEventStore
from events.store import Commit, EventStore, RedisEventStore
from games.table import utc_iso
from tests.service.test_stored_logs import GAME_ID, played


def chain(count: int, game_id: str = GAME_ID, **fields: object) -> list[Envelope]:
    out: list[Envelope] = []
    for version in range(1, count + 1):
        envelope = Envelope(
            game_id=game_id,
            version=version,
            type="seat_joined",
            schema_version=1,
            payload={"seat": version % 3, "name": f"P{version}"},
            seat=version % 3,
            command_id="5f0e" * 8,
            command={"name": "join"} if version % 2 else None,
            at="2026-12-04T21:40:12.333Z",
            prev_hash=out[-1].hash if out else GENESIS,
            nonce="bm2YHTakIcHxljNpJHHYNQ",
        )
        out.append(sealed(msgspec.structs.replace(envelope, **fields)))
    return out


def kept(log: list[Envelope], game_id: str = GAME_ID) -> list[tuple[bytes, bytes]]:
    """The log's entries as a commit keeps them: each linked to the one before it."""
    return [compact(e, game_id, linked=e.prev_hash == (log[i - 1].hash if i else GENESIS)) for i, e in enumerate(log)]


@pytest.mark.parametrize(("ruleset", "seats"), [("twelve-gangsters", 3), ("cash-n-guns", 4), ("mobsters", 3)])
def test_every_event_of_real_games_reads_back_as_it_was_stored_as_json(ruleset: str, seats: int) -> None:
    log = played(ruleset, {}, 5, moves=400, seats=seats)
    entries = kept(log)

    assert all(field == COMPACT for field, _ in entries)
    as_json = [msgspec.json.decode(encode(e), type=Envelope) for e in log]  # a sealed payload's tuples are lists
    assert envelopes(GAME_ID, entries) == as_json
    assert all(content_hash(e) == e.hash for e in envelopes(GAME_ID, entries))


def test_a_compact_entry_is_not_json_and_a_third_of_its_size() -> None:
    log = played("twelve-gangsters", {}, 3, moves=60)
    entries = kept(log)

    assert not any(value.startswith(b"{") for _, value in entries)
    with pytest.raises(msgspec.DecodeError):
        msgspec.json.decode(entries[5][1])
    assert sum(len(v) for _, v in entries) < sum(len(encode(e)) for e in log) / 2.5
    assert all(
        e.hash.encode() not in v and e.prev_hash.encode() not in v for e, (_, v) in zip(log, entries, strict=True)
    )


def test_fields_the_compact_form_cannot_say_exactly_are_kept_as_they_were() -> None:
    odd = chain(
        3,
        at="2026-12-04T21:40:12+00:00",  # not written the service's way
        nonce="not base64!",
        command_id="ABC",
        game_id="another",
    )
    unlinked = msgspec.structs.replace(odd[2], prev_hash="Z" * 64, hash="not hex")

    log = [*odd[:2], unlinked]
    entries = [compact(e, GAME_ID, linked=i == 1) for i, e in enumerate(log)]

    assert envelopes(GAME_ID, entries) == log


def test_an_envelope_messagepack_cannot_hold_is_kept_as_json() -> None:
    huge = chain(1, payload={"seed": 2**70})[0]

    field, value = compact(huge, GAME_ID, linked=True)

    assert field == JSON and value == encode(huge)
    assert envelopes(GAME_ID, [(field, value)]) == [huge]


def test_a_read_from_the_middle_takes_the_prev_hash_from_the_entry_before() -> None:
    log = chain(6)
    entries = kept(log)

    assert envelopes(GAME_ID, entries[2:], after=3) == log[3:]
    assert envelopes(GAME_ID, entries[2:3], after=3) == []
    with pytest.raises(ValueError, match="not read"):  # never guessed: the entry before must be read
        envelopes(GAME_ID, entries[3:], after=3)


def test_json_entries_then_compact_ones_read_as_one_chain() -> None:
    log = chain(6)
    mixed = [(JSON, encode(e)) for e in log[:3]] + kept(log)[3:]

    assert envelopes(GAME_ID, mixed) == log
    assert envelopes(GAME_ID, mixed[2:], after=3) == log[3:]


def test_an_entry_of_an_unknown_form_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown form"):
        decoded(GAME_ID, (b"x", b"{}"), GENESIS)


def commit_of(log: list[Envelope], expected: int) -> Commit:
    return Commit(
        game_id=GAME_ID,
        ruleset="twelve-gangsters",
        envelopes=log,
        expected_version=expected,
        snapshot=b"{}",
        snapshot_format=1,
    )


@pytest.fixture(params=["redis", "memory"])
def store(request: pytest.FixtureRequest) -> EventStore:
    if request.param == "memory":
        return MemoryEventStore()
    return RedisEventStore(request.getfixturevalue("redis_client"))


def test_every_read_of_a_stored_log_gives_the_envelopes_committed(store: EventStore) -> None:
    log = chain(9)
    for start, end in ((0, 1), (1, 4), (4, 9)):
        store.commit(commit_of(log[start:end], start))

    for after in range(10):
        assert store.read(GAME_ID, after=after) == log[after:]
        assert store.read(GAME_ID, after=after, limit=2) == log[after : after + 2]
        assert store.wait_for(GAME_ID, after, block_s=0.01, count=3) == log[after : after + 3]
    assert store.read_logs([GAME_ID]) == [log]
    assert store.load(GAME_ID).tail == [] and store.load(GAME_ID).head_hash == log[-1].hash


def test_a_batch_that_does_not_link_to_the_log_keeps_its_prev_hash(store: EventStore) -> None:
    log = chain(4)
    broken = [*log[:2], *chain(2)]  # a 2nd chain's start: its prev_hash is GENESIS, not the head's hash
    store.commit(commit_of(broken[:2], 0))
    store.commit(commit_of(broken[2:], 2))

    assert store.read(GAME_ID) == broken
    assert store.read(GAME_ID, after=2) == broken[2:]


def test_redis_keeps_each_event_compact_and_a_commit_links_it_to_the_head(redis_client: redis.Redis) -> None:
    log = chain(4)
    store = RedisEventStore(redis_client)
    store.commit(commit_of(log[:2], 0))
    store.commit(commit_of(log[2:], 2))

    stored = [next(iter(fields.items())) for _, fields in redis_client.xrange(keys.events(GAME_ID))]

    assert stored == kept(log)


def test_a_stream_written_as_json_loads_and_reads_as_before(redis_client: redis.Redis) -> None:
    log = played("twelve-gangsters", {}, random.Random(4).randrange(100), moves=20)
    for envelope in log:  # as the service wrote every event before the compact form
        redis_client.xadd(keys.events(GAME_ID), {"e": encode(envelope)}, id=f"{envelope.version}-0")
    store = RedisEventStore(redis_client)

    as_json = [msgspec.json.decode(encode(e), type=Envelope) for e in log]
    assert store.read(GAME_ID) == as_json
    assert store.read(GAME_ID, after=7, limit=3) == as_json[7:10]
    assert store.load(GAME_ID).tail == as_json
    assert store.read_logs([GAME_ID]) == [as_json]


def test_a_time_written_the_services_way_is_kept_as_milliseconds_and_read_back_exactly() -> None:
    rng = random.Random(7)
    moments = [
        0,
        1,
        999,
        1000,
        -1,
        -1001,
        1764884412333,
        253402300799999,
        *(rng.randrange(-(10**13), 10**13) for _ in range(500)),
    ]
    for ms in moments:
        at = utc_iso(datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=ms))
        envelope = chain(1, at=at)[0]

        kept = msgspec.msgpack.decode(compact(envelope, GAME_ID, linked=True)[1])

        assert kept[7] == ms
        assert envelopes(GAME_ID, [compact(envelope, GAME_ID, linked=True)]) == [envelope]
