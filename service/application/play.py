"""The use cases that change a game: create, join, move, close a wait, tally.

Each loads the game, asks the rules, seals what they decided, and saves it in one step with the game's own
read models (every viewer's view, the result); then it tells the lobby, the leaderboard and the scheduler.
When another decision lands first, it decides again on the new state.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec

from events.replication import NotReplicatedError
from events.repository import Decision, Game, seal
from events.store import AnswerKey, DuplicateRequestError, StaleVersionError
from games import table as tables
from games.base import Event, IllegalMoveError
from games.commands import CloseWait, Command, CreateGame, JoinGame, MakeMove, TallyGame
from games.registry import RULESETS
from games.table import SetupError
from players.state import Player
from projections import game_models
from projections.views import field_of
from service.application import accounts, admission, tokens
from service.application.errors import ConflictError, InvalidRequestError, InvalidTokenError, VersionMismatchError
from service.application.redaction import feed_item
from service.application.services import Services
from service.observability import metrics

MAX_ATTEMPTS = 5
"""Times a decision is made again when another lands first."""

encode = msgspec.json.Encoder().encode


@dataclass(frozen=True)
class Caller:
    """Who sends a move: a player with a seat token, or the house playing a seat (`by` a bot or a deadline)."""

    token: str | None = None
    seat: int | None = None
    by: str | None = None

    @property
    def key(self) -> str:
        """Whose idempotency keys these are."""
        return tokens.digest(self.token)[:32] if self.token is not None else f"house-{self.seat}"


@dataclass(frozen=True)
class Saved:
    """A saved decision and the views it left, encoded by viewer (`spectator`, `0`, `1`, …)."""

    decision: Decision
    views: Mapping[str, bytes]

    @property
    def game(self) -> Game:
        return self.decision.after


def seat_of(services: Services, game: Game, token: str | None, player: Player | None = None) -> int | None:
    """The caller's seat, None for a spectator; InvalidTokenError for a token of no seat. A player token
    acts for the seat its player holds (`player`: the token's, when the caller knows it already)."""
    if token is None:
        return None
    if accounts.is_player_token(token):
        player = player or accounts.authenticate(services, token)
        seat = next((i for i, s in enumerate(game.table.seats) if s.player == player.player_id), None)
    else:
        seat = tokens.seat_of(token, dict(game.token_hashes))
    if seat is None:
        raise InvalidTokenError("this token holds no seat in this game")
    return seat


def seat_holder(game: Game, seat: int) -> str:
    """Who holds a seat: its player, or the hash of its seat token. A seat left and taken again has another
    holder, so what was handed to the first (a stream ticket) opens nothing of the second's."""
    player = game.table.seats[seat].player
    return f"player:{player}" if player else game.token_hashes.get(seat, "")


def player_of(services: Services, token: str | None) -> Player | None:
    """The registered player whose token this is; None for no token or a seat token."""
    return accounts.authenticate(services, token) if token is not None and accounts.is_player_token(token) else None


def account_of(services: Services, token: str | None) -> Player | None:
    """The player a new game or a join acts for: None without a token. These take only a live player token
    (a seat token belongs to its own game): any other is 401 `invalid_token`, never ignored."""
    if token is None:
        return None
    if not accounts.is_player_token(token):
        raise InvalidTokenError("only a player token creates or joins a game as someone")
    return accounts.authenticate(services, token)


def save(
    services: Services,
    decision: Decision,
    handed: Mapping[int, str] | None = None,
    answer: tuple[AnswerKey, bytes] | None = None,
    revoked: tuple[int, ...] = (),
) -> Saved:
    """Store a decision with its read models and any new seats' token hashes (a seat left has its hash
    blanked, so its old token opens nothing); then tell who follows."""
    views, result = game_models(decision.after.ruleset, decision.after.table)
    hashes = {seat: tokens.digest(token) for seat, token in (handed or {}).items()}
    hashes.update({seat: "" for seat in revoked})
    with telling_followers(services, decision):
        services.repository.save(decision, hashes, answer, views, result)
    return Saved(decision, views)


@contextmanager
def telling_followers(services: Services, decision: Decision) -> Iterator[None]:
    """Tell the followers (lobby, ratings, players, scheduler) of a decision once it is saved; also of one
    that stands on the master though its replicas did not confirm it in time: they are idempotent, and a game
    whose bot's job was not queued would wait for the sweep."""
    try:
        yield
    except NotReplicatedError:
        tell(services, decision)
        raise
    tell(services, decision)


def tell(services: Services, decision: Decision) -> None:
    for follower in services.after_save:
        follower(decision)


def seat_list(seats: list[dict[str, Any]], creator: Player | None) -> list[tables.Seat]:
    """The seats asked for; `{"player": "me"}` is the creating player's own seat, once."""
    if any(s.get("player") for s in seats) and creator is None:
        raise InvalidTokenError('a seat {"player": "me"} needs the creator\'s player token')
    if sum(1 for s in seats if s.get("player")) > 1:
        raise SetupError("invalid_seats", 'a player takes one seat of a game: {"player": "me"} appears once')
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
) -> tuple[Saved, dict[int, str]]:
    """A new game, and the token of each anonymous human seat (handed out once); a player's seat needs none.
    `holder`: the client that holds it from now on (see service/application/admission.py)."""
    return new_game(services, ruleset_id, seat_list(seats, creator), options, seed, creator, holder=holder)


def new_game(
    services: Services,
    ruleset_id: str,
    seats: list[tables.Seat],
    options: dict[str, Any],
    seed: int | None,
    creator: Player | None = None,
    game_id: str | None = None,
    rematch_of: str | None = None,
    holder: str | None = None,
) -> tuple[Saved, dict[int, str]]:
    """A new game of these seats (`game_id`: one chosen already, for a rematch), held by `holder`; refused while the
    holder holds as many unfinished games as it may, or while the house is too far behind to play it."""
    ruleset = RULESETS.get(ruleset_id)
    if ruleset is None:
        raise SetupError("unknown_ruleset", f"no ruleset {ruleset_id!r}; see GET /v1/rulesets")
    admission.check_holdings(services.holdings, services.limits, holder)
    admission.admit(services.scheduler, services.limits, all(s.bot is not None for s in seats))
    game_id = game_id or secrets.token_hex(8)
    # A seed the service draws stays secret behind a random salt; a seed the creator gives reproduces the
    # game, unsalted, and the game's views say its randomness is public.
    salt = secrets.token_hex(16) if seed is None else ""
    seed = secrets.randbits(53) if seed is None else seed
    creator_id = creator.player_id if creator else None
    at = services.clock()
    events = tables.create(ruleset, game_id, seats, options, seed, salt, at, creator_id, rematch_of)
    handed = {i: tokens.new_token() for i, s in enumerate(seats) if s.name is not None and s.player is None}
    decision = seal(ruleset, None, events, CreateGame(), None, at)
    saved = save(services, decision, handed)
    if services.holdings is not None and holder is not None:
        services.holdings.hold(holder, [game_id])
    return saved, handed


def join_game(
    services: Services,
    game_id: str,
    name: str | None,
    player: Player | None = None,
    accepts_public_randomness: bool = False,
    fits: Callable[[tables.Table[Any]], bool] | None = None,
    holder: str | None = None,
) -> tuple[Saved, int, str | None]:
    """The caller takes the first open seat (a player, the seat kept for it); an anonymous caller's seat token is
    handed out once, a player's own token acts for the seat. A game whose randomness is public (its creator
    chose the seed, and can compute every hand) seats only a caller who says it accepts that. `fits`: what the
    game must be for this caller (a quick match's conditions), checked on the game as it is when the seat is
    taken; NoMatchError if it is not. `holder`: the client that holds the game from now on."""
    if player is None and name is None:
        raise InvalidRequestError("join with a name, or with a player token")
    if player is not None and name is not None:
        raise InvalidRequestError("a player joins under its own name: leave out `name` with a player token")
    admission.check_holdings(services.holdings, services.limits, holder)
    for _ in range(MAX_ATTEMPTS):
        game = services.repository.get(game_id)
        if fits is not None and not fits(game.table):
            raise NoMatchError(game_id)
        shown = player.name if player else name
        assert shown is not None
        events = tables.join(game.ruleset, game.table, shown, player.player_id if player else None)
        if tables.randomness(game.table) == "public" and not accepts_public_randomness:
            raise ConflictError(
                "this game's creator chose its seed, so it can compute every hand and draw: join with "
                '"accept_public_randomness": true to play it anyway (it is not rated)',
                code="public_randomness_not_accepted",
            )
        seat: int = events[0].seat  # type: ignore[attr-defined]
        token = None if player else tokens.new_token()
        command = JoinGame(player=shown, player_id=player.player_id if player else None)
        decision = seal(game.ruleset, game, events, command, None, services.clock())
        try:
            saved = save(services, decision, {seat: token} if token else None)
        except StaleVersionError:
            continue
        if services.holdings is not None and holder is not None:
            services.holdings.hold(holder, [game_id])
        return saved, seat, token
    raise too_busy()


class NoMatchError(Exception):
    """The game is not what the caller asked for (a quick match's conditions)."""


def make_move(
    services: Services,
    game_id: str,
    caller: Caller,
    body: dict[str, Any],
    if_match: int | None = None,
    idempotency_key: str | None = None,
    loaded: Game | None = None,
) -> bytes:
    """Apply the caller's move; the answer (JSON): the new version, the events as the caller may see them,
    and the caller's view. A retry with the same idempotency key and body gets the first answer (`loaded`:
    the game as the caller just read it, for the first attempt; the commit still finds a first answer)."""
    answer_key = (caller.key, idempotency_key) if idempotency_key else None
    fingerprint = hashlib.sha256(encode_sorted(body)).hexdigest().encode()
    wait: int | None = None
    player = player_of(services, caller.token)  # once, not on every attempt
    for attempt in range(MAX_ATTEMPTS):
        game = loaded if attempt == 0 and loaded else services.repository.get(game_id, answer_key)
        seat = caller.seat if caller.token is None else seat_of(services, game, caller.token, player)
        assert seat is not None
        if game.answer is not None:
            return first_answer(game.answer, fingerprint)
        game = close_if_overdue(services, game)
        if wait is not None and game.table.wait_since != wait:
            # Decided again only within the same wait: never carried into a round the caller has not seen.
            raise ConflictError("the game moved on before this move landed; look again", code="game_moved_on")
        wait = game.table.wait_since
        move = game.ruleset.parse_move(body)
        if if_match is not None and if_match != game.version:
            raise VersionMismatchError(f"If-Match names version {if_match}; the game is at version {game.version}")
        events = tables.play(game.ruleset, game.table, seat, move, caller.by)
        command = MakeMove(seat=seat, move=msgspec.to_builtins(move), by=caller.by)
        decision = seal(game.ruleset, game, events, command, seat, services.clock())
        views, result = game_models(decision.after.ruleset, decision.after.table)
        answer = move_answer(decision, seat, views[field_of(seat)])
        try:
            stored = (answer_key, fingerprint + b"\n" + answer) if answer_key else None
            with telling_followers(services, decision):
                services.repository.save(decision, None, stored, views, result)
        except StaleVersionError:
            if if_match is not None:
                raise VersionMismatchError("another move landed first") from None
            continue
        except DuplicateRequestError as duplicate:
            return first_answer(duplicate.answer, fingerprint)
        metrics.MOVES.labels(game.ruleset.id, caller.by or "player").inc()
        return answer
    raise too_busy()


def move_answer(decision: Decision, seat: int, view: bytes) -> bytes:
    """The answer to a move, as JSON: built around the mover's view, already encoded for the read model."""
    after = decision.after
    items = [
        feed_item(after.ruleset, after.table, envelope, seat, event)
        for envelope, event in zip(decision.envelopes, decision.events, strict=True)
    ]
    return encode({"version": after.version, "events": items, "game": msgspec.Raw(view)})


def encode_sorted(body: Mapping[str, Any]) -> bytes:
    return msgspec.json.encode(body, order="sorted")


def first_answer(stored: bytes, fingerprint: bytes) -> bytes:
    """The answer kept for an idempotency key, if the request is the same as the first."""
    kept, _, answer = stored.partition(b"\n")
    if stored.startswith(b"{"):  # kept as JSON, by a service that did not yet keep raw answers
        record = msgspec.json.decode(stored)
        kept, answer = record["fingerprint"].encode(), encode(record["answer"])
    if kept != fingerprint:
        raise InvalidRequestError("this Idempotency-Key was used with a different body", code="idempotency_key_reused")
    return answer


def close_if_overdue(services: Services, game: Game) -> Game:
    """Where the rules say what lateness means (an aiming window), a move arriving after the limit finds the
    wait already closed, even if the deadline job has not run yet: timing is a rule."""
    due = tables.deadline_at(game.ruleset, game.table)
    if due is None or game.ruleset.time_limit(game.table.rules) is None or seconds_between(due, services.clock()) < 0:
        return game
    return close_wait(services, game.game_id, game.table.wait_since)


def close_wait(services: Services, game_id: str, wait_since: int) -> Game:
    """Apply the game's own lateness rule to the wait that began at `wait_since`, if it still goes on."""

    def decide(game: Game) -> list[Event]:
        try:
            return tables.timeout(game.ruleset, game.table, wait_since) or []
        except IllegalMoveError:
            return []  # the wait is over: someone closed it first

    return act(services, game_id, CloseWait(wait_since=wait_since), decide)


def tally_game(services: Services, game_id: str) -> Game:
    """Record the final tally of a finished game, once."""
    return act(services, game_id, TallyGame(), lambda game: tables.tally(game.ruleset, game.table))


def act(services: Services, game_id: str, command: Command, decide: Callable[[Game], list[Event]]) -> Game:
    """Apply a command of the house: decide on the current state, save, and decide again if another command
    landed first. No events: nothing to do."""
    for _ in range(MAX_ATTEMPTS):
        game = services.repository.get(game_id)
        events = decide(game)
        if not events:
            return game
        decision = seal(game.ruleset, game, events, command, None, services.clock())
        try:
            return save(services, decision).game
        except StaleVersionError:
            continue
    raise too_busy()


def too_busy() -> ConflictError:
    return ConflictError("the game is too busy; try again", code="concurrent_modification")


def seconds_between(earlier: str, later: str) -> float:
    return (datetime.fromisoformat(later) - datetime.fromisoformat(earlier)).total_seconds()
