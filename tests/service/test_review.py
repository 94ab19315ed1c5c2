"""A finished game's review on the whole service graph in memory, judged by the test judge (tests/judges.py): one
decision for each move a seat made, judged from the seat's own view then; made by the job the tally queues, kept
whole, made again the same after a drop; asked for before it is there, its job queued again."""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Any

import msgspec
import pytest

from events.repository import fold
from games import table as tables
from games.base import Ruleset
from games.commands import MakeMove, recorded
from games.judgement import Judgement
from service.application import play, review
from service.application.errors import GameNotFinishedError
from service.application.house import House
from service.application.ports import MemoryJobQueue, house_judge
from service.application.review import Reviewed
from service.application.services import Services
from service.config import Config, ConfigError
from tests.judges import JUDGE, scores_judge

BOTS = [{"bot": "smart"}, {"bot": "random"}, {"bot": "random"}]


class Counting:
    """The test judge, counting the views it is shown."""

    def __init__(self) -> None:
        self.views: list[dict[str, Any]] = []

    def __call__(self, ruleset: Ruleset[Any], view: dict[str, Any], rng: random.Random) -> Judgement:
        self.views.append(view)
        return scores_judge(ruleset, view, rng)


@pytest.fixture
def judge() -> Counting:
    return Counting()


@pytest.fixture
def services(judge: Counting) -> Services:
    return Services.in_memory(judge=judge)


def jobs_of(services: Services) -> MemoryJobQueue:
    assert isinstance(services.jobs, MemoryJobQueue)
    return services.jobs


def played(services: Services, ruleset: str = "twelve-gangsters", seats: list[dict[str, Any]] = BOTS) -> str:
    """A game of bots played to its tally by the house, as the jobs it queues ask."""
    game_id = play.create_game(services, ruleset, seats, {}, None).game.game_id
    house = House(services)
    while turns := jobs_of(services).take("bot"):
        for turn in turns:
            house.play_bots(turn)
    for tally in jobs_of(services).take("tally"):
        house.tally(tally)
    return game_id


def decoded(document: bytes | None) -> dict[str, Any]:
    assert document is not None
    found: dict[str, Any] = msgspec.json.decode(document)
    return found


def test_the_tally_queues_the_review_which_judges_every_move_of_every_seat(services: Services, judge) -> None:
    game_id = played(services)
    assert jobs_of(services).take("review") == [game_id]
    assert House(services).review(game_id) is Reviewed.REVIEWED

    found = decoded(review.review(services, game_id))
    log = services.repository.log(game_id)
    moves = [(e.version, recorded(e.command)) for e in log if e.command and e.command.get("name") == "move"]
    assert [(d["version"], d["seat"], d["move"]) for d in found["decisions"]] == [
        (version, m.seat, m.move) for version, m in moves if isinstance(m, MakeMove)
    ]
    assert {d["by"] for d in found["decisions"]} == {"bot"}
    assert found["format"] == 1 and found["ruleset"] == "twelve-gangsters" and found["game_id"] == game_id
    for decision in found["decisions"]:
        assert 0 <= decision["chance_after"] <= decision["chance_after"] + decision["loss"] <= 1
        assert decision["loss"] >= 0
    assert any(d["loss"] > 0 for d in found["decisions"]), "the random bots made moves the judge rates lower"


def test_each_decision_is_judged_from_the_seats_own_view_then(services: Services, judge) -> None:
    game_id = played(services)
    House(services).review(game_id)
    game = services.repository.get(game_id)
    first = next(e for e in services.repository.log(game_id) if e.command and e.command.get("name") == "move")
    before = services.repository.log(game_id, after=0, limit=first.version - 1)
    table = fold(game.ruleset, None, before)
    assert table is not None
    seat = first.command["seat"]  # type: ignore[index]
    assert judge.views[0] == tables.plain_view(game.ruleset, table, seat, house=True)
    assert judge.views[0]["you"]["hand"], "its own hand, and nobody else's"
    others = [s for s in judge.views[0]["state"]["seats"] if s["seat"] != seat]
    assert all(s.get("hand") in (None, []) for s in others)


def test_the_review_is_the_same_made_again_after_a_drop(services: Services) -> None:
    game_id = played(services)
    House(services).review(game_id)
    first = review.review(services, game_id)
    assert House(services).review(game_id) is Reviewed.KEPT, "a job run twice does nothing more"

    services.projections.drop()
    assert review.review(services, game_id) is None, "none kept: the read queues its job again"
    assert jobs_of(services).take("review") == [game_id]
    House(services).review(game_id)
    assert review.review(services, game_id) == first


def test_a_review_of_another_format_is_made_again(services: Services) -> None:
    game_id = played(services)
    House(services).review(game_id)
    kept = decoded(review.review(services, game_id))
    older = msgspec.json.encode({**kept, "format": 0})
    services.projections.keep_review(game_id, 0, older)
    assert review.review(services, game_id) is None
    assert House(services).review(game_id) is Reviewed.REVIEWED
    assert decoded(review.review(services, game_id)) == kept


def test_a_game_under_way_has_no_review_and_a_service_without_a_judge_reviews_none() -> None:
    services = Services.in_memory(judge=scores_judge)
    created = play.create_game(services, "twelve-gangsters", BOTS, {}, None).game.game_id
    with pytest.raises(GameNotFinishedError):
        review.review(services, created)
    assert House(services).review(created) is Reviewed.NOT_FINISHED


@pytest.mark.parametrize("ruleset", ["twelve-gangsters", "cash-n-guns", "mobsters"])
def test_every_game_is_reviewed_each_move_made_among_those_judged(ruleset: str, judge: Counting) -> None:
    services = Services.in_memory(judge=judge)
    seats = [{"bot": "random"}] * 3 if ruleset != "cash-n-guns" else [{"bot": "random"}] * 4
    game_id = played(services, ruleset, seats)
    assert House(services).review(game_id) is Reviewed.REVIEWED
    found = decoded(review.review(services, game_id))
    assert found["decisions"] and all(d["seat"] in range(len(seats)) for d in found["decisions"])
    assert len(judge.views) == len(found["decisions"]), "each move made was one the judge weighed: none judged after"


def test_a_job_that_dies_halfway_leaves_no_review(services: Services, judge) -> None:
    game_id = played(services)

    def dies(ruleset: Ruleset[Any], view: dict[str, Any], rng: random.Random) -> Judgement:
        if len(judge.views) == 10:
            raise RuntimeError("the worker was stopped")
        return judge(ruleset, view, rng)

    with pytest.raises(RuntimeError):
        House(dataclasses.replace(services, judge=dies)).review(game_id)
    assert review.review(services, game_id) is None, "nothing kept: asked for, it is queued again"
    assert House(services).review(game_id) is Reviewed.REVIEWED
    assert review.review(services, game_id) is not None


def test_a_move_the_judge_did_not_weigh_is_judged_by_what_came_after_it(services: Services, judge) -> None:
    game_id = played(services)

    def blind(ruleset: Ruleset[Any], view: dict[str, Any], rng: random.Random) -> Judgement:
        """Weighs no move: only the position."""
        seen = judge(ruleset, view, rng)
        return Judgement(chance=seen.chance, moves=(), best=seen.best)

    House(dataclasses.replace(services, judge=blind)).review(game_id)
    found = decoded(review.review(services, game_id))
    game = services.repository.get(game_id)
    winners = game.ruleset.result(game.table.rules).winners
    last = found["decisions"][-1]
    assert last["chance_after"] == (1.0 if last["seat"] in winners else 0.0), "the last move: the end says"
    assert all(d["loss"] == 0 for d in found["decisions"]), "no move weighed, none weighed better"
    after = judge.views[1]  # the view after the first move, judged for its mover
    assert (
        after["version"] == found["decisions"][0]["version"] and after["you"]["seat"] == found["decisions"][0]["seat"]
    )


def test_a_deployment_names_another_judge_and_a_name_that_is_none_is_refused_at_start_up() -> None:
    house, named = house_judge(), Config(judge="").review_judge()
    assert isinstance(named, functools.partial) and isinstance(house, functools.partial)
    assert (named.func, named.keywords) == (house.func, house.keywords)
    assert Config(judge=JUDGE).review_judge() is scores_judge
    for wrong in ("tests.judges:nobody", "tests.nowhere:scores_judge", "tests.judges"):
        with pytest.raises(ConfigError, match="names no judge"):
            Config(judge=wrong).review_judge()
