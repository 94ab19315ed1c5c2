"""A table's life beyond moves: leaving before the start, resigning during play, aborting, a rematch.

Pure decisions, like the rules: each checks who asks and when, and returns the table events that say what
happened (games/table.py evolves them). The service records each with its command, so the audit replays them
like any move.
"""

from __future__ import annotations

from typing import Any

from games import table as tables
from games.base import Event, IllegalMoveError, Refusal, Ruleset
from games.refusals import TableRefusal
from games.table import BotsSeated, GameAborted, RematchCreated, Seat, SeatLeft, SeatResigned, Status, Table

FILLING_BOT = "smart"
"""The bot the house seats in a game's open seats: its own, never one a player picks for the others."""


class LifecycleRefusal(Refusal):
    """What a table's life refuses beyond the table's own refusals."""

    ALREADY_RESIGNED = "already_resigned", "a second resignation of a seat"
    NOT_CREATOR = "not_creator", "an abort by anyone but the creator"
    REMATCH_EXISTS = "rematch_exists", "the game has its rematch already"
    BOTS_NOT_OFFERED = (
        "bots_not_offered",
        "a start with bots asked by a seat of a game without `bots_after_s` (only its creator may there)",
    )


def _not_over(table: Table[Any]) -> None:
    if table.status is Status.ABORTED:
        raise IllegalMoveError(TableRefusal.GAME_ABORTED, "this game was aborted")
    if table.status is Status.FINISHED:
        raise IllegalMoveError(TableRefusal.GAME_FINISHED, "the game is over")


def _held(table: Table[Any], seat: int) -> None:
    if not 0 <= seat < len(table.seats) or table.seats[seat].name is None:
        raise IllegalMoveError(TableRefusal.NO_SUCH_SEAT, "no player holds this seat")


def leave(table: Table[Any], seat: int) -> list[Event]:
    """A seat's holder leaves a game that has not started: the seat opens again."""
    _not_over(table)
    if table.status is not Status.WAITING:
        raise IllegalMoveError(TableRefusal.GAME_ALREADY_STARTED, "the game has started: resign instead")
    _held(table, seat)
    return [SeatLeft(seat=seat)]


def resign(table: Table[Any], seat: int) -> list[Event]:
    """A seat gives up during play: from now on the random bot plays it."""
    _not_over(table)
    if table.status is not Status.IN_PROGRESS:
        raise IllegalMoveError(TableRefusal.GAME_NOT_STARTED, "the game has not started: leave it instead")
    _held(table, seat)
    if seat in table.resigned:
        raise IllegalMoveError(LifecycleRefusal.ALREADY_RESIGNED, "this seat has resigned already")
    return [SeatResigned(seat=seat)]


def abort(table: Table[Any], seat: int | None, player: str | None) -> list[Event]:
    """The creator calls off a game that has not started: the creating player, or a seat named at creation
    (whose token the creator was handed) and held by it still."""
    _not_over(table)
    if table.status is not Status.WAITING:
        raise IllegalMoveError(TableRefusal.GAME_ALREADY_STARTED, "a game that has started is played out (or resigned)")
    by_player = player is not None and player == table.creator
    if not by_player and seat not in table.founders:
        raise IllegalMoveError(LifecycleRefusal.NOT_CREATOR, "only the game's creator may abort it")
    return [GameAborted(seat=seat, player=player if by_player else None)]


def start_with_bots(
    ruleset: Ruleset[Any], table: Table[Any], seat: int | None, player: str | None, wait_since: int | None
) -> list[Event]:
    """The house's bots take the open seats and the game starts: asked for by a seated player of a game that
    offers it (`bots_after_s`), or by its creator (as for an abort); or, `wait_since` given, by the house when
    `bots_after_s` has passed since that version (the service keeps the clock; a join or leave since starts the
    wait again, and the house's late request then does nothing). A game nobody sits at any more is called off
    instead: bots would play it for no one."""
    _not_over(table)
    if table.status is not Status.WAITING:
        raise IllegalMoveError(TableRefusal.GAME_ALREADY_STARTED, "the game has started")
    offered = table.options.get("bots_after_s") is not None
    if wait_since is not None:
        if not offered or table.wait_since != wait_since:
            raise IllegalMoveError(TableRefusal.WAIT_OVER, "the game is no longer waiting since that version")
        if not any(s.name is not None for s in table.seats):
            return [GameAborted()]
    else:
        creator = (player is not None and player == table.creator) or seat in table.founders
        if seat is not None:
            _held(table, seat)
        if not creator and not (offered and seat is not None):
            raise IllegalMoveError(
                LifecycleRefusal.BOTS_NOT_OFFERED, "this game starts with bots only if its creator asks"
            )
    seated = BotsSeated(seats=tuple(i for i, s in enumerate(table.seats) if s.is_open), bot=FILLING_BOT)
    return [seated, *tables.start_if_full(ruleset, tables.evolve(ruleset, table, seated))]


def rematch(table: Table[Any], seat: int, game_id: str) -> list[Event]:
    """A seat of a finished game asks for a rematch: the new game's id, recorded once."""
    if table.status is Status.ABORTED:
        raise IllegalMoveError(TableRefusal.GAME_ABORTED, "this game was aborted: create a new one")
    if table.status is not Status.FINISHED:
        raise IllegalMoveError(TableRefusal.GAME_NOT_FINISHED, "a rematch follows a finished game")
    if table.rematch is not None:
        raise IllegalMoveError(LifecycleRefusal.REMATCH_EXISTS, f"this game's rematch is game {table.rematch}")
    _held(table, seat)
    return [RematchCreated(game_id=game_id, seat=seat)]


def rematch_seats(table: Table[Any], asker: int) -> list[Seat]:
    """The seats of a rematch asked for by seat `asker`: bots kept; the asker seated again, and the seats named at
    creation if the asker is the creating player (it was handed their tokens); every other registered player
    invited, its seat kept for it until it joins; any other anonymous seat kept for whoever holds its token in this
    game, until a join shows it.

    Nobody but the asker is seated without saying so: a player seated by another's request would play under a
    deadline it accepted for one game only, its absent turns played by the house and rated. Nor is an anonymous
    asker taken for the creator: the creator hands out the tokens of the seats it named, so any of them may be
    someone else, who must not be given the others' tokens and see their hands."""
    creating_player = table.creator is not None and table.seats[asker].player == table.creator

    def again(seat: int, held: Seat) -> Seat:
        if held.bot or seat == asker or (creating_player and seat in table.founders):
            return Seat(name=held.name, bot=held.bot, player=held.player)
        if held.player is None and held.name is not None:
            return Seat(kept_for=seat)  # an anonymous holder: kept for whoever shows this seat's token
        return Seat(invited=held.player)

    return [again(seat, held) for seat, held in enumerate(table.seats)]
