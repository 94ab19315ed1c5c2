"""Perfect-information Monte Carlo: the baseline a searching bot must beat, for measuring in the arena only.

For the seat's view it draws states the view could come from (`Ruleset.determinize`), `SAMPLES` in all, spread
evenly over its legal moves. On each it makes the move (the other seats of a simultaneous decision choose
theirs at random), plays the game out to its end with uniformly random legal moves through the pure rules, and
counts a win when the seat is among the winners (a shared victory counts). It makes the move with the best mean.

It is no house bot: it ranks each move by games it then plays as if every hand were known, a known flaw of the
method, and it mixes nothing, so its code tells what it will do. It is not offered at a table
(`games.table.bot_kinds`); `games.selfplay` seats it in the arena.
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.base import Move, Ruleset
from games.bots import Bot

SAMPLES = 400
"""Determinizations a decision draws, in all: spread over the legal moves, each move gets its share rounded up."""


class PlayoutError(RuntimeError):
    """A playout that awaits nobody before its end: a bug in the rules (or in the state drawn)."""


def bot(ruleset: Ruleset[Any], samples: int = SAMPLES) -> Bot:
    """The PIMC bot of a ruleset with `determinize`: a function of a seat's view and a generator, answering a
    move body from the view's legal moves."""
    determinize = ruleset.determinize
    if determinize is None:
        raise ValueError(f"{ruleset.id} has no determinize: nothing to search")

    def pimc(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        legal: list[dict[str, Any]] = view["you"]["legal_moves"]
        if len(legal) == 1:
            return legal[0]
        seat: int = view["you"]["seat"]
        share = math.ceil(samples / len(legal))
        means = []
        for body in legal:
            move = ruleset.parse_move(body)
            wins = sum(playout(ruleset, determinize(view, rng), seat, move, rng) for _ in range(share))
            means.append(wins / share)
        return legal[max(range(len(legal)), key=means.__getitem__)]  # the first of equal means

    return pimc


def playout(ruleset: Ruleset[Any], state: Any, seat: int, move: Move, rng: random.Random) -> bool:
    """Whether `seat` wins (alone or shared) after making `move` in `state` and every seat then moving at
    random to the end."""
    state = apply(ruleset, state, seat, move, rng)
    while not ruleset.is_over(state):
        awaited = ruleset.awaiting(state)
        if not awaited:
            raise PlayoutError(f"a {ruleset.id} playout awaits nobody before its end")
        for other in sorted(awaited):
            # an earlier move of this pass may have ended the wait, or the game
            if other in ruleset.awaiting(state):
                state = apply(ruleset, state, other, rng.choice(ruleset.legal_moves(state, other)), rng)
    return seat in ruleset.result(state).winners


def apply(ruleset: Ruleset[Any], state: Any, seat: int, move: Move, rng: random.Random) -> Any:
    """The state after the seat's move."""
    for event in ruleset.decide(state, seat, move, rng):
        state = ruleset.evolve(state, event)
    return state
