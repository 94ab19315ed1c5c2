import json

import msgspec
import pytest
import redis
from click.testing import CliRunner

from events import keys
from events.entries import compact
from events.envelope import Envelope, content_hash, encode
from events.store import RedisEventStore
from service.ops.cli import main as cli
from tests.client import ApiClient, Table
from tests.service.read_models import play_corpus, play_shared_victory


def test_every_game_of_the_corpus_passes_its_audit(api: ApiClient) -> None:
    for table in play_corpus(api):
        report = api.http.get(f"/v1/games/{table.id}/audit").json
        assert report["ok"], report["problems"]
        assert report["event_count"] == api.game(table)["version"]
        assert report["head_hash"] == api.events(table)[-1]["hash"]


def test_an_edited_event_is_named_by_the_audit(api: ApiClient, redis_client: redis.Redis) -> None:
    table = play_shared_victory(api)
    stream = keys.events(table.id)
    envelopes = stored(redis_client, table.id)
    edited = envelopes[9]
    assert edited["type"] == "twelve_gangsters.gangster_played"
    edited["payload"]["card"] = 12 if edited["payload"]["card"] != 12 else 11
    rewrite_stream(redis_client, stream, envelopes)
    report = api.http.get(f"/v1/games/{table.id}/audit").json
    assert not report["ok"]
    assert {p["version"] for p in report["problems"]} >= {10}
    assert any(p["check"] == "hash" and p["version"] == 10 for p in report["problems"])


def test_a_rehashed_forgery_breaks_the_chain_or_the_rules(api: ApiClient, redis_client: redis.Redis) -> None:
    """A forger who recomputes the edited event's hash still breaks the next link, and the rules."""
    table, envelopes, seventh = rehashed_forgery(api, redis_client)
    rewrite_stream(redis_client, keys.events(table.id), envelopes)
    problems = api.http.get(f"/v1/games/{table.id}/audit").json["problems"]
    checks = {(p["check"], p["version"]) for p in problems}
    assert ("chain", seventh["version"] + 1) in checks
    assert ("decision", seventh["version"] - 3) in checks or any(c == "decision" for c, _ in checks)


def test_a_rehashed_forgery_kept_compact_breaks_the_next_events_hash(api: ApiClient, redis_client: redis.Redis) -> None:
    """Kept compact, an event links to the one before without repeating its hash: a forged hash becomes the next
    event's `prev_hash`, and the next event's own hash no longer matches."""
    table, _, seventh = rehashed_forgery(api, redis_client)
    stream = keys.events(table.id)
    entries = redis_client.xrange(stream)
    redis_client.delete(stream)
    for entry_id, fields in entries:  # every entry as it was but the forged one
        if entry_id == f"{seventh['version']}-0".encode():
            fields = dict([compact(msgspec.convert(seventh, Envelope), table.id, linked=True)])
        redis_client.xadd(stream, fields, id=entry_id)
    problems = api.http.get(f"/v1/games/{table.id}/audit").json["problems"]
    checks = {(p["check"], p["version"]) for p in problems}
    assert ("hash", seventh["version"] + 1) in checks
    assert any(c == "decision" for c, _ in checks)


def rehashed_forgery(api: ApiClient, client: redis.Redis) -> tuple[Table, list[dict], dict]:
    """A finished game's envelopes as plain values, its seventh round's reveal edited and its hash recomputed
    (the stream left as it is): the game, every envelope, the forged one."""
    table = play_shared_victory(api)
    envelopes = stored(client, table.id)
    seventh = next(e for e in envelopes if e["type"] == "twelve_gangsters.round_revealed")
    seventh["payload"]["succeeded"] = [0, 1, 2]
    seventh["hash"] = content_hash(Envelope(**seventh))
    return table, envelopes, seventh


def stored(client: redis.Redis, game_id: str) -> list[dict]:
    """The game's envelopes as plain values."""
    return msgspec.to_builtins(RedisEventStore(client).read(game_id))  # type: ignore[no-any-return]


def rewrite_stream(client: redis.Redis, stream: str, envelopes: list[dict]) -> None:
    """The stream written again as JSON, every field said (the form of every event stored before the compact one)."""
    client.delete(stream)
    for envelope in envelopes:
        client.xadd(stream, {"e": encode(msgspec.convert(envelope, Envelope))}, id=f"{envelope['version']}-0")


def test_a_tampered_snapshot_is_reported(api: ApiClient, redis_client: redis.Redis) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    api.play(table, 0, 5)
    state = json.loads(redis_client.hget(keys.snapshot(table.id), "state"))
    state["rules"]["hands"][1] = [1, 2, 3]
    redis_client.hset(keys.snapshot(table.id), "state", json.dumps(state))
    problems = api.http.get(f"/v1/games/{table.id}/audit").json["problems"]
    assert [p["check"] for p in problems] == ["snapshot"]


def test_audit_of_an_unknown_game_is_404(api: ApiClient) -> None:
    assert api.http.get("/v1/games/0123456789abcdef/audit").status_code == 404


def test_a_finished_game_exported_as_ndjson_is_audited_offline(api: ApiClient, tmp_path) -> None:
    table = play_shared_victory(api)
    export = api.http.get(f"/v1/games/{table.id}/events", headers={"Accept": "application/x-ndjson"})
    assert export.mimetype == "application/x-ndjson"
    lines = export.get_data(as_text=True).splitlines()
    assert len(lines) == api.game(table)["version"]
    first = json.loads(lines[0])
    assert first["payload"]["seed"] >= 0 and first["command"] == {"name": "create"}
    log = tmp_path / "game.ndjson"
    log.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(cli, ["audit", "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["ok"] is True
    lines[20] = lines[20].replace('"card":', '"card":1') if '"card":' in lines[20] else lines[20][:-1] + ',"x":1}'
    log.write_text("\n".join(lines) + "\n")
    assert CliRunner().invoke(cli, ["audit", "--log", str(log)]).exit_code == 1


def test_the_event_list_pages_by_version(api: ApiClient) -> None:
    table = play_shared_victory(api)
    first = api.http.get(f"/v1/games/{table.id}/events?after=0&limit=10").json
    assert [e["version"] for e in first["events"]] == list(range(1, 11)) and first["next_after"] == 10
    last = api.http.get(f"/v1/games/{table.id}/events?after=60&limit=10").json
    assert last["next_after"] is None and last["events"][-1]["version"] == last["version"]


def test_time_travel_shows_the_callers_view_as_it_was(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    api.play(table, 0, 5)
    version = api.game(table)["version"]
    for seat, card in ((1, 6), (2, 7)):
        api.play(table, seat, card)
    then = api.http.get(f"/v1/games/{table.id}/states/{version}", headers=api.auth(table, 0)).json
    assert then["version"] == version and then["you"]["chosen"] == 5
    assert then["state"]["round"] == 1 and then["state"]["last_round"] is None
    spectator = api.http.get(f"/v1/games/{table.id}/states/{version}").json
    assert "you" not in spectator and "hand" not in json.dumps(spectator)
    missing = api.http.get(f"/v1/games/{table.id}/states/{version + 99}")
    assert missing.status_code == 404 and missing.json["code"] == "version_not_found"
    assert api.http.get(f"/v1/games/{table.id}/states/0").json["code"] == "version_not_found"


def test_an_audit_without_redis_url_says_which_url_syndicate_run_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("SYNDICATE_REDIS_PORT", "6401")
    result = CliRunner().invoke(cli, ["audit", "0123456789abcdef"])
    assert result.exit_code == 2
    assert "REDIS_URL=redis://127.0.0.1:6401/0" in result.output
