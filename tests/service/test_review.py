"""A finished game's review on the whole service graph in memory, judged by the test judge (tests/judges.py): one
decision for each move a seat made, judged from the seat's own view then; queued by the first read, made in steps
that each keep how far they came, kept whole, the same in one step or in many, run twice or beside a copy, or after
a step that died; made again the same after a drop; asked for before it is there, its job queued again."""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from typing import Any

import msgspec
import pytest

from events.repository import fold
from games import table as tables
from games.base import Ruleset
from games.commands import MakeMove, recorded
from games.judgement import Judgement
from projections import reviews
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


def made(services: Services, game_id: str, house: House | None = None) -> list[Reviewed]:
    """What came of each step of a review, run one after the other as the job queues them, to the last."""
    house = house or House(services)
    steps = [house.review(game_id)]
    while steps[-1] is Reviewed.MORE:
        steps.append(house.review(game_id))
    return steps


def decoded(document: bytes | None) -> dict[str, Any]:
    assert document is not None
    found: dict[str, Any] = msgspec.json.decode(document)
    return found


def test_the_first_read_queues_the_review_which_judges_every_move_of_every_seat(services: Services, judge) -> None:
    game_id = played(services)
    assert jobs_of(services).take("review") == [], "nobody asked for it: the tally queues none"
    assert review.review(services, game_id) is None
    assert jobs_of(services).take("review") == [game_id]
    assert made(services, game_id)[-1] is Reviewed.REVIEWED

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
    made(services, game_id)
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
    made(services, game_id)
    first = review.review(services, game_id)
    assert House(services).review(game_id) is Reviewed.KEPT, "a job run twice does nothing more"

    services.projections.drop()
    assert review.review(services, game_id) is None, "none kept: the read queues its job again"
    assert jobs_of(services).take("review") == [game_id]
    made(services, game_id)
    assert review.review(services, game_id) == first


def test_a_review_of_another_format_is_made_again(services: Services) -> None:
    game_id = played(services)
    made(services, game_id)
    kept = decoded(review.review(services, game_id))
    older = msgspec.json.encode({**kept, "format": 0})
    services.projections.keep_review(game_id, 0, older)
    assert review.review(services, game_id) is None
    assert made(services, game_id)[-1] is Reviewed.REVIEWED
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
    assert made(services, game_id)[-1] is Reviewed.REVIEWED
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
    assert made(services, game_id)[-1] is Reviewed.REVIEWED
    assert review.review(services, game_id) is not None


def test_a_move_the_judge_did_not_weigh_is_judged_by_what_came_after_it(services: Services, judge) -> None:
    game_id = played(services)

    def blind(ruleset: Ruleset[Any], view: dict[str, Any], rng: random.Random) -> Judgement:
        """Weighs no move: only the position."""
        seen = judge(ruleset, view, rng)
        return Judgement(chance=seen.chance, moves=(), best=seen.best)

    made(services, game_id, House(dataclasses.replace(services, judge=blind)))
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


class Ticking:
    """A monotonic clock that moves a second each time it is read: a step of `seconds` judges so many decisions."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def in_one_go(services: Services, game_id: str) -> bytes:
    """The game's review made in one step, from nothing kept (what came before is put back as it was)."""
    kept = services.projections.review(game_id)
    services.projections.drop()
    assert review.review_game(services, game_id) is Reviewed.REVIEWED
    whole = services.projections.review(game_id)
    assert whole is not None
    services.projections.rebuild()
    if kept is not None:
        services.projections.keep_review(game_id, services.repository.get(game_id).version, kept)
    return whole


def judged_so_far(services: Services, game_id: str) -> int:
    progress = services.projections.review_progress(game_id)
    return 0 if progress is None else progress[0]


@pytest.mark.parametrize("seconds", [0.0, 2.5])
def test_a_review_made_in_steps_is_the_one_made_in_one_go_byte_for_byte(services: Services, seconds: float) -> None:
    game_id = played(services, "mobsters", [{"bot": "smart"}, {"bot": "random"}, {"bot": "random"}])
    house = House(services, review_step_s=seconds, monotonic=Ticking())
    steps, judged = [house.review(game_id)], [judged_so_far(services, game_id)]
    while steps[-1] is Reviewed.MORE:
        assert services.projections.review(game_id) is None, "no review before the last step"
        steps.append(house.review(game_id))
        judged.append(judged_so_far(services, game_id))
    decisions = len(decoded(services.projections.review(game_id))["decisions"])
    per_step = 1 if seconds == 0 else 3  # the clock is read as the step starts, then before each decision but the first
    assert steps == [Reviewed.MORE] * (-(-decisions // per_step) - 1) + [Reviewed.REVIEWED]
    assert judged[:-1] == [per_step * (n + 1) for n in range(len(steps) - 1)], "each step goes on from the last"
    assert judged[-1] == 0, "the last step lets the progress go"
    assert services.projections.review(game_id) == in_one_go(services, game_id)


def test_a_step_run_twice_or_beside_a_copy_of_itself_ends_with_the_same_review(services: Services) -> None:
    game_id = played(services)
    whole = in_one_go(services, game_id)
    house = House(services, review_step_s=0)
    assert house.review(game_id) is Reviewed.MORE
    progress = services.projections.review_progress(game_id)
    assert progress is not None and progress[0] == 1
    assert not services.projections.keep_review_progress(game_id, 0, b"[]"), "a shorter progress is not kept"
    assert services.projections.review_progress(game_id) == progress

    copies: list[Reviewed] = []

    def with_a_copy(ruleset: Ruleset[Any], view: dict[str, Any], rng: random.Random) -> Judgement:
        """While this step judges, a copy of it runs, then another that finishes the review."""
        if not copies:
            copies.append(house.review(game_id))
            copies.append(House(services, review_step_s=math.inf).review(game_id))
        return scores_judge(ruleset, view, rng)

    beside = House(dataclasses.replace(services, judge=with_a_copy), review_step_s=0)
    assert beside.review(game_id) is Reviewed.MORE, "it judged its one decision, and keeps it as progress"
    assert copies == [Reviewed.MORE, Reviewed.REVIEWED]
    assert services.projections.review(game_id) == whole
    assert house.review(game_id) is Reviewed.KEPT, "the step it queued finds the review kept"
    assert services.projections.review(game_id) == whole


def test_a_chain_goes_on_from_the_progress_a_step_that_died_left(services: Services, judge: Counting) -> None:
    game_id = played(services)
    whole = in_one_go(services, game_id)
    judge.views.clear()
    house = House(services, review_step_s=2.5, monotonic=Ticking())
    assert house.review(game_id) is Reviewed.MORE
    assert house.review(game_id) is Reviewed.MORE
    assert judged_so_far(services, game_id) == 6

    def dies(ruleset: Ruleset[Any], view: dict[str, Any], rng: random.Random) -> Judgement:
        if len(judge.views) == 7:
            raise RuntimeError("the worker was stopped")
        return judge(ruleset, view, rng)

    with pytest.raises(RuntimeError):
        House(dataclasses.replace(services, judge=dies), review_step_s=2.5, monotonic=Ticking()).review(game_id)
    assert judged_so_far(services, game_id) == 6, "the progress the last step kept"
    assert review.review(services, game_id) is None
    assert made(services, game_id)[-1] is Reviewed.REVIEWED
    assert services.projections.review(game_id) == whole
    decisions = len(decoded(whole)["decisions"])
    assert len(judge.views) == decisions + 1, "each decision judged once, but the one the dead step was judging"


def test_a_progress_of_another_format_is_judged_again_and_a_drop_takes_a_progress(services: Services) -> None:
    game_id = played(services)
    whole = in_one_go(services, game_id)
    key = reviews.REVIEWS.progress_key(game_id)
    services.projections.store.write_progress(key, reviews.FORMAT - 1, 5, b"not decisions", 60)
    assert services.projections.review_progress(game_id) is None
    house = House(services, review_step_s=0)
    assert house.review(game_id) is Reviewed.MORE
    assert judged_so_far(services, game_id) == 1, "judged from the start"
    services.projections.drop()
    assert services.projections.review_progress(game_id) is None
    assert made(services, game_id, house)[-1] is Reviewed.REVIEWED
    assert services.projections.review(game_id) == whole
