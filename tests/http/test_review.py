"""GET /v1/games/{id}/review on the test Redis, judged by the test judge (tests/judges.py) a decision a step, its
jobs run by a worker in this process (`drain`, or `step` by step): a finished game's review queued by the first read,
202 until its last step ran and again after a drop or a step lost (the chain goes on from the progress kept); a step
run twice starts no second chain, and reviews asked for together take turns; 409 for a game under way, 404 for
none."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import redis
from flask import Flask
from rq import Queue
from rq.job import Job, JobStatus

from events import keys
from service.application.house import House
from service.config import Config
from service.http import context
from service.worker import jobs
from service.worker.runner import Worker
from service.worker.scheduler import QUEUES, REVIEW_JOB, REVIEW_QUEUE, RUNS_AT_MOST_S
from tests.client import ApiClient, Table, assert_problem
from tests.judges import JUDGE


@pytest.fixture
def config(config: Config) -> Config:
    return dataclasses.replace(config, judge=JUDGE)


@pytest.fixture
def house(app: Flask) -> House:
    """The house, a review's step judging one decision."""
    return House(context.services_of(app), stall_s=0.5, review_step_s=0)


@pytest.fixture
def step(workshop: jobs.Workshop, redis_client: redis.Redis) -> Callable[[], Job]:
    """Run the next queued job in this process, as a worker takes it; the job."""

    def run() -> Job:
        queues = [Queue(name, connection=redis_client) for name in QUEUES]
        found = Queue.dequeue_any(queues, None, connection=redis_client)
        assert found is not None, "a job is queued"
        Worker(queues, connection=redis_client, workshop=workshop).execute_job(*found)
        return found[0]

    return run


def finished(api: ApiClient, drain: Callable[[], None]) -> Table:
    """A game of bots the worker played out and tallied."""
    table = api.create(seats=[{"bot": "smart"}, {"bot": "random"}, {"bot": "random"}])
    drain()
    assert api.result(table).json["tallied"]
    return table


def test_a_finished_games_review_is_queued_by_the_first_read_made_in_steps_and_kept(
    api: ApiClient, drain, redis_client: redis.Redis
) -> None:
    table = finished(api, drain)
    queue = Queue(REVIEW_QUEUE, connection=redis_client)
    assert queue.count == 0 and redis_client.get(keys.pending_job("review", table.id)) is None, "nobody asked yet"
    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 202
    assert queue.count == 1, "the first read queued it"
    drain()
    answer = api.http.get(f"/v1/games/{table.id}/review")
    assert answer.status_code == 200, answer.json
    review = answer.json
    assert review["game_id"] == table.id and review["ruleset"] == "twelve-gangsters"
    moves = [e for e in api.events(table) if e["type"] == "twelve_gangsters.gangster_played"]
    assert [(d["version"], d["seat"]) for d in review["decisions"]] == [(e["version"], e["seat"]) for e in moves]
    assert all(d["move"]["card"] == e["payload"]["card"] for d, e in zip(review["decisions"], moves, strict=True))
    assert api.http.get(f"/v1/games/{table.id}/review").json == review


def reviewed(api: ApiClient, table: Table, drain: Callable[[], None]) -> dict:
    """The game's review, asked for and made."""
    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 202
    drain()
    answer = api.http.get(f"/v1/games/{table.id}/review")
    assert answer.status_code == 200
    review: dict = answer.json
    return review


def test_a_review_dropped_is_queued_again_and_made_the_same(api: ApiClient, drain, services) -> None:
    table = finished(api, drain)
    first = reviewed(api, table, drain)
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


def progress(services, table: Table) -> int:
    """How many decisions the review's steps have judged so far."""
    found = services.projections.review_progress(table.id)
    return 0 if found is None else found[0]


def asked_again(api: ApiClient, drain, services) -> tuple[Table, Any]:
    """A finished game reviewed once, the review dropped by a rebuild and asked for again: the game, and the
    review it had."""
    table = finished(api, drain)
    first = reviewed(api, table, drain)
    services.projections.rebuild()
    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 202
    return table, first


def test_a_chain_whose_step_died_with_its_worker_is_queued_again_and_goes_on_from_its_progress(
    api: ApiClient, drain, step, services, redis_client: redis.Redis
) -> None:
    table, first = asked_again(api, drain, services)
    for _ in range(3):
        assert step().func_name == REVIEW_JOB
    assert progress(services, table) == 3
    queue = Queue(REVIEW_QUEUE, connection=redis_client)
    job = Job.fetch(redis_client.get(keys.pending_job("review", table.id)).decode(), connection=redis_client)
    queue.remove(job)  # a worker took the next step and started it
    job.set_status(JobStatus.STARTED)
    job.heartbeat(datetime.now(UTC) - timedelta(seconds=RUNS_AT_MOST_S - 5), RUNS_AT_MOST_S)

    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 202
    assert queue.count == 0, "a step started lately runs: none more is queued"

    job.heartbeat(datetime.now(UTC) - timedelta(seconds=RUNS_AT_MOST_S + 10), RUNS_AT_MOST_S)  # then it died
    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 202
    assert queue.count == 1, "queued again"
    step()
    assert progress(services, table) == 4, "on from the progress the last step kept"
    drain()
    assert api.http.get(f"/v1/games/{table.id}/review").json == first


def test_a_step_run_twice_starts_no_second_chain(
    api: ApiClient, drain, step, services, redis_client: redis.Redis
) -> None:
    table, first = asked_again(api, drain, services)
    ran = step()
    queue = Queue(REVIEW_QUEUE, connection=redis_client)
    assert queue.count == 1 and progress(services, table) == 1
    queue.enqueue(REVIEW_JOB, table.id, job_id=ran.id, at_front=True)  # the same step, run again
    step()
    assert progress(services, table) == 2, "the copy went on from the progress kept"
    assert queue.count == 1, "and queued no step after it: the next step holds the mark"
    drain()
    assert api.http.get(f"/v1/games/{table.id}/review").json == first
    assert redis_client.get(keys.pending_job("review", table.id)) is None, "the last step cleared the mark"


def test_reviews_asked_for_together_take_turns(api: ApiClient, drain, step, services) -> None:
    tables = [finished(api, drain), finished(api, drain)]
    for table in tables:
        assert api.http.get(f"/v1/games/{table.id}/review").status_code == 202
    for _ in range(6):
        step()
    assert [progress(services, table) for table in tables] == [3, 3], "each step queued behind the other's"
    assert all(api.http.get(f"/v1/games/{t.id}/review").status_code == 202 for t in tables)
    drain()
    assert all(api.http.get(f"/v1/games/{t.id}/review").status_code == 200 for t in tables)
