"""The use cases of a seat's life outside its moves: leave, resign, abort, rematch, the quick match, and the
decisions the house passes for a seat.

Each acts like a move, through service/application/execute.py (its decision in games/commands.py, from
games/lifecycle.py), so each is an event of the game's log with its command, audited and replayed like any move.
A rematch and a quick match touch two games or a game and the lobby: each step is its own write, and safe to repeat.
"""

from __future__ import annotations

from typing import Any

from events.repository import Game, NoSuchGameError
from games import lifecycle
from games import table as tables
from games.base import IllegalMoveError
from games.commands import AbortGame, Command, CreateRematch, LeaveGame, ResignGame, SetAutoPass, StartWithBots
from games.lifecycle import LifecycleRefusal
from games.refusals import SetupError, SetupRefusal
from players.state import Player
from service.application.callers import player_of, seat_of
from service.application.errors import InvalidTokenError
from service.application.execute import Acted, Ask, execute, no_seat, too_busy
from service.application.offered import ruleset_named
from service.application.play import NoMatchError, create_game, join_game, new_game
from service.application.services import Services


def _act(
    services: Services, game_id: str, token: str | None, ask: Ask, needs_seat: bool = True, player: Player | None = None
) -> Acted:
    """Act for the caller, by its token: its seat's request (or, `needs_seat` false, its player's, seat or none).
    `player`: the token's, when the caller knows it already."""
    if token is None:
        raise InvalidTokenError("send the seat's token or the player's token")
    player = player or player_of(services, token)

    def authorise(game: Game) -> int | None:
        try:
            return seat_of(services, game, token, player)
        except InvalidTokenError:
            if needs_seat or player is None:
                raise
            return None

    return execute(services, game_id, authorise, ask)


def leave_game(services: Services, game_id: str, token: str | None) -> Acted:
    """The caller leaves a game that has not started: its seat opens again and its seat token is void."""
    return _act(services, game_id, token, lambda _, seat: LeaveGame(seat=_held(seat)))


def resign_game(services: Services, game_id: str, token: str | None) -> Acted:
    """The caller gives up: the random bot plays its seat to the end, and it ranks last for ratings."""
    return _act(services, game_id, token, lambda _, seat: ResignGame(seat=_held(seat)))


def set_auto_pass(services: Services, game_id: str, token: str | None, decisions: list[str]) -> Acted:
    """The caller's choice of the decisions the house passes for its seat, at once and whatever the seat holds."""
    return _act(services, game_id, token, lambda _, seat: SetAutoPass(seat=_held(seat), decisions=tuple(decisions)))


def abort_game(services: Services, game_id: str, token: str | None) -> Acted:
    """The creator calls off a game that has not started: the creating player, or a seat named at creation."""
    player = player_of(services, token) if token is not None else None

    def ask(game: Game, seat: int | None) -> Command:
        creator = player is not None and player.player_id == game.table.creator
        return AbortGame(seat=seat, player_id=player.player_id if creator and player else None)

    return _act(services, game_id, token, ask, needs_seat=False, player=player)


def start_with_bots(services: Services, game_id: str, token: str | None) -> Acted:
    """The house's bots take the open seats and the game starts, asked for by a seated player of a game that offers
    it (`bots_after_s`) or by its creator (games/lifecycle.py `start_with_bots`)."""
    player = player_of(services, token) if token is not None else None

    def ask(game: Game, seat: int | None) -> Command:
        creator = player is not None and player.player_id == game.table.creator
        return StartWithBots(seat=seat, player_id=player.player_id if creator and player else None)

    return _act(services, game_id, token, ask, needs_seat=False, player=player)


def seat_bots_when_due(services: Services, game_id: str, wait_since: int) -> Acted:
    """The house's bots take the open seats of a game whose `bots_after_s` passed since `wait_since` (the house
    checks the clock first)."""
    return execute(services, game_id, no_seat, lambda _, __: StartWithBots(wait_since=wait_since))


def _held(seat: int | None) -> int:
    assert seat is not None, "a token of no seat is refused"
    return seat


REMATCH_WINDOW_S = 120
"""How long a rematch keeps its seats for the old game's people, unless the old game waited for players less long
(its `bots_after_s`): then the house's bots take the seats nobody took, and the asker is not left waiting."""


def rematch_game(services: Services, game_id: str, token: str | None, holder: str | None = None) -> Acted:
    """A new game with the same seats and options (with seats kept for others, a `bots_after_s` of
    `REMATCH_WINDOW_S` if it had none); the old game's log names it (`rematch_created`), once.
    The id is recorded first, then the game created: a request that finds the id recorded but no game
    (a crash between the two) creates it."""
    if token is None:
        raise InvalidTokenError("send the seat's token or the player's token")
    player = player_of(services, token)
    game = services.repository.get(game_id)
    seat = _held(seat_of(services, game, token, player))
    if game.table.rematch is None:
        new_id = services.entropy.hex(8)
        game = _act(
            services, game_id, token, lambda _, s: CreateRematch(seat=_held(s), game_id=new_id), player=player
        ).game
    rematch = game.table.rematch
    assert rematch is not None
    try:
        services.repository.get(rematch)
    except NoSuchGameError:
        seats = lifecycle.rematch_seats(game.table, seat)
        options = {**game.table.options}
        if options.get("bots_after_s") is None and any(s.is_open for s in seats):
            options["bots_after_s"] = REMATCH_WINDOW_S  # seats kept for the others: how long they are kept
        return new_game(services, game.ruleset.id, seats, options, None, player, rematch, game_id, holder)
    raise IllegalMoveError(LifecycleRefusal.REMATCH_EXISTS, f"this game's rematch is game {rematch}")


QUICK_MATCH_OPTIONS: dict[str, Any] = {"move_deadline_s": 60, "bots_after_s": 30}
"""What a quick match asks of its game unless the caller names other values: nobody waits for long, neither for an
absent player's move nor for a table to fill (the house's bots take the seats nobody took)."""


def quick_match(
    services: Services, ruleset_id: str, seat_count: int, player: Player, options: dict[str, Any] | None = None
) -> tuple[Acted, int, bool]:
    """Seat the player in the oldest waiting game it can trust that has room for it, or create one; whether it was
    created. A game it can trust: of the ruleset and seat count, with the options asked for (the ruleset's defaults
    and `QUICK_MATCH_OPTIONS`, unless the caller names others), randomness the service drew and keeps secret, and
    every seat taken held by a bot or a registered player (no one holds several anonymous seats' tokens). One quick
    match per ruleset and seat count picks at a time, so two never both create a game the other could have
    joined."""
    ruleset = ruleset_named(ruleset_id)
    if not ruleset.min_seats <= seat_count <= ruleset.max_seats:
        raise SetupError(
            SetupRefusal.INVALID_SEAT_COUNT, f"{ruleset.name} takes {ruleset.min_seats} to {ruleset.max_seats}"
        )
    wanted = tables.resolve_options(ruleset, {**QUICK_MATCH_OPTIONS, **(options or {})}, seat_count)
    holder = f"player:{player.player_id}"
    lobby = services.projections.lobby

    def fits(table: tables.Table[Any]) -> bool:
        return trusted_match(table, seat_count, wanted, player.player_id)

    with lobby.quick_match_lock(ruleset_id, seat_count) as held:
        if not held:
            raise too_busy()
        for entry in lobby.waiting(ruleset_id):
            # The lobby's summary rules out most games at once; the game itself is checked as the seat is taken.
            if len(entry["seats"]) != seat_count or entry.get("options") != wanted or not entry["open_seats"]:
                continue
            try:
                joined, seat = join_game(services, entry["game_id"], None, player, fits=fits, holder=holder)
            except (IllegalMoveError, NoSuchGameError, NoMatchError):
                continue  # the lobby was behind: filled, aborted or gone meanwhile
            return joined, seat, False
        seats = [{"player": "me"}] + [{"open": True}] * (seat_count - 1)
        return create_game(services, ruleset_id, seats, wanted, None, player, holder), 0, True


def trusted_match(table: tables.Table[Any], seat_count: int, options: dict[str, Any], player: str) -> bool:
    """Whether a quick match may seat `player` at this waiting table: see `quick_match`."""
    return (
        table.status is tables.Status.WAITING
        and len(table.seats) == seat_count
        and table.options == options
        and tables.randomness(table) == "secret"
        and all(s.is_open or s.bot or s.player for s in table.seats)
        and all(s.player != player for s in table.seats)
        and any(s.takes(player) for s in table.seats)
    )
