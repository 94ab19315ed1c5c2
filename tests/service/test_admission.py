"""One client cannot fill the queue: a game has one job of each kind pending, whatever happens to it meanwhile; people's
games come before all-bot games; a client holds a bounded number of unfinished games; and new games wait (503)
while the house is too far behind. Run in this process, on the test's Redis; tests/workers/test_flood.py has a
real worker face a burst."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
import redis
from rq import Queue
from rq.registry import ScheduledJobRegistry

from events import keys
from service.application.house import House
from service.bootstrap import bootstrap
from service.config import Config
from service.http import context
from service.http.app import create_app
from service.worker.scheduler import BOT_QUEUE, QUEUE, QUEUES, Scheduler
from tests.client import ApiClient, assert_problem
from tests.players.helpers import bearer, create

BOTS = [{"bot": "random"}] * 3


def queued(client: redis.Redis, name: str) -> list[str]:
    return Queue(name, connection=client).get_job_ids()


@pytest.fixture
def limited(config: Config) -> Callable[..., ApiClient]:
    """An API whose limits are the test's own."""

    def make(**limits: object) -> ApiClient:
        tight = dataclasses.replace(config, **limits)
        services = bootstrap(tight)
        return ApiClient(create_app(tight, services, TESTING=True).test_client())

    return make


def test_a_game_has_one_bots_turn_pending_however_often_it_is_asked_for(
    api: ApiClient, house: House, redis_client: redis.Redis
) -> None:
    table = api.create(seats=BOTS)
    scheduler = house.services.jobs
    assert isinstance(scheduler, Scheduler)
    game = house.repository.get(table.id)
    for _ in range(50):  # every save of a busy game asks again, and so does the sweep
        scheduler.after(game.ruleset, game.table, game.version - 1)
        scheduler.rescue(game.ruleset, game.table)
    assert [j.split("-")[:2] for j in queued(redis_client, BOT_QUEUE)] == [["bot", table.id]]
    assert queued(redis_client, QUEUE) == []


def test_a_simultaneous_round_leaves_no_stale_turn_behind(
    api: ApiClient, drain: Callable[[], None], redis_client: redis.Redis
) -> None:
    # Each seat's move used to make every other seat's queued job stale, and queue a fresh one behind them.
    table = api.create(seats=[{"name": "Ann"}, *[{"bot": "random"}] * 5], options={"first_boss": 0})
    drain()
    for card in range(1, 13):
        assert api.play(table, 0, card).status_code == 200
        assert len(queued(redis_client, QUEUE)) <= 1  # the next round's turn of the house, once
        drain()
    assert api.game(table)["status"] == "finished"


def test_people_s_games_are_served_before_all_bot_games(
    api: ApiClient, redis_client: redis.Redis, house: House
) -> None:
    for _ in range(30):
        api.create(seats=BOTS)
    person = api.create(seats=[{"name": "Ann"}, *BOTS[:2]])
    queues = [Queue(name, connection=redis_client) for name in QUEUES]
    job, _ = Queue.dequeue_any(queues, None, connection=redis_client)  # what a worker takes first
    assert job.args == (person.id,)
    assert len(queued(redis_client, BOT_QUEUE)) == 30


def test_a_new_wait_takes_the_place_of_the_last_ones_deadline(api: ApiClient, redis_client: redis.Redis) -> None:
    table = api.create(players=3, options={"first_boss": 0, "move_deadline_s": 3600})
    for card in range(1, 6):
        for seat in range(3):
            assert api.play(table, seat, card).status_code == 200
    registry = ScheduledJobRegistry(queue=Queue(QUEUE, connection=redis_client))
    wait = api.game(table)["waiting_since"]
    assert registry.get_job_ids() == [f"deadline-{table.id}-{wait}"]  # one, the current wait's


def test_an_all_bot_game_sets_no_deadline_jobs(api: ApiClient, redis_client: redis.Redis, drain) -> None:
    table = api.create(seats=BOTS, options={"move_deadline_s": 1})
    drain()
    assert api.game(table)["status"] == "finished"
    assert ScheduledJobRegistry(queue=Queue(QUEUE, connection=redis_client)).count == 0


def test_an_all_bot_games_next_turn_waits_for_its_pace(limited: Callable[..., ApiClient], redis_client) -> None:
    api = limited(bot_pace_s=5)
    table = api.create(seats=BOTS)
    house = House(context.services_of(api.http.application), stall_s=0.5)
    assert str(house.play_bots(table.id)) == "played for 3 seats"
    [(paced, due)] = redis_client.zrange(keys.paced_turns(), 0, -1, withscores=True)
    assert paced.decode().startswith(f"bot-{table.id}-") and queued(redis_client, BOT_QUEUE)[1:] == []
    scheduler = house.services.jobs
    assert isinstance(scheduler, Scheduler)
    assert scheduler.release_due(due - 1) == 0  # not yet
    assert scheduler.release_due(due) == 1
    assert queued(redis_client, BOT_QUEUE)[-1] == paced.decode()


def test_an_address_holds_a_bounded_number_of_unfinished_games(limited: Callable[..., ApiClient]) -> None:
    api = limited(games_per_address=3)
    games = [api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}]) for _ in range(2)]
    body = {"ruleset": "twelve-gangsters", "seats": [{"name": "Bob"}, {"open": True}, {"open": True}]}
    elsewhere = api.http.post("/v1/games", json=body, environ_base={"REMOTE_ADDR": "10.9.9.9"}).json["game_id"]
    assert api.http.post(f"/v1/games/{elsewhere}/join", json={"name": "Ann"}).status_code == 201  # that is three
    bots = {"ruleset": "mobsters", "seats": BOTS[:2]}
    refused = assert_problem(api.http.post("/v1/games", json=bots), 409, "too_many_games")
    assert "3 unfinished games" in refused["detail"]
    again = api.http.post("/v1/games", json=body, environ_base={"REMOTE_ADDR": "10.9.9.9"}).json["game_id"]
    assert_problem(api.http.post(f"/v1/games/{again}/join", json={"name": "Ann"}), 409, "too_many_games")
    assert api.http.post(f"/v1/games/{games[0].id}/abort", headers=api.auth(games[0], 0)).status_code == 200
    assert api.http.post("/v1/games", json=bots).status_code == 201  # an aborted game is no longer held


def test_a_player_holds_a_bounded_number_of_unfinished_games(limited: Callable[..., ApiClient]) -> None:
    api = limited(games_per_player=2, games_per_address=100)
    ann = api.register("Ann")
    create(api, ann, [{"player": "me"}, {"open": True}, {"open": True}])
    matched = api.http.post("/v1/quick-match", json={"ruleset": "mobsters", "seats": 2}, headers=bearer(ann))
    assert matched.status_code == 201
    body = {"ruleset": "twelve-gangsters", "seats": [{"player": "me"}, *BOTS[:2]]}
    assert_problem(api.http.post("/v1/games", json=body, headers=bearer(ann)), 409, "too_many_games")
    quick = {"ruleset": "twelve-gangsters", "seats": 3}
    assert_problem(api.http.post("/v1/quick-match", json=quick, headers=bearer(ann)), 409, "too_many_games")
    anonymous = {"ruleset": "twelve-gangsters", "seats": [{"name": "Ann"}, *BOTS[:2]]}
    assert api.http.post("/v1/games", json=anonymous).status_code == 201  # its address holds games of its own


def test_new_games_wait_while_the_house_is_behind_and_are_admitted_once_it_caught_up(
    limited: Callable[..., ApiClient], redis_client: redis.Redis
) -> None:
    api = limited(admission_s=1)  # at the assumed pace of 20 jobs a second: 20 jobs queued are a second of work
    for _ in range(21):
        api.create(seats=BOTS)  # nobody works the queue: a worker is down, or far behind
    refused = api.http.post("/v1/games", json={"ruleset": "twelve-gangsters", "seats": BOTS})
    assert_problem(refused, 503, "overloaded")
    assert int(refused.headers["Retry-After"]) >= 1
    # A person's game waits only behind people's games: the all-bot backlog does not hold it.
    person = {"ruleset": "twelve-gangsters", "seats": [{"name": "Ann"}, *BOTS[:2]]}
    assert api.http.post("/v1/games", json=person).status_code == 201
    queues = [Queue(name, connection=redis_client) for name in QUEUES]
    worker_jobs = 0
    while (found := Queue.dequeue_any(queues, None, connection=redis_client)) is not None and worker_jobs < 10:
        found[0].delete()
        worker_jobs += 1
    assert api.http.post("/v1/games", json={"ruleset": "twelve-gangsters", "seats": BOTS}).status_code == 201
