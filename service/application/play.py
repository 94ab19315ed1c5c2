"""The use cases of play: create a game, take a seat in it, move.

Each says who asks and what, and acts through service/application/execute.py: the game is loaded, the rules decide
(games/commands.py), and the decision is saved in one step with the game's documents (every view, the result),
decided again if another landed first; then the read models and the job queue are told.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from events.repository import Decision, Game
from events.store import LiveToken, TokenNotLiveError
from games import table as tables
from games.commands import Command, CreateGame, JoinGame, MakeMove, Setup
from games.refusals import SetupError, SetupRefusal
from games.table import Status
from players.state import Player
from service.application import accounts, admission
from service.application.callers import Caller, claimed_seat, live_token, player_of, seat_of
from service.application.errors import InvalidRequestError, InvalidTokenError, PublicRandomnessNotAcceptedError
from service.application.execute import Acted, Idempotent, create, execute
from service.application.offered import ruleset_named
from service.application.queries import moved_by
from service.application.redaction import feed_item
from service.application.services import Services


class Answer(msgspec.Struct):
    """A move's answer, as the API shows it: the game's version after it, the events it made as the mover may see
    them, and the mover's view (as stored with the move)."""

    version: int
    events: list[dict[str, Any]]
    game: msgspec.Raw


@dataclass(frozen=True)
class Moved:
    """What a move answers: the game's version after it, the mover's seat, and the answer's JSON (`Answer`), as kept
    for its idempotency key, so that a retry with the same key and body gets it byte for byte."""

    version: int
    seat: int
    document: bytes

    @classmethod
    def of(cls, document: bytes) -> Moved:
        version, seat = moved_by(document)
        assert seat is not None, "a move is a seat's"
        return cls(version, seat, document)


class NoMatchError(Exception):
    """The game is not what the caller asked for (a quick match's conditions)."""


def seat_list(seats: list[dict[str, Any]], creator: Player | None) -> list[tables.Seat]:
    """The seats asked for; `{"player": "me"}` is the creating player's own seat, once."""
    if any(s.get("player") for s in seats) and creator is None:
        raise InvalidTokenError('a seat {"player": "me"} needs the creator\'s player token')
    if sum(1 for s in seats if s.get("player")) > 1:
        raise SetupError(SetupRefusal.INVALID_SEATS, 'a player takes one seat of a game: {"player": "me"} appears once')
    if creator is None:
        return [tables.Seat(name=s.get("name"), bot=s.get("bot")) for s in seats]
    mine = tables.Seat(name=creator.name, player=creator.player_id)
    return [mine if s.get("player") else tables.Seat(name=s.get("name"), bot=s.get("bot")) for s in seats]


def create_game(
    services: Services,
    ruleset_id: str,
    seats: list[dict[str, Any]],
    options: dict[str, Any],
    seed: int | None,
    creator: Player | None = None,
    holder: str | None = None,
) -> Acted:
    """A new game, and the token of each anonymous human seat (handed out once, `Acted.handed`); a player's seat
    needs none. `holder`: the client that holds it from now on (see service/application/admission.py)."""
    return new_game(services, ruleset_id, seat_list(seats, creator), options, seed, creator, holder=holder)


def new_game(
    services: Services,
    ruleset_id: str,
    seats: list[tables.Seat],
    options: Mapping[str, Any],
    seed: int | None,
    creator: Player | None = None,
    game_id: str | None = None,
    rematch_of: str | None = None,
    holder: str | None = None,
) -> Acted:
    """A new game of these seats (`game_id`: one chosen already, for a rematch), held by `holder`; refused while the
    holder holds as many unfinished games as it may, or while the house is too far behind to play it."""
    ruleset = ruleset_named(ruleset_id)
    admission.check_holdings(services.holdings, services.limits, holder)
    admission.admit(services.jobs, services.limits, all(s.bot is not None for s in seats))
    entropy = services.entropy
    # A seed the service draws stays secret behind a random salt; a seed the creator gives reproduces the game,
    # unsalted, and the game's views say its randomness is public.
    setup = Setup(
        game_id=game_id or entropy.hex(8),
        seats=tuple(seats),
        options=dict(options),
        seed=entropy.bits(53) if seed is None else seed,
        salt=entropy.hex(16) if seed is None else "",
        created_at=services.clock(),
        creator=creator.player_id if creator else None,
        rematch_of=rematch_of,
    )
    acted = create(services, ruleset, CreateGame(setup=setup))
    if holder is not None:
        services.holdings.hold(holder, [setup.game_id])
    return acted


def join_game(
    services: Services,
    game_id: str,
    name: str | None,
    player: Player | None = None,
    accepts_public_randomness: bool = False,
    fits: Callable[[tables.Table[Any]], bool] | None = None,
    holder: str | None = None,
    rejoin_token: str | None = None,
) -> tuple[Acted, int]:
    """The caller takes the first open seat (a player, the seat kept for it), and the seat's number; an anonymous
    caller's seat token is handed out once (`Acted.handed`), a player's own token acts for the seat. A game whose
    randomness is public (its creator chose the seed, and can compute every hand) seats only a caller who says it
    accepts that. `fits`: what the game must be for this caller (a quick match's conditions), checked on the game
    as it is when the seat is taken; NoMatchError if it is not. `holder`: the client that holds the game from now
    on. `rejoin_token`: a seat token of the game this one replays, whose holder takes the seat the rematch keeps
    for it, under the name it had there."""
    if rejoin_token is not None:
        token = rejoin_token

        def command(game: Game) -> JoinGame:
            return _rejoining(services, game, token)
    else:
        if player is None and name is None:
            raise InvalidRequestError("join with a name, or with a player token")
        if player is not None and name is not None:
            raise InvalidRequestError("a player joins under its own name: leave out `name` with a player token")
        shown = player.name if player else name
        assert shown is not None

        def command(game: Game) -> JoinGame:
            return JoinGame(player=shown, player_id=player.player_id if player else None)

    admission.check_holdings(services.holdings, services.limits, holder)

    def ask(game: Game, _: int | None) -> Command:
        if fits is not None and not fits(game.table):
            raise NoMatchError(game_id)
        accepted(game.table, accepts_public_randomness)
        return command(game)

    acted = execute(services, game_id, lambda _: None, ask)
    if holder is not None:
        services.holdings.hold(holder, [game_id])
    assert acted.decision is not None
    seat: int = acted.decision.events[0].seat  # type: ignore[attr-defined]
    return acted, seat


def accepted(table: tables.Table[Any], accepts_public_randomness: bool) -> None:
    """A waiting game whose randomness is public seats only a joiner that says it accepts that."""
    if table.status is Status.WAITING and tables.randomness(table) == "public" and not accepts_public_randomness:
        raise PublicRandomnessNotAcceptedError(
            "this game's creator chose its seed, so it can compute every hand and draw: join with "
            '"accept_public_randomness": true to play it anyway (it is not rated)'
        )


def _rejoining(services: Services, game: Game, token: str) -> JoinGame:
    """The join of the holder of a seat of the game this one replays: the seat kept for it, under its old name."""
    replayed = game.table.rematch_of
    if replayed is None:
        raise InvalidTokenError("this game replays no other: a seat token opens only its own game")
    before = services.repository.get(replayed)
    seat = seat_of(services, before, token)
    assert seat is not None
    name = before.table.seats[seat].name
    assert name is not None, "a seat token is of a seat held under a name"
    return JoinGame(player=name, rejoin=seat)


def make_move(
    services: Services,
    game_id: str,
    caller: Caller,
    body: dict[str, Any],
    if_match: int | None = None,
    idempotency_key: str | None = None,
    loaded: Game | None = None,
) -> Moved:
    """Apply the caller's move. A retry with the same idempotency key and body gets the first answer (`loaded`:
    the game as the caller just read it, for the first attempt; the save still finds a first answer).

    A player's token this process has seen live is checked again by the save itself, where the store can
    (`live_token`): a move then costs a player no round trip more than a seat. Anything else such a move is answered
    (a refusal, a first answer given again) waits for the token to be checked by a read, so that a token no longer
    live learns nothing from it; one found so is forgotten, and read first from then on."""
    token = live_token(services, caller)
    if token is None:
        player = player_of(services, caller.token, caller.player)  # once, not on every attempt
        return _move(services, game_id, caller, body, if_match, idempotency_key, loaded, player)[0]
    try:
        moved, saved = _move(services, game_id, caller, body, if_match, idempotency_key, loaded, None, token)
    except TokenNotLiveError:
        accounts.vouched.forget(token.digest)
        raise InvalidTokenError("this player token is unknown or revoked") from None
    except Exception:
        player_of(services, caller.token)
        raise
    if not saved:
        player_of(services, caller.token)
    return moved


def _move(
    services: Services,
    game_id: str,
    caller: Caller,
    body: dict[str, Any],
    if_match: int | None,
    idempotency_key: str | None,
    loaded: Game | None,
    player: Player | None,
    token: LiveToken | None = None,
) -> tuple[Moved, bool]:
    """The move, by a player read already (`player`) or by a token the save checks (`token`); and whether it was
    saved now (not a first answer given again)."""

    def authorise(game: Game) -> int | None:
        if caller.token is None:
            return caller.seat
        if token is not None:
            seat = claimed_seat(game, caller.token)
            if seat is None:
                raise InvalidTokenError("this token holds no seat in this game")
            return seat
        return seat_of(services, game, caller.token, player)

    def ask(game: Game, seat: int | None) -> Command:
        assert seat is not None
        move = game.ruleset.parse_move(body)
        return MakeMove(seat=seat, move=msgspec.to_builtins(move), by=caller.by)

    idempotent = Idempotent.of(caller.key, idempotency_key, body) if idempotency_key else None
    acted = execute(
        services,
        game_id,
        authorise,
        ask,
        timed=True,
        if_match=if_match,
        idempotent=idempotent,
        answer=move_answer,
        loaded=loaded,
        token=token,
    )
    assert acted.answer is not None
    return Moved.of(acted.answer), acted.decision is not None


def move_answer(decision: Decision, acted: Acted) -> bytes:
    """A move's answer as kept for its idempotency key: built around the mover's view, encoded once."""
    after = decision.after
    seat = decision.command.seat  # type: ignore[attr-defined]
    items = [
        feed_item(after.ruleset, after.table, envelope, seat, event)
        for envelope, event in zip(decision.envelopes, decision.events, strict=True)
    ]
    return msgspec.json.encode(Answer(after.version, items, msgspec.Raw(acted.view(seat))))
