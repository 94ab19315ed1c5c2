"""All-bot games played in-process through the real table functions: no Redis, no Flask, no queue.

`play_game` plays one game the way the house would (each awaited seat's bot sees exactly its seat's view
and answers a move body, which is parsed, decided and folded like any move). `simulate` plays many and
tallies who wins: how a bot compares with its fair share of victories.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from games import table as tables
from games.base import MoveFormatError, Result, Ruleset
from games.bots import bot_for
from games.search import Budget

Watch = Callable[[tables.Table[Any], int, dict[str, Any]], None]
"""Told of each bot move before it is played: the table then, the seat, and the move body."""


class SelfPlayError(RuntimeError):
    """The game cannot go on: it waits on nobody but is not over (a bug in the rules)."""


def play_game(ruleset: Ruleset[Any], seat_kinds: Sequence[str], seed: int, budget: Budget | None = None) -> Result:
    """One game with a bot of `seat_kinds[i]` in seat i, created with `seed`; its final tally (`budget`: a
    searching bot's, the default unless given)."""
    table = play_out(ruleset, seat_kinds, seed, budget=budget)
    return ruleset.result(table.rules)


def play_out(
    ruleset: Ruleset[Any],
    seat_kinds: Sequence[str],
    seed: int,
    watch: Watch | None = None,
    budget: Budget | None = None,
) -> tables.Table[Any]:
    """The finished table of one game with a bot of `seat_kinds[i]` in seat i, created with `seed`; `watch`, if
    given, is told of every move; `budget` is a searching bot's (the default unless given).

    Bots move at once, as the house makes them do, so a time limit (an aiming window) never runs out:
    a wait closes when its last awaited seat moves. A game that awaits nobody and is not over is a bug.
    """
    seats = [tables.Seat(bot=kind) for kind in seat_kinds]
    table: tables.Table[Any] | None = None
    for event in tables.create(ruleset, f"selfplay-{seed}", seats, {}, seed, salt="", created_at=""):
        table = tables.evolve(ruleset, table, event)
    assert table is not None
    bots = [bot_for(ruleset, kind, budget) for kind in seat_kinds]
    while table.status is not tables.Status.FINISHED:
        awaited = sorted(ruleset.awaiting(table.rules))
        if not awaited:
            raise SelfPlayError(f"{ruleset.id} game {seed} awaits nobody at version {table.version} but is not over")
        for seat in awaited:
            # mypy checks the loop's first pass with the `while` condition's narrowing and reports this test as
            # never true; a move below may finish the game before the next seat's turn.
            if table.status is tables.Status.FINISHED or seat not in ruleset.awaiting(table.rules):  # type: ignore[comparison-overlap]
                continue  # an earlier move this pass ended the wait (or the game)
            body = bots[seat](tables.plain_view(ruleset, table, seat), generator(seed, table.version, seat))
            if watch is not None:
                watch(table, seat, body)
            try:
                move = ruleset.parse_move(body)
            except MoveFormatError as error:
                raise SelfPlayError(f"bot {seat_kinds[seat]!r} answered no move: {error.detail}") from None
            for event in tables.play(ruleset, table, seat, move):
                table = tables.evolve(ruleset, table, event)
    return table


def generator(seed: int, version: int, seat: int) -> random.Random:
    """The generator a bot is handed for one move of a self-played game: its own for each game, moment and seat."""
    return random.Random(f"{seed}:{version}:{seat}")


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of a simulation's games, derived from its own seed."""
    rng = random.Random(f"simulate:{seed}")
    return [rng.getrandbits(63) for _ in range(games)]


def simulate(
    ruleset: Ruleset[Any], seat_kinds: Sequence[str], games: int, seed: int = 0, budget: Budget | None = None
) -> dict[str, Any]:
    """Play `games` games and tally them per seat position and per bot kind.

    A shared victory counts as a win for each winner, so win rates may add up to more than 1.
    Per kind, `win_rate` is the mean over that kind's seats: compare it with `fair_share` (1 / seats).
    """
    n = len(seat_kinds)
    wins = [0] * n
    totals = [0] * n
    for game_seed in game_seeds(seed, games):
        result = play_game(ruleset, seat_kinds, game_seed, budget)
        for seat in result.winners:
            wins[seat] += 1
        for seat, score in enumerate(result.scores):
            totals[seat] += score
    played = max(games, 1)
    fair_share = 1 / n
    kinds: dict[str, dict[str, Any]] = {}
    for seat, kind in enumerate(seat_kinds):
        entry = kinds.setdefault(kind, {"seats": 0, "wins": 0})
        entry["seats"] += 1
        entry["wins"] += wins[seat]
    for entry in kinds.values():
        entry["win_rate"] = entry["wins"] / (played * entry["seats"])
        entry["fair_share"] = fair_share
        entry["vs_fair_share"] = entry["win_rate"] / fair_share
    return {
        "ruleset": ruleset.id,
        "games": games,
        "seed": seed,
        "fair_share": fair_share,
        "seats": [
            {
                "seat": seat,
                "kind": kind,
                "wins": wins[seat],
                "win_rate": wins[seat] / played,
                "mean_score": totals[seat] / played,
            }
            for seat, kind in enumerate(seat_kinds)
        ],
        "kinds": kinds,
    }
