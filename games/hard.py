"""The `hard` bot, for every game that has `determinize`: a search from its seat's view (`games.search`) within a
time budget, and a move from what it found.

A choice the table sees as it is made (a turn played in the open) is the move the search found best. A choice
nobody sees when it is made (a simultaneous decision) is drawn with the generator it is handed from
`games.mixing.strategy` over each move's estimated chance of winning, at the price `PRICE`: its code is public,
and a predictor running it must guess such a choice little better than chance (tests/games/test_unreadable_bots.py).

`judge` says the same for a review: the seat's chance of winning now, each legal move's after it, and the move
this bot would make.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games import mixing
from games.base import Ruleset
from games.search import Budget, Found, MoveEstimate, search

PRICE = 0.15
"""What a hidden choice foreseen for sure costs, in chances of winning (see `games.mixing.strategy`)."""


@dataclass(frozen=True)
class Judgement:
    """A seat's position as the search sees it.

    - `win_chance`: the seat's estimated chance of winning now (a shared victory counts).
    - `moves`: each legal move (as the view lists it) with the seat's estimated chance of winning after it, and
      how many of the search's iterations tried it.
    - `policy`: the distribution `hard` draws its move from (one move for sure in an open choice).
    - `choice`: the move `hard` makes, drawn from `policy` with the generator `judge` was handed.
    - `iterations`: how many the search ran within its budget.
    """

    win_chance: float
    moves: list[MoveEstimate]
    policy: mixing.Mixed
    choice: dict[str, Any]
    iterations: int


def policy_of(found: Found) -> mixing.Mixed:
    """The distribution `hard` draws from, given what the search found: a mix over the moves' chances of winning
    where the choice is hidden, else the best move (most chance, then most visits)."""
    moves = [estimate.move for estimate in found.moves]
    if len(moves) == 1:
        return mixing.certain(moves[0])
    if found.simultaneous:
        worth = [estimate.win_chance for estimate in found.moves]
        return mixing.mixed(moves, mixing.strategy(worth, PRICE))
    best = max(found.moves, key=lambda e: (e.reward, e.visits))
    return mixing.certain(best.move)


def judge(ruleset: Ruleset[Any], view: dict[str, Any], rng: random.Random, budget: Budget) -> Judgement:
    """The seat's chances now and after each of its legal moves, and the move `hard` makes, from its view alone
    (`games.table.plain_view`) within `budget`; `rng` draws the search's samples, then the move."""
    legal = view["you"]["legal_moves"]
    if not legal:
        raise ValueError("the seat has no move to make")
    found = search(ruleset, view, rng, budget)
    policy = policy_of(found)
    return Judgement(found.win_chance, found.moves, policy, mixing.draw(policy, rng), found.iterations)


def hard_policy(ruleset: Ruleset[Any], budget: Budget) -> mixing.Policy:
    """`hard`'s distribution for a view of this ruleset, within `budget` (a lone legal move without a search)."""

    def policy(view: dict[str, Any], rng: random.Random) -> mixing.Mixed:
        legal = view["you"]["legal_moves"]
        if len(legal) == 1:
            return mixing.certain(legal[0])
        return policy_of(search(ruleset, view, rng, budget))

    return policy


def hard_bot(ruleset: Ruleset[Any], budget: Budget) -> Callable[[dict[str, Any], random.Random], dict[str, Any]]:
    """The `hard` bot of this ruleset: a move drawn from `hard_policy`, with the same generator."""
    policy = hard_policy(ruleset, budget)

    def bot(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return mixing.play(policy, view, rng)

    bot.__name__ = f"hard_bot_{ruleset.id}"
    return bot
