"""A finished game's review: for each decision of each seat (each move the log records a seat made, its player's,
its bot's or the deadline's), the seat's chance to win before and after it and the move the house's strongest bot
would have made, as a judge (`Services.judge`, ports.py `Judge`) sees them from the seat's own view then: what the
seat knew, nothing more.

It is made only when asked: the first read of a finished game's review finds none, queues its job and says to come
back. The job makes it in short steps (`review_step`, each a job of its own: service/worker/jobs.py `review`), so
that a worker goes back to the games between two: a step judges the decisions after those judged already, in the
order of the log, for REVIEW_STEP_S seconds (one decision at least), and keeps how far it came in the game's slot
(projections/reviews.py); the last keeps the review whole, in one write, and lets the progress go. A step run
twice, or beside another copy of itself, judges the same decisions the same and never keeps less than is kept; one
that dies leaves the progress the last one kept, and a read that finds the steps lost queues them again, from there.
The judge is given a fixed amount of work and a generator seeded from the game and the decision (the game is over,
everything is revealed: predictability no longer matters), so the same log always gets the same review, made in
one step or in many, after a rebuild too.
"""

from __future__ import annotations

import enum
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import msgspec

from events.envelope import Envelope
from events.repository import GAME_ID, fold
from games import table as tables
from games.base import Ruleset
from games.commands import MakeMove, recorded
from games.table import Status, Table
from projections import reviews
from service.application.errors import GameAbortedError, GameNotFinishedError
from service.application.ports import Judge
from service.application.services import Services

RETRY_AFTER_S = 5
"""When a client that found no review yet should ask again."""

REVIEW_STEP_S = 1.0
"""How long one step of a review judges, by the worker's monotonic clock (it finishes the decision at hand): a bot's
turn waits behind one step at most."""

PRECISION = 4
"""Chances are kept to this many decimals: the same judgement always writes the same bytes."""


class Decision(msgspec.Struct, frozen=True):
    """One decision of a seat, judged from the seat's view just before it."""

    version: int
    """The version of the move's first event."""
    seat: int
    by: str | None
    """Who made the move for the seat: None its player, `bot` the house's bot, `deadline` a random move at a
    deadline."""
    move: dict[str, Any]
    chance_before: float
    chance_after: float
    best: dict[str, Any]
    loss: float
    """How much of the seat's chance the move gave away against the best move (0 when it was as good)."""


class Review(msgspec.Struct, frozen=True):
    format: int
    game_id: str
    ruleset: str
    decisions: tuple[Decision, ...]


@dataclass(frozen=True)
class Moved:
    """A seat's move as the log recorded it: the command, the table before it and the table after its batch."""

    version: int
    command: MakeMove
    before: Table[Any]
    after: Table[Any]


def moves_of(ruleset: Ruleset[Any], envelopes: Sequence[Envelope]) -> Iterator[Moved]:
    """Every move a seat made, in the order of the log, with the tables around it."""
    table: Table[Any] | None = None
    for _, batch_iter in groupby(envelopes, key=lambda e: e.command_id):
        batch = list(batch_iter)
        before = table
        table = fold(ruleset, table, batch)
        command = recorded(batch[0].command) if batch[0].command else None
        if isinstance(command, MakeMove) and before is not None and table is not None:
            yield Moved(batch[0].version, command, before, table)


def chance(value: float) -> float:
    return round(min(1.0, max(0.0, value)), PRECISION)


def judged(ruleset: Ruleset[Any], game_id: str, moved: Moved, judge: Judge) -> Decision:
    """One decision, judged from the seat's own view before it, with a generator seeded from the game and the
    decision. A move the judge did not weigh (it names a move differently) is judged by the seat's view after it, or,
    if it ended the game, by the end itself: 1 for a winner, 0 for the others."""
    seat = moved.command.seat
    rng = random.Random(f"review:{game_id}:{moved.version}")
    # As the house sees a seat it plays: the seat's own view, with its moves even once it resigned.
    judgement = judge(ruleset, tables.plain_view(ruleset, moved.before, seat, house=True), rng)
    after = judgement.chance_after(moved.command.move)
    if after is None and moved.after.status is Status.FINISHED:
        after = 1.0 if seat in ruleset.result(moved.after.rules).winners else 0.0
    elif after is None:
        after = judge(ruleset, tables.plain_view(ruleset, moved.after, seat, house=True), rng).chance
    best = judgement.chance_after(judgement.best)
    best_chance = max(after, best if best is not None else after)
    return Decision(
        version=moved.version,
        seat=seat,
        by=moved.command.by,
        move=moved.command.move,
        chance_before=chance(judgement.chance),
        chance_after=chance(after),
        best=judgement.best,
        loss=chance(best_chance - after),
    )


class Reviewed(enum.StrEnum):
    """What came of a step of a review."""

    REVIEWED = "reviewed"
    """The last step: the review is kept."""
    MORE = "more to judge"
    """A step that kept its progress: another is to follow."""
    KEPT = "kept already"
    NOT_FINISHED = "not finished"


DECISIONS = msgspec.json.Decoder(list[Decision])
"""The decisions a review's progress holds."""


def review_step(
    services: Services,
    game_id: str,
    seconds: float = REVIEW_STEP_S,
    clock: Callable[[], float] = time.monotonic,
) -> Reviewed:
    """One step of a finished game's review, unless one of this format is kept already: judge the decisions after
    those the progress holds, in the order of the log, until `seconds` are spent by `clock` (one decision at least);
    then keep the progress (MORE), or, once every decision is judged, the review (REVIEWED)."""
    game = services.repository.get(game_id)
    if game.table.status is not Status.FINISHED:
        return Reviewed.NOT_FINISHED
    if services.projections.review(game_id) is not None:
        return Reviewed.KEPT
    progress = services.projections.review_progress(game_id)
    decisions = DECISIONS.decode(progress[1]) if progress is not None else []
    judged_to, judged_before = (decisions[-1].version if decisions else 0), len(decisions)
    started = clock()
    for moved in moves_of(game.ruleset, services.repository.log(game_id)):
        if moved.version <= judged_to:
            continue
        if len(decisions) > judged_before and clock() - started >= seconds:
            services.projections.keep_review_progress(game_id, len(decisions), msgspec.json.encode(decisions))
            return Reviewed.MORE
        decisions.append(judged(game.ruleset, game_id, moved, services.judge))
    found = Review(format=reviews.FORMAT, game_id=game_id, ruleset=game.ruleset.id, decisions=tuple(decisions))
    services.projections.keep_review(game_id, game.version, msgspec.json.encode(found))
    return Reviewed.REVIEWED


def review_game(services: Services, game_id: str) -> Reviewed:
    """A finished game's review made in one step, kept unless one of this format is (the API document's example)."""
    return review_step(services, game_id, math.inf)


def review(services: Services, game_id: str) -> bytes | None:
    """A finished game's review (JSON) as kept; None if there is none yet: its job is queued (unless its steps
    are under way: again, if they were lost) and the caller asks again in RETRY_AFTER_S seconds."""
    stored = services.projections.review(game_id) if GAME_ID.fullmatch(game_id) else None
    if stored is not None:
        return stored
    game = services.repository.get(game_id)
    if game.table.status is Status.ABORTED:
        raise GameAbortedError("this game was aborted: it has no review")
    if game.table.status is not Status.FINISHED:
        raise GameNotFinishedError("the game has not finished yet: it is reviewed once it is over")
    services.jobs.review(game_id)
    return None
