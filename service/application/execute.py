"""The one way to act on a game: load → authorise → decide → seal → save → tell, decided again when another decision
lands first. Every use case that changes a game says only who asks and what; this does the rest, the same for a
move, a join, a leave, a deadline or a tally:

1. load the game as it stands (with the first answer kept for an idempotent request);
2. authorise: the caller's seat, on the game as loaded (InvalidTokenError for a token of no seat);
3. an idempotent request answered before gets its first answer again;
4. the command, as the rules will read it (a move's body parsed: MoveFormatError for one that is no move);
5. a move only: a wait overdue by the game's own timing rule is closed first; a move decided again is decided
   within the wait it was sent in (else GameMovedOnError); the version the caller names, if any, is the game's (else
   VersionMismatchError);
6. decide, by the command table (games/commands.py); no events: nothing to do;
7. seal the events into envelopes chained by hash, render the game's documents (every view, the result), and hand
   out the seat tokens the events call for (voiding those of seats left);
8. save it all in one step (checking the caller's player token, where it is left to the save: TokenNotLiveError);
   another decision landed first → again, up to MAX_ATTEMPTS (VersionMismatchError if the caller named a version);
   a first answer found under the request's key → that answer;
9. tell the followers (read models, job queue, metrics); also of a decision whose replicas did not confirm it in
   time, which stands on the master all the same (followers are idempotent).

A new game (`create`) has nothing to load or authorise, and steps 6 to 9 alike.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import msgspec

from events.replication import NotReplicatedError
from events.repository import Decision, Game, seal
from events.store import AnswerKey, Document, DuplicateRequestError, LiveToken, StaleVersionError
from games import table as tables
from games.base import Event, IllegalMoveError, RuleError, Ruleset
from games.commands import CloseWait, Command, CreateGame, decide
from games.table import GameCreated, Seat, SeatJoined, SeatLeft
from projections.views import VIEWS, field_of, view_of
from service.application import tokens
from service.application.errors import (
    ApplicationError,
    ConcurrentModificationError,
    GameMovedOnError,
    IdempotencyKeyReusedError,
    VersionMismatchError,
)
from service.application.services import Services

MAX_ATTEMPTS = 5
"""Times a decision is made again when another lands first."""

encode = msgspec.json.Encoder().encode


@dataclass(frozen=True)
class Acted:
    """What an action left: the game as it stands, the decision saved (None: nothing to do, or an answer given
    again), the game's documents after it, the seat tokens it handed out (once), and its answer, if it has one."""

    game: Game
    decision: Decision | None = None
    documents: Mapping[str, Document] = field(default_factory=dict)
    handed: Mapping[int, str] = field(default_factory=dict)
    answer: bytes | None = None

    def view(self, seat: int | None) -> bytes:
        """A viewer's view after the decision, as stored with it."""
        found = self.documents[VIEWS.key(self.game.game_id)]
        assert not isinstance(found, bytes)
        return view_of(found, field_of(seat))


@dataclass(frozen=True)
class Idempotent:
    """A request that may be sent again with the same `Idempotency-Key`: where its first answer is kept (whose keys,
    which key), and a fingerprint of its body, so that the key used with another body is refused."""

    key: AnswerKey
    fingerprint: bytes

    @classmethod
    def of(cls, caller: str, key: str, body: Mapping[str, Any]) -> Idempotent:
        return cls((caller, key), hashlib.sha256(msgspec.json.encode(body, order="sorted")).hexdigest().encode())

    def kept(self, answer: bytes) -> bytes:
        """What is kept for the key: the fingerprint, then the answer."""
        return self.fingerprint + b"\n" + answer

    def first(self, stored: bytes) -> bytes:
        """The answer kept for the key, if the request is the same as the first."""
        kept, _, answer = stored.partition(b"\n")
        if stored.startswith(b"{"):  # kept as JSON, by a service that did not yet keep raw answers
            record = msgspec.json.decode(stored)
            kept, answer = record["fingerprint"].encode(), encode(record["answer"])
        if kept != self.fingerprint:
            raise IdempotencyKeyReusedError("this Idempotency-Key was used with a different body")
        return answer


Authorise = Callable[[Game], int | None]
"""Who asks: the caller's seat in the game as loaded (None: no seat), or InvalidTokenError."""
Ask = Callable[[Game, int | None], Command]
"""What is asked, of the game as loaded, by the caller's seat."""
Answer = Callable[[Decision, "Acted"], bytes]
"""What an idempotent request is answered, from the decision and what it left (kept with the decision)."""


def execute(
    services: Services,
    game_id: str,
    authorise: Authorise,
    ask: Ask,
    *,
    timed: bool = False,
    if_match: int | None = None,
    idempotent: Idempotent | None = None,
    answer: Answer | None = None,
    loaded: Game | None = None,
    moot_if_refused: bool = False,
    token: LiveToken | None = None,
) -> Acted:
    """Act on the game, as the module's docstring says. `timed`: a move, which the game's timing rule concerns;
    `loaded`: the game as the caller read it just now, for the first attempt; `moot_if_refused`: the house's own
    command, which the rules refuse once the game has moved past it (nothing to do); `token`: the player token the
    caller sent, not yet checked, for the save to check (TokenNotLiveError).

    Without `loaded`, the game as this process last saw it, if it holds it, is tried first, without a load: a
    decision on it that the save accepts was made on the game as it stands (the save checks the version), and so
    was a first answer the save finds. A refusal, or nothing to do, may be an old state's answer: the game is
    loaded and the command decided again, as if the request had come a moment later. So is a decision the save
    refuses, with one proviso for a move: as if the game had been loaded when the request came, it is decided again
    only in the wait it was decided in if a decision of this process overtook it (a race), and else only if the
    game's wait as it stands began before it was decided (`arrived`: when the held game's decision was sealed, a
    moment after the request came; another process's decision began it). A wait begun since is a round the sender
    has not seen: a duplicate of a round's last move never lands in the next round."""
    acting = Acting(services, authorise, ask, timed, if_match, idempotent, answer, moot_if_refused, token)
    wait: int | None = None
    arrived: str | None = None
    attempts = range(MAX_ATTEMPTS)
    held = services.repository.held(game_id) if loaded is None else None
    if held is not None:
        try:
            acted = acting.attempt(held, None)
            if acted.decision is not None or acted.answer is not None:
                return acted
        except Stale as stale:
            if if_match is not None:
                raise VersionMismatchError("another move landed first") from None
            attempts = range(1, MAX_ATTEMPTS)
            if overtaken(services, held):  # a decision of this process landed meanwhile: a race, as if loaded
                wait = stale.wait
            else:  # moved by another process, before or after the request came: its decision's time tells
                arrived = stale.at
        except (RuleError, ApplicationError):
            pass
    for attempt in attempts:
        game = (
            loaded
            if attempt == 0 and loaded
            else services.repository.get(game_id, idempotent.key if idempotent else None)
        )
        try:
            return acting.attempt(game, wait, arrived)
        except Stale as stale:
            if if_match is not None:
                raise VersionMismatchError("another move landed first") from None
            wait, arrived = stale.wait, None
    raise too_busy()


def overtaken(services: Services, held: Game) -> bool:
    """Whether this process saved (or loaded) the game past `held` while a decision on `held` was being made."""
    now = services.repository.held(held.game_id)
    return now is not None and now.version > held.version


class Stale(Exception):
    """Another decision landed before this attempt's; `wait` is the wait the attempt was decided in (a move's), `at`
    when it was decided."""

    def __init__(self, wait: int | None, at: str) -> None:
        super().__init__("another decision landed first")
        self.wait = wait
        self.at = at


@dataclass(frozen=True)
class Acting:
    """What `execute` is asked: who asks, what, and how (its keyword arguments)."""

    services: Services
    authorise: Authorise
    ask: Ask
    timed: bool
    if_match: int | None
    idempotent: Idempotent | None
    answer: Answer | None
    moot_if_refused: bool
    token: LiveToken | None

    def attempt(self, game: Game, wait: int | None, arrived: str | None = None) -> Acted:
        """One attempt on the game as given (steps 2 to 9): what it left, or Stale. `wait`: the wait a move's attempt
        before this one was decided in (None: this is the first); `arrived`: when the request came, if its first
        attempt was on a held game the save found stale (a move is decided only in a wait begun before then)."""
        services, idempotent = self.services, self.idempotent
        seat = self.authorise(game)
        if idempotent is not None and game.answer is not None:
            return Acted(game, answer=idempotent.first(game.answer))
        command = self.ask(game, seat)
        if self.timed:
            if arrived is not None and game.table.wait_started_at > arrived:  # (both UTC ISO 8601, to the ms)
                raise GameMovedOnError("the game moved on before this move landed; look again")
            game = close_if_overdue(services, game)
            if wait is not None and game.table.wait_since != wait:
                # Decided again only within the same wait: never carried into a round the caller has not seen.
                raise GameMovedOnError("the game moved on before this move landed; look again")
        if self.if_match is not None and self.if_match != game.version:
            raise VersionMismatchError(f"If-Match names version {self.if_match}; the game is at version {game.version}")
        try:
            events = decide(game.ruleset, game.table, command)
        except IllegalMoveError:
            if self.moot_if_refused:
                return Acted(game)
            raise
        if not events:
            return Acted(game)
        try:
            decision = sealed(services, game.ruleset, game, events, command, seat)
            return save(services, decision, idempotent, self.answer, self.token)
        except StaleVersionError:
            raise Stale(game.table.wait_since if self.timed else None, decision.envelopes[0].at) from None
        except DuplicateRequestError as duplicate:
            assert idempotent is not None
            return Acted(game, answer=idempotent.first(duplicate.answer))


def create(services: Services, ruleset: Ruleset[Any], command: CreateGame) -> Acted:
    """A new game: decided and saved as any other command, with nothing to load or authorise (stored at the time of
    its creation, which its setup records)."""
    assert command.setup is not None
    events = decide(ruleset, None, command)
    return save(services, sealed(services, ruleset, None, events, command, None, command.setup.created_at))


def sealed(
    services: Services,
    ruleset: Ruleset[Any],
    game: Game | None,
    events: list[Event],
    command: Command,
    seat: int | None,
    at: str | None = None,
) -> Decision:
    """Step 7's seal, at `at` (by default now): the command's id and the events' nonces drawn from the deployment's
    entropy."""
    entropy = services.entropy
    return seal(ruleset, game, events, command, seat, at or services.clock(), entropy.hex(16), entropy.nonce)


def save(
    services: Services,
    decision: Decision,
    idempotent: Idempotent | None = None,
    answer: Answer | None = None,
    token: LiveToken | None = None,
) -> Acted:
    """Steps 7 to 9: the documents, the seat tokens, the one-step save (checking `token`, if given, and keeping the
    players' notices where it can), the followers told."""
    after = decision.after
    documents = services.projections.documents(after.ruleset, after.table)
    told = services.projections.notices_of(decision)  # kept by the save where it can, else told after it
    handed, hashes = seat_tokens(services, decision)
    acted = Acted(after, decision, documents, handed)
    if answer is not None:
        acted = Acted(after, decision, documents, handed, answer(decision, acted))
    kept = (idempotent.key, idempotent.kept(acted.answer or b"")) if idempotent is not None else None
    with telling(services, decision):
        services.repository.save(decision, hashes, kept, documents, token, told)
    return acted


def seat_tokens(services: Services, decision: Decision) -> tuple[dict[int, str], dict[int, str]]:
    """The tokens a decision hands out (an anonymous seat named at creation, or taken by a join: each gets its own,
    shown once), and the hashes to keep: theirs, and a blank for each seat left, whose token opens nothing now."""
    handed: dict[int, str] = {}
    hashes: dict[int, str] = {}
    for event in decision.events:
        if isinstance(event, GameCreated):
            handed |= {i: services.entropy.token() for i, s in enumerate(event.seats) if anonymous(s)}
        elif isinstance(event, SeatJoined) and event.player is None:
            handed[event.seat] = services.entropy.token()
        elif isinstance(event, SeatLeft):
            hashes[event.seat] = ""
    return handed, hashes | {seat: tokens.digest(token) for seat, token in handed.items()}


@contextmanager
def telling(services: Services, decision: Decision) -> Iterator[None]:
    """Tell the followers of a decision once it is saved; also of one that stands on the master though its replicas
    did not confirm it in time: they are idempotent, and a game whose bots' job was not queued would wait for the
    sweep."""
    try:
        yield
    except NotReplicatedError:
        tell(services, decision)
        raise
    tell(services, decision)


def tell(services: Services, decision: Decision) -> None:
    with services.together():  # their writes in one round trip, where they write to one Redis
        for follower in services.followers:
            follower.follow(decision)


def close_if_overdue(services: Services, game: Game) -> Game:
    """Where the rules say what lateness means (an aiming window), a move arriving after the limit finds the
    wait already closed, even if the deadline job has not run yet: timing is a rule."""
    due = tables.deadline_at(game.ruleset, game.table)
    if due is None or game.ruleset.time_limit(game.table.rules) is None or seconds_between(due, services.clock()) < 0:
        return game
    return close_wait(services, game.game_id, game.table.wait_since)


def close_wait(services: Services, game_id: str, wait_since: int) -> Game:
    """Apply the game's own lateness rule to the wait that began at `wait_since`, if it still goes on."""

    def ask(game: Game, seat: int | None) -> Command:
        return CloseWait(wait_since=wait_since)

    return execute(services, game_id, no_seat, ask, moot_if_refused=True).game


def no_seat(game: Game) -> None:
    """The house asks as no seat (a command of the game's own: a deadline, the tally)."""
    return None


def too_busy() -> ConcurrentModificationError:
    return ConcurrentModificationError("the game is too busy; try again")


def seconds_between(earlier: str, later: str) -> float:
    return (datetime.fromisoformat(later) - datetime.fromisoformat(earlier)).total_seconds()


def anonymous(seat: Seat) -> bool:
    """A human seat no registered player holds: its holder proves itself with the seat's own token."""
    return seat.name is not None and seat.player is None
