"""What the service does on its own: bots' turns, deadlines, tallies, finished games' reviews, and the sweep that
makes sure no game ever stalls. Every action is idempotent: run twice, late, or after the game moved on, it changes
nothing more, and says what came of it (`Done`)."""

from __future__ import annotations

import enum
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from events.repository import Game
from games import table as tables
from games.base import IllegalMoveError
from games.bots import Bot, bot_for, random_bot
from games.commands import Command, TallyGame
from games.search import Budget
from games.table import Status
from service.application.callers import Caller
from service.application.errors import GameMovedOnError, IdempotencyKeyReusedError, VersionMismatchError
from service.application.execute import close_wait, execute, no_seat
from service.application.play import make_move
from service.application.review import REVIEW_STEP_S, Reviewed, review_step
from service.application.seating import seat_bots_when_due
from service.application.services import Services

log = logging.getLogger(__name__)


MAX_SEATS = 12
"""More seats than any game has: a bound on the moves of one turn of the house."""

CLOCK_SKEW_S = 2.0
"""How early a deadline job may run and still wait for its deadline: the queue keeps whole seconds, and a worker's
clock may run a little behind the server's that stamped the wait. Any earlier, it leaves the wait to its own job."""


class Outcome(enum.StrEnum):
    """What came of a job of the house."""

    PLAYED = "played"
    """It moved for seats (`Done.seats` says how many)."""
    MOVED_ON = "moved on"
    """The game had moved past what the job was for: nothing to do."""
    NOT_DUE = "not due"
    """A deadline's job ran early: its own job, set for the deadline, acts."""
    TIMED_OUT = "timed out"
    """The game's own rule for lateness closed the wait."""
    SEATED = "seated bots"
    """The wait for players was over: the house's bots took the open seats."""
    TALLIED = "tallied"
    NOT_FINISHED = "not finished"


@dataclass(frozen=True)
class Done:
    """What a job of the house did: its outcome, and for how many seats it moved."""

    outcome: Outcome
    seats: int = 0

    def __str__(self) -> str:
        return f"played for {self.seats} seats" if self.outcome is Outcome.PLAYED else str(self.outcome)


MOVED_ON = (IllegalMoveError, VersionMismatchError, GameMovedOnError, IdempotencyKeyReusedError)
"""What a move of the house meets when another landed first: the seat owes that move no more, the game is at another
version, or in another wait; or the job moved for the seat already (its key names the seat's move of one turn or one
wait: the seat owes another decision of the same wait, which the wait's own job played). Anything else is a fault: the
job fails, and is tried again."""


def choose(bot: Bot, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The bot's move; should a bot fail or answer a move that is not legal, the random bot's instead,
    so that a faulty bot never stalls a game."""
    try:
        move = bot(view, rng)
        if move in view["you"]["legal_moves"]:
            return move
        log.error("bot %s answered a move that is not legal: %r", getattr(bot, "__name__", bot), move)
    except Exception:
        log.exception("bot %s failed", getattr(bot, "__name__", bot))
    return random_bot(view, rng)


def tally_game(services: Services, game_id: str) -> Game:
    """Record the final tally of a finished game, once."""

    def ask(game: Game, _: int | None) -> Command:
        return TallyGame()

    return execute(services, game_id, no_seat, ask).game


class House:
    """`stall_s`: how long a game may wait on the house before the sweep queues its turn again; `budget`: how long a
    searching bot thinks over a decision; `review_step_s`: how long one step of a review judges, by `monotonic`.
    Every choice the house
    makes for a seat is drawn from the deployment's secret entropy (`Services.entropy`): a bot's card, bullet or aim
    must not be something a player could recompute from what the game shows, or from our code."""

    def __init__(
        self,
        services: Services,
        stall_s: float = 10.0,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
        budget: Budget | None = None,
        review_step_s: float = REVIEW_STEP_S,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.services = services
        self.budget = budget or Budget()
        self.repository = services.repository
        self.stall_s = stall_s
        self.clock = clock
        self.sleep = sleep
        self.review_step_s = review_step_s
        self.monotonic = monotonic

    def play_bots(self, game_id: str) -> Done:
        """The bots' turn: each seat the house plays that the game awaits moves, once, as its bot decides from what
        the seat may see, and each seat awaited on a decision it asked the house to pass (`auto_pass`) passes it,
        by its ruleset's one move for that, whatever the seat holds; then the game's next turn of the house is
        queued, if it needs one."""
        played: set[int] = set()
        with self.services.jobs.playing(game_id):
            for _ in range(3 * MAX_SEATS):  # a move that loses a race is decided again, a few times at most
                game = self.repository.get(game_id)
                table = game.table
                if table.status is not Status.IN_PROGRESS:
                    break
                awaited = game.ruleset.awaiting(table.rules)
                due = [s for s in sorted(awaited) if tables.house_moves(table, s, awaited[s])]
                seat = next((s for s in due if s not in played), None)
                if seat is None:
                    break
                if tables.passing(table, seat, awaited[seat]) and not tables.house_plays(table, seat):
                    # the seat asked for it: the one move that passes, whatever the seat holds
                    caller, move = Caller(seat=seat, by="auto_pass"), dict(game.ruleset.passes[awaited[seat]])
                else:
                    bot = bot_for(game.ruleset, tables.bot_of(table, seat), self.budget)
                    view = tables.plain_view(game.ruleset, table, seat, house=True)  # what the seat may see only
                    caller, move = Caller(seat=seat, by="bot"), choose(bot, view, self.services.entropy.rng())
                if self._move(game, caller, move, f"bot-{table.version}-{seat}", table.version):
                    played.add(seat)
        game = self.repository.get(game_id)  # the next turn of the house, once this one's moves are in
        if game.table.status is Status.IN_PROGRESS and any(
            tables.house_moves(game.table, s, d) for s, d in game.ruleset.awaiting(game.table.rules).items()
        ):
            self.services.jobs.bots_turn(game.table)
        return Done(Outcome.PLAYED, len(played)) if played else Done(Outcome.MOVED_ON)

    def expire(self, game_id: str, wait_since: int) -> Done:
        """A deadline passed: the game's own rule for lateness, else a random move for each awaited seat; before
        the start, the wait for players is over, and the house's bots take the open seats."""
        game = self.repository.get(game_id)
        early = self._before_deadline(game) if game.table.wait_since == wait_since else 0.0
        if early > CLOCK_SKEW_S:
            return Done(Outcome.NOT_DUE)  # its job is set for the deadline (and the sweep requeues one lost)
        if early > 0:
            self.sleep(early)  # a seat may move until its deadline, to the millisecond
            game = self.repository.get(game_id)
        if game.table.status is Status.WAITING:
            try:
                seat_bots_when_due(self.services, game_id, wait_since)
            except MOVED_ON:
                return Done(Outcome.MOVED_ON)
            return Done(Outcome.SEATED)
        try:
            own_rule = tables.timeout(game.ruleset, game.table, wait_since)
        except IllegalMoveError:
            return Done(Outcome.MOVED_ON)
        if own_rule is not None:
            close_wait(self.services, game_id, wait_since)
            return Done(Outcome.TIMED_OUT)
        played = 0
        for seat in game.ruleset.awaiting(game.table.rules):
            current = self.repository.get(game_id)
            if current.table.wait_since != wait_since or seat not in current.ruleset.awaiting(current.table.rules):
                continue
            view = tables.plain_view(current.ruleset, current.table, seat, house=True)
            move = random_bot(view, self.services.entropy.rng())
            played += self._move(current, Caller(seat=seat, by="deadline"), move, f"deadline-{wait_since}-{seat}")
        return Done(Outcome.PLAYED, played)

    def tally(self, game_id: str) -> Done:
        """Record the final tally of a finished game, once."""
        game = self.repository.get(game_id)
        if game.table.status is not Status.FINISHED:
            return Done(Outcome.NOT_FINISHED)
        tally_game(self.services, game_id)
        return Done(Outcome.TALLIED)

    def review(self, game_id: str) -> Reviewed:
        """One step of a finished game's review (service/application/review.py): MORE if another is to follow."""
        return review_step(self.services, game_id, self.review_step_s, self.monotonic)

    def _move(self, game: Game, caller: Caller, move: dict[str, Any], key: str, version: int | None = None) -> bool:
        """Whether the house's move for the seat landed (not if another landed first: the job is done)."""
        try:
            make_move(self.services, game.game_id, caller, move, if_match=version, idempotency_key=key, loaded=game)
        except MOVED_ON:
            return False
        return True

    def sweep(self) -> int:
        """Enqueue again whatever an active game has waited on too long and has no live job for; the number of
        jobs enqueued."""
        requeued = 0
        for game_id in self.services.projections.lobby.active():
            game = self.repository.get(game_id)
            if self._needs_help(game):
                requeued += self.services.jobs.rescue(game.ruleset, game.table)
        return requeued

    def _needs_help(self, game: Game) -> bool:
        """A game untallied, or idle past the stall time (or past its deadline) while it waits."""
        table = game.table
        if table.status is Status.FINISHED:
            return not table.tallied
        if table.status is Status.WAITING:
            return self._before_deadline(game) == 0.0 and tables.bots_at(table) is not None
        if table.status is not Status.IN_PROGRESS:
            return False
        idle = self.clock() - datetime.fromisoformat(table.moved_at).timestamp()
        limit = tables.time_limit(game.ruleset, table)
        awaits_bot = any(tables.house_moves(table, s, d) for s, d in game.ruleset.awaiting(table.rules).items())
        started = datetime.fromisoformat(table.wait_started_at).timestamp()
        overdue = limit is not None and self.clock() - started > limit + 1
        return (awaits_bot and idle > self.stall_s) or overdue

    def _before_deadline(self, game: Game) -> float:
        """Seconds until the current wait's deadline (for players, before the start); 0 once it has passed, or
        without one."""
        due = tables.deadline_at(game.ruleset, game.table) or tables.bots_at(game.table)
        return 0.0 if due is None else max(0.0, datetime.fromisoformat(due).timestamp() - self.clock())
