"""A real worker (`syndicate worker`) reviews a finished game only once a read asks for it, in steps, with a judge
that takes seconds: between two steps it goes back to the games, so a person's game has its bots' moves while the
review is still being made; a read meanwhile queues no second chain of steps, and the review comes whole."""

from __future__ import annotations

import dataclasses

import pytest
import redis
from rq import Queue
from rq.registry import StartedJobRegistry

from events import keys
from service.application.services import Services
from service.config import Config
from service.worker.scheduler import QUEUES, REVIEW_QUEUE
from tests.client import ApiClient, Table
from tests.judges import SLOW_JUDGE
from tests.waiting import wait_for
from tests.workers.conftest import tallied


@pytest.fixture
def config(config: Config) -> Config:
    return dataclasses.replace(config, judge=SLOW_JUDGE)


def idle(client: redis.Redis) -> bool:
    """No job queued or running on any queue."""
    return all(
        Queue(name, connection=client).count == 0 and StartedJobRegistry(name, connection=client).count == 0
        for name in QUEUES
    )


def judged(services: Services, table: Table) -> int:
    progress = services.projections.review_progress(table.id)
    return 0 if progress is None else progress[0]


def review_status(api: ApiClient, table: Table) -> int:
    return api.http.get(f"/v1/games/{table.id}/review").status_code


def test_a_worker_reviews_a_finished_game_once_asked_in_steps_between_which_it_plays_the_games(
    api: ApiClient, start_worker, redis_client: redis.Redis, services: Services
) -> None:
    start_worker(environ={"SYNDICATE_JUDGE": SLOW_JUDGE, "SYNDICATE_REVIEW_STEP_S": "0.5"})
    finished = api.create(seats=[{"bot": "random"}] * 6)
    wait_for(lambda: tallied(api, finished), what="the tally")
    wait_for(lambda: idle(redis_client), what="the worker done with the game")
    assert redis_client.get(keys.pending_job("review", finished.id)) is None, "nobody asked: no review queued"

    assert review_status(api, finished) == 202
    wait_for(lambda: judged(services, finished) > 0, what="a step of the review to keep its progress")
    # A step queues the next before it leaves the started registry: one chain has at most one step queued.
    reviews = Queue(REVIEW_QUEUE, connection=redis_client)

    person = api.create(seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}])
    for _ in range(3):  # rounds of the person's game, each with its bots' moves, while the review is made
        wait_for(lambda: [a["seat"] for a in api.game(person)["awaiting"]] == [0], what="the bots' moves")
        assert review_status(api, finished) == 202, "the review is still being made"
        assert reviews.count <= 1, "one step of it at a time: a read queued no other"
        assert api.send(person, 0, api.game(person, 0)["you"]["legal_moves"][0]).status_code == 200
    bot_moves = [e for e in api.events(person) if e["type"] == "twelve_gangsters.gangster_played" and e["seat"] != 0]
    assert len(bot_moves) >= 6
    assert judged(services, finished) > 0

    wait_for(lambda: review_status(api, finished) == 200, what="the review", timeout_s=120)
    review = api.http.get(f"/v1/games/{finished.id}/review").json
    moves = [e for e in api.events(finished) if e["type"] == "twelve_gangsters.gangster_played"]
    assert len(review["decisions"]) == len(moves)
    assert judged(services, finished) == 0, "the progress went with the last step"
    assert redis_client.get(keys.pending_job("review", finished.id)) is None
