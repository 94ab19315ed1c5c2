"""A game's events are kept compact, and a game whose events were stored as JSON (every game before the compact
form), or partly so (a game under way through the upgrade), answers exactly as the same game kept compact: its
log, read from anywhere, its export, its audit and its past states. Stored entries are never rewritten by the
service; here the tests write them as the service before did."""

from __future__ import annotations

from typing import Any

import redis

from events import keys
from events.entries import COMPACT, JSON
from events.envelope import encode
from events.store import RedisEventStore
from tests.client import ApiClient, Table
from tests.service.read_models import play_shared_victory

NDJSON = {"Accept": "application/x-ndjson"}


def answers(api: ApiClient, table: Table) -> dict[str, Any]:
    """Everything a client reads that comes from the log."""
    base = f"/v1/games/{table.id}"
    return {
        "export": api.http.get(f"{base}/events", headers=NDJSON).get_data(),
        "export after 17": api.http.get(f"{base}/events?after=17", headers=NDJSON).get_data(),
        "page": api.http.get(f"{base}/events?after=0&limit=100").json,
        "page after 23": api.http.get(f"{base}/events?after=23&limit=7").json,
        "seat's page after 40": api.http.get(f"{base}/events?after=40", headers=api.auth(table, 1)).json,
        "audit": api.http.get(f"{base}/audit").json,
        "state at 30": api.http.get(f"{base}/states/30", headers=api.auth(table, 0)).json,
    }


def rewrite(client: redis.Redis, game_id: str, as_json: range) -> None:
    """The game's stream written again, the events of versions in `as_json` as JSON, the rest as they were."""
    stream = keys.events(game_id)
    logged = zip(client.xrange(stream), RedisEventStore(client).read(game_id), strict=True)
    client.delete(stream)
    for (entry_id, fields), envelope in logged:
        client.xadd(stream, {"e": encode(envelope)} if envelope.version in as_json else fields, id=entry_id)


def test_a_new_game_keeps_every_event_compact(api: ApiClient, redis_client: redis.Redis) -> None:
    table = play_shared_victory(api)

    entries = [next(iter(f.items())) for _, f in redis_client.xrange(keys.events(table.id))]
    log = RedisEventStore(redis_client).read(table.id)

    assert len(entries) == len(log) == api.game(table)["version"]
    assert {field for field, _ in entries} == {COMPACT}
    assert not any(value.lstrip().startswith(b"{") for _, value in entries)
    sizes = [(len(value), len(encode(e))) for (_, value), e in zip(entries, log, strict=True)]
    assert all(kept < as_json for kept, as_json in sizes)
    assert sum(kept for kept, _ in sizes) < sum(as_json for _, as_json in sizes) / 2.5
    assert answers(api, table)["audit"]["ok"]


def test_a_game_stored_as_json_answers_as_it_did(api: ApiClient, redis_client: redis.Redis) -> None:
    table = play_shared_victory(api)
    kept_compact = answers(api, table)

    rewrite(redis_client, table.id, as_json=range(1, 1000))

    assert {next(iter(f)) for _, f in redis_client.xrange(keys.events(table.id))} == {JSON}
    assert answers(api, table) == kept_compact
    assert kept_compact["audit"]["ok"]


def test_a_game_stored_as_json_then_compact_answers_as_one_log(api: ApiClient, redis_client: redis.Redis) -> None:
    table = play_shared_victory(api)
    kept_compact = answers(api, table)

    rewrite(redis_client, table.id, as_json=range(1, 26))

    fields = [next(iter(f)) for _, f in redis_client.xrange(keys.events(table.id))]
    assert fields[:25] == [JSON] * 25 and set(fields[25:]) == {COMPACT}
    assert answers(api, table) == kept_compact


def test_a_game_under_way_through_the_upgrade_goes_on_compact(api: ApiClient, redis_client: redis.Redis) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    api.play(table, 0, 5)
    version = api.game(table)["version"]
    rewrite(redis_client, table.id, as_json=range(1, version + 1))

    for seat, card in ((1, 6), (2, 7)):
        assert api.play(table, seat, card).status_code == 200

    fields = [next(iter(f)) for _, f in redis_client.xrange(keys.events(table.id))]
    assert fields[:version] == [JSON] * version and set(fields[version:]) == {COMPACT}
    assert api.http.get(f"/v1/games/{table.id}/audit").json["ok"]
    log = api.http.get(f"/v1/games/{table.id}/events?after={version - 1}").json["events"]
    assert log[1]["prev_hash"] == log[0]["hash"]
