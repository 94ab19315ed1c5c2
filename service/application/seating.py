"""The use cases of a seat's life outside its moves: leave, resign, abort, rematch, and the quick match.

Each decides with games/lifecycle.py and saves like a move (decided again if another decision lands first),
so each is an event of the game's log with its command, audited and replayed like any move. A rematch and a
quick match touch two games or a game and the lobby: each step is its own write, and safe to repeat.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from events.repository import Game, NoSuchGameError, seal
from events.store import StaleVersionError
from games import lifecycle
from games import table as tables
from games.base import Event, IllegalMoveError
from games.commands import AbortGame, Command, CreateRematch, LeaveGame, ResignGame
from games.registry import RULESETS
from games.table import SetupError
from players.state import Player
from service.application.errors import InvalidTokenError
from service.application.play import (
    MAX_ATTEMPTS,
    NoMatchError,
    Saved,
    create_game,
    join_game,
    new_game,
    player_of,
    save,
    seat_of,
    too_busy,
)
from service.application.services import Services

Decide = Callable[[Game, int | None, Player | None], tuple[list[Event], Command]]


def _caller(services: Services, token: str | None) -> tuple[str, Player | None]:
    """The caller's token, and its player if it is a player token; 401 without a token."""
    if token is None:
        raise InvalidTokenError("send the seat's token or the player's token")
    return token, player_of(services, token)


def _act(
    services: Services, game_id: str, caller: tuple[str, Player | None], decide: Decide, needs_seat: bool = True
) -> Saved:
    """Decide for the caller (its token, its player) on the current game, and save; again if another landed."""
    token, player = caller
    for _ in range(MAX_ATTEMPTS):
        game = services.repository.get(game_id)
        try:
            seat = seat_of(services, game, token, player)
        except InvalidTokenError:
            if needs_seat or player is None:
                raise
            seat = None
        events, command = decide(game, seat, player)
        decision = seal(game.ruleset, game, events, command, seat, services.clock())
        left = tuple(e.seat for e in events if isinstance(e, tables.SeatLeft))
        try:
            return save(services, decision, revoked=left)
        except StaleVersionError:
            continue
    raise too_busy()


def leave_game(services: Services, game_id: str, token: str | None) -> Saved:
    """The caller leaves a game that has not started: its seat opens again and its seat token is void."""

    def decide(game: Game, seat: int | None, _: Player | None) -> tuple[list[Event], Command]:
        assert seat is not None
        return lifecycle.leave(game.table, seat), LeaveGame(seat=seat)

    return _act(services, game_id, _caller(services, token), decide)


def resign_game(services: Services, game_id: str, token: str | None) -> Saved:
    """The caller gives up: the random bot plays its seat to the end, and it ranks last for ratings."""

    def decide(game: Game, seat: int | None, _: Player | None) -> tuple[list[Event], Command]:
        assert seat is not None
        return lifecycle.resign(game.table, seat), ResignGame(seat=seat)

    return _act(services, game_id, _caller(services, token), decide)


def abort_game(services: Services, game_id: str, token: str | None) -> Saved:
    """The creator calls off a game that has not started."""

    def decide(game: Game, seat: int | None, player: Player | None) -> tuple[list[Event], Command]:
        player_id = player.player_id if player else None
        events = lifecycle.abort(game.table, seat, player_id)
        return events, AbortGame(seat=seat, player_id=events[0].player)  # type: ignore[attr-defined]

    return _act(services, game_id, _caller(services, token), decide, needs_seat=False)


def rematch_game(
    services: Services, game_id: str, token: str | None, holder: str | None = None
) -> tuple[Saved, dict[int, str]]:
    """A new game with the same seats and options; the old game's log names it (`rematch_created`), once.
    The id is recorded first, then the game created: a request that finds the id recorded but no game
    (a crash between the two) creates it."""
    caller = _caller(services, token)
    token, player = caller
    game = services.repository.get(game_id)
    seat = seat_of(services, game, token, player)
    assert seat is not None  # a token of no seat is refused
    if game.table.rematch is None:
        new_id = secrets.token_hex(8)

        def decide(game: Game, seat: int | None, _: Player | None) -> tuple[list[Event], Command]:
            assert seat is not None
            return lifecycle.rematch(game.table, seat, new_id), CreateRematch(seat=seat, game_id=new_id)

        game = _act(services, game_id, caller, decide).game
    rematch = game.table.rematch
    assert rematch is not None
    try:
        services.repository.get(rematch)
    except NoSuchGameError:
        seats = lifecycle.rematch_seats(game.table, seat)
        return new_game(services, game.ruleset.id, seats, game.table.options, None, player, rematch, game_id, holder)
    raise IllegalMoveError("rematch_exists", f"this game's rematch is game {rematch}")


def quick_match(
    services: Services, ruleset_id: str, seat_count: int, player: Player, options: dict[str, Any] | None = None
) -> tuple[Saved, int, bool]:
    """Seat the player in the oldest waiting game it can trust that has room for it, or create one; whether it was
    created. A game it can trust: of the ruleset and seat count, with the options asked for (the defaults, unless
    the caller names others), randomness the service drew and keeps secret, and every seat taken held by a bot or
    a registered player (no one holds several anonymous seats' tokens). One quick match per ruleset and seat
    count picks at a time, so two never both create a game the other could have joined."""
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is None:
        raise SetupError("unknown_ruleset", f"no ruleset {ruleset_id!r}; see GET /v1/rulesets")
    if not ruleset.min_seats <= seat_count <= ruleset.max_seats:
        raise SetupError("invalid_seat_count", f"{ruleset.name} takes {ruleset.min_seats} to {ruleset.max_seats}")
    wanted = tables.resolve_options(ruleset, options or {}, seat_count)
    holder = f"player:{player.player_id}"
    assert services.projections is not None, "the lobby is kept by the deployment's projections"
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
                saved, seat, _ = join_game(services, entry["game_id"], None, player, fits=fits, holder=holder)
            except (IllegalMoveError, NoSuchGameError, NoMatchError):
                continue  # the lobby was behind: filled, aborted or gone meanwhile
            return saved, seat, False
        seats = [{"player": "me"}] + [{"open": True}] * (seat_count - 1)
        saved, _ = create_game(services, ruleset_id, seats, wanted, None, player, holder)
        return saved, 0, True


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
