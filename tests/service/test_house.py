"""The house's jobs are idempotent: run twice, late, or after the game moved on, they change nothing more."""

from __future__ import annotations

import json
import time
from datetime import datetime

import pytest
import redis
from click.testing import CliRunner
from rq import Queue
from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry

from games.search import Budget
from service.application.house import House
from service.ops.cli import main as cli
from service.worker.scheduler import QUEUE
from tests.client import ApiClient
from tests.service.read_models import play_shared_victory, read_models


def event_types(api: ApiClient, table) -> list[str]:  # type: ignore[no-untyped-def]
    return [e["type"] for e in api.events(table)]


def test_a_tally_run_twice_records_one_game_tallied(api: ApiClient, house: House) -> None:
    table = play_shared_victory(api)
    assert str(house.tally(table.id)) == "tallied"
    assert str(house.tally(table.id)) == "tallied"
    assert event_types(api, table).count("game_tallied") == 1
    assert api.result(table).json["tallied"] is True
    assert api.http.get(f"/v1/games/{table.id}/audit").json["ok"]


def test_a_game_in_progress_is_not_tallied(api: ApiClient, house: House) -> None:
    table = api.create(players=3)
    assert str(house.tally(table.id)) == "not finished"
    assert "game_tallied" not in event_types(api, table)


def test_a_bots_turn_run_twice_moves_each_bot_once(api: ApiClient, house: House) -> None:
    table = api.create(seats=[{"bot": "random"}, {"name": "Bob"}, {"bot": "smart"}])
    assert str(house.play_bots(table.id)) == "played for 2 seats"
    assert str(house.play_bots(table.id)) == "moved on"
    played = [e for e in api.events(table) if e["type"] == "twelve_gangsters.gangster_played"]
    assert sorted(e["seat"] for e in played) == [0, 2]


def test_the_house_plays_a_hard_bot_within_its_budget(api: ApiClient, house: House) -> None:
    """The house seats the searching bot with the budget it was given: here a fixed number of iterations."""
    searching = House(house.services, stall_s=0.5, budget=Budget(ms=None, iterations=8))
    table = api.create(seats=[{"bot": "hard"}, {"name": "Bob"}, {"bot": "hard"}])
    assert str(searching.play_bots(table.id)) == "played for 2 seats"
    played = [e for e in api.events(table) if e["type"] == "twelve_gangsters.gangster_played"]
    assert sorted(e["seat"] for e in played) == [0, 2]


def test_a_bots_turn_for_a_game_that_awaits_only_people_does_nothing(api: ApiClient, house: House) -> None:
    table = api.create(seats=[{"bot": "random"}, {"name": "Bob"}, {"name": "Cat"}])
    assert str(house.play_bots(table.id)) == "played for 1 seats"
    version = api.game(table)["version"]
    assert str(house.play_bots(table.id)) == "moved on"  # the round waits on Bob and Cat
    assert api.game(table)["version"] == version


def test_a_deadline_for_a_game_that_moved_on_does_nothing(api: ApiClient, house: House) -> None:
    table = api.create(players=3, options={"first_boss": 0, "move_deadline_s": 60})
    wait = api.game(table)["waiting_since"]
    for seat, card in enumerate((4, 5, 6)):
        api.play(table, seat, card)
    version = api.game(table)["version"]
    house.clock = lambda: time.time() + 120  # the minute is up
    assert str(house.expire(table.id, wait)) == "moved on"
    assert api.game(table)["version"] == version


def test_a_deadline_plays_for_the_seats_still_awaited_once(api: ApiClient, house: House) -> None:
    table = api.create(players=3, options={"first_boss": 0, "move_deadline_s": 60})
    wait = api.game(table)["waiting_since"]
    api.play(table, 0, 4)
    house.clock = lambda: time.time() + 120  # the minute is up
    assert str(house.expire(table.id, wait)) == "played for 2 seats"
    assert str(house.expire(table.id, wait)) == "moved on"
    played = [e for e in api.events(table, seat=1) if e["type"] == "twelve_gangsters.gangster_played"]
    assert [e["seat"] for e in played] == [0, 1, 2]
    assert api.game(table, 1)["state"]["round"] == 2


def test_the_sweep_requeues_a_lost_bot_turn(api: ApiClient, house: House, redis_client: redis.Redis, drain) -> None:
    table = api.create(seats=[{"bot": "random"}] * 3)
    redis_client.delete(*redis_client.keys("rq:*"))  # every queued job lost
    version = api.game(table)["version"]
    house.clock = lambda: 1e12  # long after the last move: the game looks stalled
    assert house.sweep() == 1
    drain()
    assert api.game(table)["status"] == "finished"
    assert api.game(table)["version"] > version


def test_the_sweep_requeues_a_turn_a_dying_worker_took_from_the_queue_but_never_started(
    api: ApiClient, house: House, redis_client: redis.Redis, drain
) -> None:
    # RQ moves a job it takes to an intermediate list, then starts it: a worker that dies in between (Redis went
    # away) leaves it there, "queued", for RQ's maintenance to find a minute or two later.
    table = api.create(seats=[{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}])
    queue = Queue(QUEUE, connection=redis_client)
    [turn] = queue.get_job_ids()
    redis_client.lmove(queue.key, queue.intermediate_queue_key, "RIGHT", "LEFT")
    assert queue.get_job_ids() == [] and Job.fetch(turn, connection=redis_client).get_status() == JobStatus.QUEUED
    house.clock = lambda: 1e12  # long after the last move: the game looks stalled
    assert house.sweep() == 1
    drain()
    assert api.game(table)["awaiting"] == [{"seat": 0, "decision": "play", "simultaneous": True}]


def test_the_sweep_of_a_stalled_bot_sets_no_deadline_before_it_falls(
    api: ApiClient, house: House, redis_client: redis.Redis
) -> None:
    table = api.create(seats=[{"name": "Ann"}, {"name": "Bob"}, {"bot": "random"}], options={"move_deadline_s": 3600})
    game = api.game(table)
    redis_client.delete(*redis_client.keys("rq:*"))  # the bot's turn was lost, and the deadline's job
    now = time.time()
    house.clock = lambda: now + 11  # the bot looks stalled; the hour is far from up
    assert house.sweep() == 2
    queue = Queue(QUEUE, connection=redis_client)
    [bots] = queue.get_job_ids()
    assert bots.startswith(f"bot-{table.id}-")
    due = datetime.fromisoformat(game["awaiting"][0]["deadline_at"]).timestamp()
    [(deadline, score)] = redis_client.zrange(ScheduledJobRegistry(queue=queue).key, 0, -1, withscores=True)
    assert deadline.decode() == f"deadline-{table.id}-{game['waiting_since']}" and score >= due
    assert house.sweep() == 0  # both are pending now: nothing more is queued


def test_a_deadline_job_run_long_before_its_deadline_holds_no_worker_and_changes_nothing(
    api: ApiClient, house: House
) -> None:
    table = api.create(players=3, options={"move_deadline_s": 3600})
    game = api.game(table)
    slept: list[float] = []
    house.sleep = slept.append
    assert str(house.expire(table.id, game["waiting_since"])) == "not due"
    assert sum(slept) <= 2 and api.game(table)["version"] == game["version"]


def test_the_sweep_leaves_a_game_that_waits_on_people_alone(api: ApiClient, house: House) -> None:
    api.create(players=3)
    house.clock = lambda: 1e12
    assert house.sweep() == 0


def test_the_rebuild_command_rebuilds_every_read_model(
    api: ApiClient, redis_client: redis.Redis, config, drain, monkeypatch: pytest.MonkeyPatch
) -> None:
    play_shared_victory(api)
    drain()
    live = read_models(redis_client)
    monkeypatch.setenv("REDIS_URL", config.redis_url)
    result = CliRunner().invoke(cli, ["projections", "rebuild"])
    assert result.exit_code == 0, result.output
    assert "rebuilt the read models of 1 games" in result.output
    assert read_models(redis_client) == live


def test_the_audit_command_checks_a_live_game(api: ApiClient, config, monkeypatch: pytest.MonkeyPatch) -> None:
    table = play_shared_victory(api)
    monkeypatch.setenv("REDIS_URL", config.redis_url)
    result = CliRunner().invoke(cli, ["audit", table.id])
    assert result.exit_code == 0 and json.loads(result.output)["ok"] is True
    assert json.loads(result.output)["event_count"] == api.game(table)["version"]


def test_a_faulty_bot_is_replaced_by_the_random_bot_so_the_game_goes_on() -> None:
    import random

    from service.application.house import choose

    view = {"you": {"legal_moves": [{"type": "play", "card": 3}, {"type": "play", "card": 9}]}}

    def crashing(view, rng):  # type: ignore[no-untyped-def]
        raise RuntimeError("bug")

    def cheating(view, rng):  # type: ignore[no-untyped-def]
        return {"type": "play", "card": 12}

    for bot in (crashing, cheating):
        assert choose(bot, view, random.Random(1)) in view["you"]["legal_moves"]
