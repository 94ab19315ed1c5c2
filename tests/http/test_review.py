"""GET /v1/games/{id}/review on the test Redis, judged by the test judge (tests/judges.py), its jobs run by a worker
in this process (`drain`): a finished game's review once its job ran, 202 until then and again after a drop or a job
lost; 409 for a game under way, 404 for none, 503 from a service with no judge."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
import redis
from rq import Queue
from rq.job import Job, JobStatus

from events import keys
from service.config import Config
from service.worker.scheduler import REVIEW_QUEUE, REVIEW_SILENT_S
from tests.client import ApiClient, Table, assert_problem
from tests.judges import JUDGE


@pytest.fixture
def config(config: Config) -> Config:
    return dataclasses.replace(config, judge=JUDGE)


def finished(api: ApiClient, drain: Callable[[], None]) -> Table:
    """A game of bots the worker played out and tallied."""
    table = api.create(seats=[{"bot": "smart"}, {"bot": "random"}, {"bot": "random"}])
    drain()
    assert api.result(table).json["tallied"]
    return table


def test_a_finished_games_review_is_made_by_its_job_and_kept(api: ApiClient, drain) -> None:
    table = finished(api, drain)
    answer = api.http.get(f"/v1/games/{table.id}/review")
    assert answer.status_code == 200, answer.json
    review = answer.json
    assert review["game_id"] == table.id and review["ruleset"] == "twelve-gangsters"
    moves = [e for e in api.events(table) if e["type"] == "twelve_gangsters.gangster_played"]
    assert [(d["version"], d["seat"]) for d in review["decisions"]] == [(e["version"], e["seat"]) for e in moves]
    assert all(d["move"]["card"] == e["payload"]["card"] for d, e in zip(review["decisions"], moves, strict=True))
    assert api.http.get(f"/v1/games/{table.id}/review").json == review


def test_a_review_dropped_is_queued_again_and_made_the_same(api: ApiClient, drain, services) -> None:
    table = finished(api, drain)
    first = api.http.get(f"/v1/games/{table.id}/review").json
    services.projections.rebuild()

    pending = api.http.get(f"/v1/games/{table.id}/review")
    assert pending.status_code == 202
    assert pending.json == {"game_id": table.id, "status": "pending", "retry_after_s": 5}
    assert pending.headers["Retry-After"] == "5"
    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 202, "still pending: one job is queued"
    drain()
    assert api.http.get(f"/v1/games/{table.id}/review").json == first


def test_a_review_whose_job_was_lost_is_queued_again(
    api: ApiClient, drain, services, redis_client: redis.Redis
) -> None:
    table = finished(api, drain)
    services.projections.drop()
    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 202
    lost = Queue(REVIEW_QUEUE, connection=redis_client)
    assert lost.count == 1
    lost.empty()  # the queue lost it (a Redis restarted without its data, say)

    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 202
    assert lost.count == 1, "queued again"
    drain()
    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 200


def test_a_game_under_way_or_missing_has_no_review(api: ApiClient) -> None:
    table = api.create()
    assert_problem(api.http.get(f"/v1/games/{table.id}/review"), 409, "game_not_finished")
    assert_problem(api.http.get("/v1/games/0123456789abcdef/review"), 404, "game_not_found")


def test_a_review_started_on_a_worker_that_died_is_queued_again_once_it_stops_beating(
    api: ApiClient, drain, services, redis_client: redis.Redis
) -> None:
    table = finished(api, drain)
    services.projections.drop()
    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 202
    queue = Queue(REVIEW_QUEUE, connection=redis_client)
    job = Job.fetch(redis_client.get(keys.pending_job("review", table.id)).decode(), connection=redis_client)
    queue.remove(job)  # a worker took it, started it, and beats as it judges
    job.set_status(JobStatus.STARTED)
    job.heartbeat(datetime.now(UTC) - timedelta(seconds=REVIEW_SILENT_S - 10), REVIEW_SILENT_S)

    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 202
    assert queue.count == 0, "a review that beats lately runs: none more is queued"

    job.heartbeat(datetime.now(UTC) - timedelta(seconds=REVIEW_SILENT_S + 10), REVIEW_SILENT_S)  # then it died
    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 202
    assert queue.count == 1, "queued again"
    drain()
    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 200
