"""A real worker (`syndicate worker`) reviews a finished game once the tally is in, with a judge that takes seconds:
the review's job beats as it judges, so a read that comes meanwhile leaves it running, and the review comes whole."""

from __future__ import annotations

import dataclasses
from datetime import datetime

import pytest
import redis
from rq.job import Job, JobStatus
from rq.registry import StartedJobRegistry

from service.config import Config
from service.worker.scheduler import REVIEW_QUEUE
from tests.client import ApiClient
from tests.judges import SLOW_JUDGE
from tests.waiting import wait_for
from tests.workers.conftest import tallied


@pytest.fixture
def config(config: Config) -> Config:
    return dataclasses.replace(config, judge=SLOW_JUDGE)


def test_a_worker_reviews_a_finished_game_beating_as_it_judges(
    api: ApiClient, start_worker, redis_client: redis.Redis
) -> None:
    start_worker(environ={"SYNDICATE_JUDGE": SLOW_JUDGE})
    table = api.create(seats=[{"bot": "random"}] * 3)
    wait_for(lambda: tallied(api, table), what="the tally")
    started = StartedJobRegistry(REVIEW_QUEUE, connection=redis_client)
    wait_for(lambda: started.get_job_ids(), what="the review's job to start")
    job = Job.fetch(started.get_job_ids()[0], connection=redis_client)
    first: datetime | None = job.last_heartbeat

    def beat_again() -> bool:
        job.refresh()
        return job.get_status() is JobStatus.STARTED and job.last_heartbeat != first

    wait_for(beat_again, what="a beat of the review's job while it judges")
    assert api.http.get(f"/v1/games/{table.id}/review").status_code == 202
    wait_for(lambda: api.http.get(f"/v1/games/{table.id}/review").status_code == 200, what="the review")
    review = api.http.get(f"/v1/games/{table.id}/review").json
    moves = [e for e in api.events(table) if e["type"] == "twelve_gangsters.gangster_played"]
    assert len(review["decisions"]) == len(moves)
    assert redis_client.llen(f"rq:queue:{REVIEW_QUEUE}") == 0, "the read while it ran queued no other"
