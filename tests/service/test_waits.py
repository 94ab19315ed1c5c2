"""When a wait begins and when it ends: `waiting_since`, `deadline_at`, and the deadline job of the first wait."""

from __future__ import annotations

from datetime import datetime, timedelta

import redis
from rq import Queue
from rq.registry import ScheduledJobRegistry

from events import keys
from projections.views import VIEWS
from service.application.house import House
from service.worker.scheduler import QUEUE
from tests.client import ApiClient


def event_at(api: ApiClient, table, version: int) -> datetime:  # type: ignore[no-untyped-def]
    [event] = api.events(table, after=version - 1, limit=1)
    return datetime.fromisoformat(event["at"])


def test_a_new_game_waits_since_the_version_it_started_at(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    game = api.game(table)
    started = next(e["version"] for e in api.events(table) if e["type"] == "game_started")
    assert game["waiting_since"] == started
    assert [a["seat"] for a in game["awaiting"]] == [0, 1, 2]


def test_a_seat_deciding_leaves_the_round_wait_where_it_began(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    wait = api.game(table)["waiting_since"]
    assert api.play(table, 0, 5).status_code == 200
    assert api.game(table)["waiting_since"] == wait
    for seat, card in ((1, 6), (2, 7)):
        assert api.play(table, seat, card).status_code == 200
    assert api.game(table)["waiting_since"] > wait  # round two is a new wait


def test_each_awaited_seat_carries_the_absolute_time_its_deadline_falls(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0, "move_deadline_s": 90})
    game = api.game(table)
    due = event_at(api, table, game["waiting_since"]) + timedelta(seconds=90)
    assert {a["deadline_at"] for a in game["awaiting"]} == {
        due.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    }
    assert game["time_limit_s"] == 90
    assert all("deadline_at" not in a for a in api.game(api.create(players=3))["awaiting"])


def test_the_first_wait_of_a_game_gets_its_deadline_job(api: ApiClient, redis_client: redis.Redis) -> None:
    table = api.create(players=3, options={"move_deadline_s": 30})
    wait = api.game(table)["waiting_since"]
    registry = ScheduledJobRegistry(queue=Queue(QUEUE, connection=redis_client))
    assert f"deadline-{table.id}-{wait}" in registry.get_job_ids()


def test_a_deadline_job_is_never_due_before_the_deadline_it_closes(api: ApiClient, redis_client: redis.Redis) -> None:
    # The job queue keeps whole seconds: the job must fall on the second after the deadline, not the one before.
    for _ in range(5):
        table = api.create(players=3, options={"move_deadline_s": 30})
        game = api.game(table)
        due = datetime.fromisoformat(game["awaiting"][0]["deadline_at"]).timestamp()
        registry = ScheduledJobRegistry(queue=Queue(QUEUE, connection=redis_client))
        score = redis_client.zscore(registry.key, f"deadline-{table.id}-{game['waiting_since']}")
        assert score is not None and due <= score < due + 1


def test_a_deadline_job_that_runs_early_acts_only_once_the_deadline_has_passed(api: ApiClient, house: House) -> None:
    table = api.create(players=3, options={"first_boss": 0, "move_deadline_s": 1})
    game = api.game(table)
    assert str(house.expire(table.id, game["waiting_since"])) == "played for 3 seats"
    due = datetime.fromisoformat(game["awaiting"][0]["deadline_at"])
    played = [e for e in api.events(table) if e["type"] == "twelve_gangsters.gangster_played"]
    assert len(played) == 3 and all(datetime.fromisoformat(e["at"]) >= due for e in played)


def test_a_snapshot_derived_by_other_rules_is_ignored_and_the_log_replayed(
    api: ApiClient, redis_client: redis.Redis
) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    assert api.play(table, 0, 5).status_code == 200
    before = {seat: api.game(table, seat) for seat in (None, 0, 1)}
    # As a snapshot written before wait times were kept looks: an older format, a state without them.
    snapshot = keys.snapshot(table.id)
    redis_client.hset(
        snapshot, mapping={"format": 1, "state": redis_client.hget(snapshot, "state").replace(b"5", b"4")}
    )
    redis_client.delete(VIEWS.key(table.id))
    assert {seat: api.game(table, seat) for seat in (None, 0, 1)} == before
    assert api.play(table, 1, 6).status_code == 200
    assert redis_client.hget(snapshot, "format") != b"1"
    assert api.http.get(f"/v1/games/{table.id}/audit").json["ok"]


def test_a_stored_view_of_another_format_is_rebuilt_when_read(api: ApiClient, redis_client: redis.Redis) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    before = api.game(table, 0)
    redis_client.hset(VIEWS.key(table.id), mapping={"format": 1, "0": b'{"stale": true}'})
    assert api.game(table, 0) == before
    assert api.http.get(f"/v1/games/{table.id}/audit").json["ok"]
