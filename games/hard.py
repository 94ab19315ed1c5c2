"""The `hard` bot, for every game that has `determinize`: a search from its seat's view (`games.search`) within a
time budget, and a move from what it found.

A choice the table sees as it is made (a turn played in the open) is the move the search found best. A choice
nobody sees when it is made (a simultaneous decision) is drawn with the generator it is handed from
`games.mixing.strategy` over each move's estimated chance of winning, in fair shares, at the game's price for that
decision (`Ruleset.searching`): its code is public, and a predictor running it must guess such a choice little
better than chance (tests/games/test_unreadable_bots.py). A decision the game leaves to its model
(`Searching.modelled`) is the model's, drawn with the same generator.

`judge` says the same for a review: the seat's chance of winning now, each legal move's after it, and the move
this bot would make.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games import mixing
from games.base import Ruleset
from games.judgement import Judged, Judgement
from games.search import Budget, Found, owed, search

TIE = 1e-9
"""Rewards this close are the same: the playouts found no difference between the moves."""


def policy_of(ruleset: Ruleset[Any], found: Found) -> mixing.Mixed:
    """The distribution `hard` draws from, given what the search found: a mix over the moves' chances of winning
    (in fair shares) at the game's price for the decision where the choice is hidden, else the best move of those
    played out (most reward; of moves found alike, the one the model is likeliest to make, then most visits)."""
    moves = [estimate.move for estimate in found.moves]
    if len(moves) == 1:
        return mixing.certain(moves[0])
    if found.simultaneous:
        # in fair shares, as priced; where a seat's place counts too, the reward that weighs it (`Searching.placed`)
        placed = ruleset.searching.placed
        worth = [(estimate.reward if placed else estimate.win_chance) * found.seats for estimate in found.moves]
        return mixing.mixed(moves, mixing.strategy(worth, ruleset.searching.price_of(found.decision)))
    played = [estimate for estimate in found.moves if estimate.visits > 0] or found.moves
    top = max(estimate.reward for estimate in played)
    # moves found alike (a discard of a card no playout played, say) go the model's way, then to the most visited
    best = max(played, key=lambda e: (e.reward >= top - TIE, e.preferred, e.reward, e.visits))
    return mixing.certain(best.move)


def left_to_model(ruleset: Ruleset[Any], view: dict[str, Any]) -> mixing.Policy | None:
    """The game's model, where `hard` makes this view's decision as the model would, without a search
    (`Searching.modelled`); else None."""
    searching = ruleset.searching
    return searching.model if owed(view).get("decision") in searching.modelled else None


def judge(ruleset: Ruleset[Any], view: dict[str, Any], rng: random.Random, budget: Budget) -> Judgement:
    """The seat's chances now and after each of its legal moves, and the move `hard` makes, from its view alone
    (`games.table.plain_view`) within `budget`; `rng` draws the search's samples, then the move."""
    legal = view["you"]["legal_moves"]
    if not legal:
        raise ValueError("the seat has no move to make")
    found = search(ruleset, view, rng, budget)
    model = left_to_model(ruleset, view)
    policy = model(view, rng) if model is not None else policy_of(ruleset, found)
    return Judgement(
        chance=found.win_chance,
        moves=tuple(Judged(e.move, e.win_chance, e.visits) for e in found.moves),
        best=mixing.draw(policy, rng),
        policy=tuple(policy),
        iterations=found.iterations,
    )


def hard_policy(ruleset: Ruleset[Any], budget: Budget) -> mixing.Policy:
    """`hard`'s distribution for a view of this ruleset, within `budget` (a lone legal move without a search)."""

    def policy(view: dict[str, Any], rng: random.Random) -> mixing.Mixed:
        legal = view["you"]["legal_moves"]
        if len(legal) == 1:
            return mixing.certain(legal[0])
        model = left_to_model(ruleset, view)
        if model is not None:
            return model(view, rng)
        return policy_of(ruleset, search(ruleset, view, rng, budget))

    return policy


def hard_bot(ruleset: Ruleset[Any], budget: Budget) -> Callable[[dict[str, Any], random.Random], dict[str, Any]]:
    """The `hard` bot of this ruleset: a move drawn from `hard_policy`, with the same generator."""
    policy = hard_policy(ruleset, budget)

    def bot(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return mixing.play(policy, view, rng)

    bot.__name__ = f"hard_bot_{ruleset.id}"
    return bot
