"""A test judge for finished games' reviews: small, deterministic, and no search. A seat's chance is its share of
the scores its view shows (each seat's `score` in the state, plus one; even shares in a game that shows none); each
legal move keeps less of it the later the view lists it, give or take a little drawn from the generator (so a review
that did not seed it the same way each time would not come out the same); the best move is the one it rates
highest. The house's judge is the strongest bot's search; this one only has to be a judge."""

from __future__ import annotations

import random
import time
from typing import Any

from games.base import Ruleset
from games.judgement import Judged, Judgement

JUDGE = "tests.judges:scores_judge"
"""How `SYNDICATE_JUDGE` names it, for a worker in a process of its own."""


def share(view: dict[str, Any]) -> float:
    seats = view["state"].get("seats") if isinstance(view.get("state"), dict) else None
    mine = view["you"]["seat"]
    if not seats or not all(isinstance(s, dict) and "score" in s for s in seats):
        return 1 / len(view["seats"])
    weights = [s["score"] + 1 for s in seats]
    return weights[mine] / sum(weights)


def scores_judge(ruleset: Ruleset[Any], view: dict[str, Any], rng: random.Random) -> Judgement:
    now = share(view)
    legal = view["you"]["legal_moves"]
    moves = tuple(Judged(move, now * (1 - 0.5 * i / len(legal)) + rng.random() / 100) for i, move in enumerate(legal))
    best = max(moves, key=lambda m: m.chance).move if moves else {}
    return Judgement(chance=now, moves=moves, best=best)


def slow_judge(ruleset: Ruleset[Any], view: dict[str, Any], rng: random.Random) -> Judgement:
    """The scores judge, a fifth of a second a decision: a review that takes seconds, as the house's does."""
    time.sleep(0.2)
    return scores_judge(ruleset, view, rng)


SLOW_JUDGE = "tests.judges:slow_judge"
