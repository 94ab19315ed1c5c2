"""All-bot games played in-process through the real table functions: no Redis, no Flask, no queue.

`play_game` plays one game the way the house would (each awaited seat's bot sees exactly its seat's view
and answers a move body, which is parsed, decided and folded like any move). `simulate` plays many and
tallies who wins: how a bot compares with its fair share of victories. `arena` plays head-to-head tables with
the kinds rotating round the seats (`games.scoreboard` tallies them). Every kind a table may seat is found
through `contenders`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games import pimc
from games import table as tables
from games.base import MoveFormatError, Result, Ruleset
from games.bots import Bot, bot_for
from games.bots import kinds as offered
from games.search import Budget

Watch = Callable[[tables.Table[Any], int, dict[str, Any]], None]
"""Told of each bot move before it is played: the table then, the seat, and the move body."""


class SelfPlayError(RuntimeError):
    """The game cannot go on: it waits on nobody but is not over (a bug in the rules), or a seat names no bot."""


def contenders(ruleset: Ruleset[Any], budget: Budget | None = None) -> dict[str, Bot]:
    """Every bot kind a self-played table of this ruleset may seat, by kind: every kind a table offers
    (`games.bots.kinds`; `budget` is a searching bot's, the default unless given), and `pimc`, the baseline a
    searching bot is measured against, which only the arena seats (a ruleset with `determinize`)."""
    found: dict[str, Bot] = {kind: bot_for(ruleset, kind, budget) for kind in offered(ruleset)}
    if ruleset.determinize is not None:
        found["pimc"] = pimc.bot(ruleset)
    return found


def bots_of(ruleset: Ruleset[Any], seat_kinds: Sequence[str], budget: Budget | None = None) -> list[Bot]:
    """Each seat's bot, by its kind; SelfPlayError for a kind the ruleset has no bot of."""
    found = contenders(ruleset, budget)
    unknown = next((kind for kind in seat_kinds if kind not in found), None)
    if unknown is not None:
        raise SelfPlayError(f"{ruleset.id} has no {unknown!r} bot; it has {sorted(found)}")
    return [found[kind] for kind in seat_kinds]


def seat_of(ruleset: Ruleset[Any], kind: str) -> tables.Seat:
    """How the table seats a bot of this kind: as a bot when the table offers the kind, else under its name (the
    table refuses a bot kind it does not offer; the seat's moves are made here all the same)."""
    return tables.Seat(bot=kind) if kind in tables.bot_kinds(ruleset) else tables.Seat(name=kind)


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
    bots: Sequence[Bot] | None = None,
    budget: Budget | None = None,
) -> tables.Table[Any]:
    """The finished table of one game with a bot of `seat_kinds[i]` in seat i, created with `seed`; `watch`, if
    given, is told of every move. `bots`, if given, are the seats' bots (the arena's, timed), else each kind's
    from `contenders` (`budget`: a searching bot's, the default unless given).

    Bots move at once, as the house makes them do, so a time limit (an aiming window) never runs out:
    a wait closes when its last awaited seat moves. A game that awaits nobody and is not over is a bug.
    """
    if bots is None:
        bots = bots_of(ruleset, seat_kinds, budget)
    seats = [seat_of(ruleset, kind) for kind in seat_kinds]
    table: tables.Table[Any] | None = None
    for event in tables.create(ruleset, f"selfplay-{seed}", seats, {}, seed, salt="", created_at=""):
        table = tables.evolve(ruleset, table, event)
    assert table is not None
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


# --- the arena: head-to-head tables, the kinds rotating round the seats -------------------------------------

Clock = Callable[[], float]
"""Seconds from some start (`time.perf_counter`): handed in, since the rules read no clock."""


@dataclass(frozen=True)
class Played:
    """One arena game: its number, its seed, the kind in each seat, the finished table, and each bot call's time
    (the kind and seconds; none without a clock)."""

    number: int
    seed: int
    kinds: tuple[str, ...]
    table: tables.Table[Any]
    times: tuple[tuple[str, float], ...]


def rotated(lineup: Sequence[str], number: int) -> tuple[str, ...]:
    """The kind in each seat of the arena's game `number`: the lineup turned one seat further each game, so in
    every `len(lineup)` games each entry of the lineup takes each seat once."""
    n = len(lineup)
    return tuple(lineup[(seat + number) % n] for seat in range(n))


def arena_seed(seed: int, number: int, seats: int) -> int:
    """The seed of the arena's game `number`: one for each rotation, so the games of a rotation deal alike and
    only the seats change hands (the luck of the deal cancels with the seats' order)."""
    return random.Random(f"arena:{seed}:{number // seats}").getrandbits(63)


def arena_game(
    ruleset: Ruleset[Any],
    lineup: Sequence[str],
    number: int,
    seed: int,
    clock: Clock | None = None,
    budget: Budget | None = None,
) -> Played:
    """The arena's game `number` (of the arena seeded `seed`), each bot call timed by `clock` if given (`budget`: a
    searching bot's, the default unless given)."""
    kinds = rotated(lineup, number)
    game_seed = arena_seed(seed, number, len(kinds))
    times: list[tuple[str, float]] = []
    bots = bots_of(ruleset, kinds, budget)
    if clock is not None:
        bots = [timed(bot, kind, clock, times) for bot, kind in zip(bots, kinds, strict=True)]
    table = play_out(ruleset, kinds, game_seed, bots=bots)
    return Played(number=number, seed=game_seed, kinds=kinds, table=table, times=tuple(times))


def timed(bot: Bot, kind: str, clock: Clock, times: list[tuple[str, float]]) -> Bot:
    """The bot, each of its calls' time added to `times`."""

    def timing(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        start = clock()
        body = bot(view, rng)
        times.append((kind, clock() - start))
        return body

    return timing


def arena(
    ruleset: Ruleset[Any], lineup: Sequence[str], games: int, seed: int = 0, clock: Clock | None = None
) -> list[Played]:
    """The arena's first `games` games, in order (a whole number of rotations gives every kind every seat
    equally: see `rotations`)."""
    return [arena_game(ruleset, lineup, number, seed, clock) for number in range(games)]


def rotations(games: int, seats: int) -> int:
    """The games of whole rotations that hold at least `games` games."""
    return -(-games // seats) * seats
