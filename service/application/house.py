"""What the service does on its own: bots' turns, deadlines, tallies, and the sweep that makes sure
no game ever stalls. Every action is idempotent: run twice, late, or after the game moved on, it
changes nothing more."""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from events.repository import Game, NoSuchGameError
from games import table as tables
from games.base import IllegalMoveError
from games.bots import Bot, random_bot
from games.table import Status
from service.application import play
from service.application.errors import ProblemError
from service.application.play import Caller
from service.application.services import Services
from service.worker.scheduler import playing_for

log = logging.getLogger(__name__)


MAX_SEATS = 12
"""More seats than any game has: a bound on the moves of one turn of the house."""

CLOCK_SKEW_S = 2.0
"""How early a deadline job may run and still wait for its deadline: the queue keeps whole seconds, and a worker's
clock may run a little behind the server's that stamped the wait. Any earlier, it leaves the wait to its own job."""


def secret_rng() -> random.Random:
    """A generator for a choice made for a seat, seeded from the system's secret entropy: a bot's card,
    bullet or aim must not be something a player could recompute from what the game shows."""
    return random.Random(secrets.randbits(256))


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


class House:
    def __init__(
        self,
        services: Services,
        stall_s: float = 10.0,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.services = services
        self.repository = services.repository
        self.stall_s = stall_s
        self.clock = clock
        self.sleep = sleep

    def play_bots(self, game_id: str) -> str:
        """The bots' turn: each seat the house plays that the game awaits moves, once, as its bot decides from what
        the seat may see; then the game's next turn of the house is queued, if it needs one."""
        scheduler = self.services.scheduler
        played: set[int] = set()
        moved = 0
        with playing_for(game_id):
            for _ in range(3 * MAX_SEATS):  # a move that loses a race is decided again, a few times at most
                game = self.repository.get(game_id)
                table = game.table
                if table.status is not Status.IN_PROGRESS:
                    break
                due = [s for s in sorted(game.ruleset.awaiting(table.rules)) if tables.house_plays(table, s)]
                seat = next((s for s in due if s not in played), None)
                if seat is None:
                    break
                bot = game.ruleset.bots.get(tables.bot_of(table, seat), random_bot)
                view = tables.plain_view(game.ruleset, table, seat, house=True)  # what the seat may see, nothing more
                move = choose(bot, view, secret_rng())
                key = f"bot-{table.version}-{seat}"
                if self._move(game_id, Caller(seat=seat, by="bot"), move, key, table.version, game) == "moved":
                    played.add(seat)
                    moved += 1
        if scheduler is not None:  # the next turn of the house, once this one's moves are in
            game = self.repository.get(game_id)
            if game.table.status is Status.IN_PROGRESS and any(
                tables.house_plays(game.table, s) for s in game.ruleset.awaiting(game.table.rules)
            ):
                scheduler.bots_turn(game.table)
        return f"played for {moved} seats" if moved else "moved on"

    def expire(self, game_id: str, wait_since: int) -> str:
        """A deadline passed: the game's own rule for lateness, else a random move for each awaited seat."""
        game = self.repository.get(game_id)
        early = self._before_deadline(game) if game.table.wait_since == wait_since else 0.0
        if early > CLOCK_SKEW_S:
            return "not due"  # its job is set for the deadline (and the sweep requeues one lost)
        if early > 0:
            self.sleep(early)  # a seat may move until its deadline, to the millisecond
            game = self.repository.get(game_id)
        try:
            own_rule = tables.timeout(game.ruleset, game.table, wait_since)
        except IllegalMoveError:
            return "moved on"
        if own_rule is not None:
            play.close_wait(self.services, game_id, wait_since)
            return "timed out"
        played = 0
        for seat in game.ruleset.awaiting(game.table.rules):
            current = self.repository.get(game_id)
            if current.table.wait_since != wait_since or seat not in current.ruleset.awaiting(current.table.rules):
                continue
            view = tables.plain_view(current.ruleset, current.table, seat, house=True)
            move = random_bot(view, secret_rng())
            caller = Caller(seat=seat, by="deadline")
            played += self._move(game_id, caller, move, f"deadline-{wait_since}-{seat}", None, current) == "moved"
        return f"played for {played} seats"

    def tally(self, game_id: str) -> str:
        """Record the final tally of a finished game, once."""
        game = self.repository.get(game_id)
        if game.table.status is not Status.FINISHED:
            return "not finished"
        play.tally_game(self.services, game_id)
        return "tallied"

    def _move(
        self,
        game_id: str,
        caller: Caller,
        move: dict[str, Any],
        key: str,
        version: int | None,
        game: Game | None = None,
    ) -> str:
        try:
            play.make_move(self.services, game_id, caller, move, if_match=version, idempotency_key=key, loaded=game)
        except (IllegalMoveError, ProblemError, NoSuchGameError):
            return "moved on"  # someone else's move landed first: the job is done
        return "moved"

    def sweep(self) -> int:
        """Enqueue again whatever an active game has waited on too long and has no live job for; the number of
        jobs enqueued."""
        projections, scheduler = self.services.projections, self.services.scheduler
        assert projections is not None and scheduler is not None, "the house works with a deployment's queue"
        requeued = 0
        for game_id in projections.lobby.active():
            game = self.repository.get(game_id)
            if self._needs_help(game):
                requeued += scheduler.rescue(game.ruleset, game.table)
        return requeued

    def _needs_help(self, game: Game) -> bool:
        """A game untallied, or idle past the stall time (or past its deadline) while it waits."""
        table = game.table
        if table.status is Status.FINISHED:
            return not table.tallied
        if table.status is not Status.IN_PROGRESS:
            return False
        idle = self.clock() - self._time_of(game, table.version)
        limit = tables.time_limit(game.ruleset, table)
        awaits_bot = any(tables.house_plays(table, s) for s in game.ruleset.awaiting(table.rules))
        started = datetime.fromisoformat(table.wait_started_at).timestamp()
        overdue = limit is not None and self.clock() - started > limit + 1
        return (awaits_bot and idle > self.stall_s) or overdue

    def _before_deadline(self, game: Game) -> float:
        """Seconds until the current wait's deadline; 0 once it has passed, or without one."""
        due = tables.deadline_at(game.ruleset, game.table)
        return 0.0 if due is None else max(0.0, datetime.fromisoformat(due).timestamp() - self.clock())

    def _time_of(self, game: Game, version: int) -> float:
        [envelope] = self.repository.log(game.game_id, after=version - 1, limit=1)
        return datetime.fromisoformat(envelope.at).timestamp()
