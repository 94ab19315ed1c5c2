"""The table around any game: seats filling up, the start, the end. Pure, like the rules it wraps.

A `Table` is the state the service keeps for a game; its `rules` field is the game's own state once
the game has started. Table events are shared by every ruleset; game events belong to their game.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Annotated, Any, Generic, Literal, TypeVar

import msgspec
from msgspec import UNSET, Meta, UnsetType

from games import bots
from games.base import (
    EVERYONE,
    SPECTATOR,
    Event,
    FormatRefusal,
    IllegalMoveError,
    Move,
    MoveFormatError,
    Option,
    Result,
    Ruleset,
    Viewer,
)
from games.refusals import SetupError, SetupRefusal, TableRefusal

S = TypeVar("S")


class Status(StrEnum):
    WAITING = "waiting"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    ABORTED = "aborted"


class Seat(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat: a named human, a bot (`random`, `smart`), or open (neither, until someone joins).
    A human seat taken by a registered player also names the `player` (its id); its name is the player's.
    An open seat may be kept for one player (`invited`, its id: a rematch's seat of a player who has not
    accepted yet): only that player takes it; or, a rematch's seat of an anonymous holder, for whoever holds that
    seat's token in the game replayed (`kept_for`)."""

    name: Annotated[str | None, Meta(description="a human seat's name (its player's, if a player holds it)")] = None
    bot: Annotated[str | None, Meta(description="a bot seat's kind")] = None
    player: Annotated[str | None, Meta(description="the registered player's id, if a player holds the seat")] = None
    invited: Annotated[
        str | None, Meta(description="an open seat kept for this player (its id): only that player may take it")
    ] = None
    kept_for: Annotated[
        int | None,
        Meta(
            description="an open seat a rematch keeps for whoever held this seat of the game it replays (an "
            "anonymous seat): only a join with that seat's token takes it"
        ),
    ] = None

    @property
    def is_open(self) -> bool:
        return self.name is None and self.bot is None

    def takes(self, player: str | None, rejoin: int | None = None) -> bool:
        """Whether a newcomer (a player's id, None for an anonymous one; `rejoin`: the seat it held in the game
        this one replays, proved by that seat's token) may take this seat."""
        return self.is_open and self.invited in (None, player) and self.kept_for in (None, rejoin)


def _every_option(payload: dict[str, Any]) -> dict[str, Any]:
    """v1 to v2: v2 records every option of its ruleset, so an option added later is filled in with the value
    the game was played with before it existed (`Option.before`): replaying and auditing it gives the same game."""
    from games.registry import RULESETS  # the registry imports this module

    known = options_of(RULESETS[payload["ruleset"]])
    missing = {n: o.default if o.before is None else o.before for n, o in known.items() if n not in payload["options"]}
    return {**payload, "options": {**payload["options"], **missing}}


Timestamp = Annotated[str, Meta(extra_json_schema={"format": "date-time"})]
"""A moment, as every timestamp the API shows: ISO 8601 in UTC with milliseconds (`2026-12-01T07:42:20.123Z`)."""


class GameCreated(Event, frozen=True):
    type = "game_created"
    schema_version = 2
    upcasters = {1: _every_option}
    game_id: Annotated[str, Meta(description="the game's id")]
    ruleset: Annotated[str, Meta(description="the game's ruleset")]
    seats: Annotated[tuple[Seat, ...], Meta(description="every seat, in play order, as created")]
    options: Annotated[dict[str, Any], Meta(description="every option of the ruleset, as set or by default")]
    seed: Annotated[int, Meta(description="what every shuffle and roll is drawn from; hidden until the end")]
    salt: Annotated[str, Meta(description="hidden with the seed until the end; empty where the creator chose the seed")]
    seed_commitment: Annotated[str, Meta(description='sha256 of "<seed>:<salt>", both revealed at the end')]
    created_at: Annotated[
        Timestamp | Literal[""],
        Meta(description="when the game was created; empty in a game created before the moment was recorded"),
    ] = ""
    creator: Annotated[str | None, Meta(description="the player who created the game (its id), if a player did")] = None
    rematch_of: Annotated[
        str | None, Meta(description="the finished game this one replays with the same seats and options")
    ] = None


class SeatJoined(Event, frozen=True, omit_defaults=True):
    type = "seat_joined"
    seat: Annotated[int, Meta(description="the seat taken")]
    name: Annotated[str, Meta(description="the name it was taken under (a player's own)")]
    player: Annotated[str | None, Meta(description="the registered player's id, if a player took it")] = None


class SeatLeft(Event, frozen=True):
    """A seat's holder left before the start: the seat is open again."""

    type = "seat_left"
    seat: Annotated[int, Meta(description="the seat left, open again")]


class SeatResigned(Event, frozen=True):
    """A seat gave up during play: the random bot plays it to the end, and it ranks last for ratings."""

    type = "seat_resigned"
    seat: Annotated[int, Meta(description="the seat that resigned")]


class GameAborted(Event, frozen=True, omit_defaults=True):
    """The creator called off a game that had not started (or the house did, one that nobody sat at any more
    when its `bots_after_s` passed: neither field then)."""

    type = "game_aborted"
    seat: Annotated[int | None, Meta(description="the seat whose token aborted it, if one did")] = None
    player: Annotated[str | None, Meta(description="the creating player (its id), if its player token did")] = None


class RematchCreated(Event, frozen=True, omit_defaults=True):
    """A new game with the same seats and options follows this one."""

    type = "rematch_created"
    game_id: Annotated[str, Meta(description="the new game's id")]
    seat: Annotated[int | None, Meta(description="the seat that asked for it, if a seat did")] = None


class BotsSeated(Event, frozen=True):
    """The house's bots took the open seats of a game waiting for players, so that it starts: asked for by a seat,
    or when the game's `bots_after_s` passed with no one joining."""

    type = "bots_seated"
    seats: Annotated[tuple[int, ...], Meta(description="the seats the bots took, each open until then")]
    bot: Annotated[str, Meta(description="the kind of bot that took them")]


class AutoPassSet(Event, frozen=True):
    """A seat asked the house to pass these decisions for it whenever it owes one (none: it passes nothing for
    itself any more). A public choice: the house then passes each of them as soon as it is owed, whatever the seat
    holds, so that passing tells nothing of a hand."""

    type = "auto_pass_set"
    seat: Annotated[int, Meta(description="the seat that chose")]
    decisions: Annotated[
        tuple[str, ...], Meta(description="the decisions the house passes for it (its ruleset's `passes`)")
    ]


class GameStarted(Event, frozen=True):
    type = "game_started"


class GameTallied(Event, frozen=True):
    """The final tally of a finished game, recorded once: what results and leaderboards show."""

    type = "game_tallied"
    result: Annotated[Result, Meta(description="the final tally")]


TABLE_EVENTS: tuple[type[Event], ...] = (
    GameCreated,
    SeatJoined,
    GameStarted,
    GameTallied,
    SeatLeft,
    SeatResigned,
    GameAborted,
    RematchCreated,
    BotsSeated,
    AutoPassSet,
)


class Table(msgspec.Struct, Generic[S], frozen=True, kw_only=True):
    game_id: str
    ruleset: str
    seats: tuple[Seat, ...]
    options: dict[str, Any]
    seed: int
    salt: str
    seed_commitment: str
    created_at: str = ""
    version: int = 0
    status: Status = Status.WAITING
    rules: S | None = None
    wait_since: int = 0
    """The version at which the game last began to wait on a new decision: what deadlines count from. Before the
    start, the version at which its seats last changed: what `bots_after_s` counts from."""
    wait_started_at: str = ""
    """When that event was recorded (UTC, ISO 8601): a deadline falls `time_limit` seconds later."""
    moved_at: str = ""
    """When the game's last event was recorded (UTC, ISO 8601): how long it has been idle."""
    tallied: bool = False
    status_since: int = 0
    """The version at which the status, a seat (its holder, a resignation, its auto-pass) or the tally last changed:
    what a lobby shows of the game."""
    creator: str | None = None
    founders: tuple[int, ...] = ()
    """Seats named at creation and still held by the creator's tokens: those may abort the game."""
    resigned: tuple[int, ...] = ()
    """Seats that resigned: the random bot plays them."""
    ended_at: int = 0
    """The version of the event that ended the game (0 while it runs)."""
    rematch: str | None = None
    rematch_of: str | None = None
    auto_pass: tuple[tuple[str, ...], ...] = ()
    """Each seat's decisions the house passes for it (`AutoPassSet`), by seat; none set: empty."""


FORMAT = 11
"""The version of what is derived from a log: the table state and the views. Bump it whenever `evolve` or a
view derives something differently; a snapshot or stored view of another format is rebuilt from the log."""


def seed_commitment(seed: int, salt: str) -> str:
    """The published hash of a game's secret seed; the seed and salt are revealed when it ends."""
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def randomness(table: Table[Any]) -> Literal["secret", "public"]:
    """`secret`: the service drew the seed and keeps it behind a random salt until the end. `public`: the
    creator gave the seed, unsalted so that it reproduces the game, and whoever knows or guesses it can
    compute every shuffle and roll."""
    return "secret" if table.salt else "public"


def rng_at(table: Table[Any]) -> random.Random:
    """The generator for the decision taken at the table's current version: seeded, never global."""
    return random.Random(f"{table.seed}:{table.salt}:{table.version}")


def create(
    ruleset: Ruleset[Any],
    game_id: str,
    seats: list[Seat],
    options: Mapping[str, Any],
    seed: int,
    salt: str,
    created_at: str = "",
    creator: str | None = None,
    rematch_of: str | None = None,
) -> list[Event]:
    """The events that create a game, or SetupError if the seats or options do not fit the ruleset.

    The seed, salt and creation time come from outside the rules and are recorded as facts."""
    if not ruleset.min_seats <= len(seats) <= ruleset.max_seats:
        raise SetupError(
            SetupRefusal.INVALID_SEAT_COUNT,
            f"{ruleset.name} takes {ruleset.min_seats} to {ruleset.max_seats} seats, not {len(seats)}",
        )
    kinds = bot_kinds(ruleset)
    unknown = next((s.bot for s in seats if s.bot is not None and s.bot not in kinds), None)
    if unknown is not None:
        raise SetupError(SetupRefusal.UNKNOWN_BOT, f"{ruleset.name} has no {unknown!r} bot; it has {sorted(kinds)}")
    resolved = resolve_options(ruleset, options, len(seats))
    created = GameCreated(
        game_id=game_id,
        ruleset=ruleset.id,
        seats=tuple(seats),
        options=resolved,
        seed=seed,
        salt=salt,
        seed_commitment=seed_commitment(seed, salt),
        created_at=created_at,
        creator=creator,
        rematch_of=rematch_of,
    )
    table = evolve(ruleset, None, created)
    return [created, *start_if_full(ruleset, table)]


def bot_kinds(ruleset: Ruleset[Any]) -> set[str]:
    """The bots that may take a seat of this ruleset (`games.bots.kinds`)."""
    return bots.kinds(ruleset)


TABLE_OPTIONS: dict[str, Option] = {
    "move_deadline_s": Option(
        int, None, "seconds a seat has to move before a bot moves for it", minimum=1, maximum=7 * 24 * 3600
    ),
    "bots_after_s": Option(
        int,
        None,
        "seconds a game waits for someone to join before the house's smart bots take its open seats and it starts "
        "(counted from its creation, or its last join or leave); any seated player may also start it with bots "
        "at once",
        minimum=1,
        maximum=7 * 24 * 3600,
    ),
}
"""Options every game takes, because the table, not the game, keeps them."""


def options_of(ruleset: Ruleset[Any]) -> dict[str, Option]:
    """Every option a game of this ruleset takes: its own and the table's."""
    return {**ruleset.options, **TABLE_OPTIONS}


def resolve_options(ruleset: Ruleset[Any], options: Mapping[str, Any], seats: int) -> dict[str, Any]:
    """The options with defaults filled in; SetupError for an unknown name or a value out of range."""
    known = options_of(ruleset)
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise SetupError(SetupRefusal.INVALID_OPTION, f"unknown option {unknown[0]!r} for {ruleset.id}")
    resolved: dict[str, Any] = {}
    for name, spec in known.items():
        value = options.get(name, spec.default)
        if value is not None:
            if spec.kind is int and (isinstance(value, bool) or not isinstance(value, int)):
                raise SetupError(SetupRefusal.INVALID_OPTION, f"option {name!r} must be an integer")
            if spec.kind is bool and not isinstance(value, bool):
                raise SetupError(SetupRefusal.INVALID_OPTION, f"option {name!r} must be true or false")
            maximum = seats - 1 if spec.names_a_seat else spec.maximum
            minimum = 0 if spec.names_a_seat else spec.minimum
            if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
                raise SetupError(SetupRefusal.INVALID_OPTION, f"option {name!r} must be from {minimum} to {maximum}")
        resolved[name] = value
    return resolved


def join(
    ruleset: Ruleset[Any], table: Table[Any], name: str, player: str | None = None, rejoin: int | None = None
) -> list[Event]:
    """A newcomer takes the first open seat (the one kept for it, if one is); the game starts when no seat is left
    open. `rejoin`: the seat the newcomer held in the game this one replays."""
    if table.status is Status.ABORTED:
        raise IllegalMoveError(TableRefusal.GAME_ABORTED, "this game was aborted")
    if table.status is not Status.WAITING:
        raise IllegalMoveError(TableRefusal.GAME_ALREADY_STARTED, "this game has no open seat left")
    if player is not None and any(s.player == player for s in table.seats):
        raise IllegalMoveError(TableRefusal.ALREADY_SEATED, "this player already holds a seat in this game")
    free = [i for i, s in enumerate(table.seats) if s.takes(player, rejoin)]
    if not free:
        raise IllegalMoveError(TableRefusal.SEAT_RESERVED, "the open seats are kept for the players invited to them")
    kept = [i for i in free if table.seats[i].invited is not None or table.seats[i].kept_for is not None]
    seat = (kept or free)[0]  # an invited player takes the seat kept for it
    joined = SeatJoined(seat=seat, name=name, player=player)
    return [joined, *start_if_full(ruleset, evolve(ruleset, table, joined))]


def play(ruleset: Ruleset[Any], table: Table[Any], seat: int, move: Move, by: str | None = None) -> list[Event]:
    """The events a seat's move produces at this table; `by` names the house when it moves for the seat
    (a resigned seat is the house's to play)."""
    if table.status is Status.WAITING:
        raise IllegalMoveError(TableRefusal.GAME_NOT_STARTED, "the game starts when every seat is taken")
    _under_way(table, seat)
    if seat in table.resigned and by is None:
        raise IllegalMoveError(TableRefusal.SEAT_RESIGNED, "this seat resigned: the random bot plays it to the end")
    return ruleset.decide(table.rules, seat, move, rng_at(table))


def _under_way(table: Table[Any], seat: int) -> None:
    """A seat of the table asks something of a game that is not over."""
    if table.status is Status.ABORTED:
        raise IllegalMoveError(TableRefusal.GAME_ABORTED, "this game was aborted")
    if table.status is Status.FINISHED:
        raise IllegalMoveError(TableRefusal.GAME_FINISHED, "the game is over")
    if not 0 <= seat < len(table.seats):
        raise IllegalMoveError(TableRefusal.NO_SUCH_SEAT, f"this game has seats 0 to {len(table.seats) - 1}")


def house_plays(table: Table[Any], seat: int) -> bool:
    """Whether the house moves for the seat: a bot's, or one that resigned (the random bot plays it)."""
    return table.seats[seat].bot is not None or seat in table.resigned


def passing(table: Table[Any], seat: int, decision: str | None) -> bool:
    """Whether the house passes this decision for the seat: the seat asked it to (`auto_pass`)."""
    return seat < len(table.auto_pass) and decision in table.auto_pass[seat]


def house_moves(table: Table[Any], seat: int, decision: str | None) -> bool:
    """Whether the house makes the seat's move for this decision: it plays the seat, or passes the decision."""
    return house_plays(table, seat) or passing(table, seat, decision)


def set_auto_pass(ruleset: Ruleset[Any], table: Table[Any], seat: int, decisions: tuple[str, ...]) -> list[Event]:
    """A seat's choice of the decisions the house passes for it; only those its game lets be passed."""
    _under_way(table, seat)
    unknown = sorted(set(decisions) - set(ruleset.passes))
    if unknown:
        passable = ", ".join(ruleset.passes) or "none"
        raise MoveFormatError(
            FormatRefusal.INVALID_REQUEST, f"{ruleset.id} cannot pass {unknown[0]!r} for a seat; it passes: {passable}"
        )
    chosen = tuple(d for d in ruleset.passes if d in decisions)  # in the game's order, each once
    return [AutoPassSet(seat=seat, decisions=chosen)]


def bot_of(table: Table[Any], seat: int) -> str:
    """The kind of bot that plays a seat the house plays."""
    return table.seats[seat].bot or "random"


def time_limit(ruleset: Ruleset[Any], table: Table[Any]) -> int | None:
    """Seconds the current wait may last: the game's own limit (an aiming window), else the table's
    `move_deadline_s` option; None when nothing is awaited or there is no limit."""
    if table.status is not Status.IN_PROGRESS or not ruleset.awaiting(table.rules):
        return None
    own = ruleset.time_limit(table.rules)
    return own if own is not None else table.options.get("move_deadline_s")


def bots_at(table: Table[Any]) -> str | None:
    """When the house's bots take the open seats of a game waiting for players (UTC, ISO 8601): `bots_after_s`
    after its seats last changed; None if it is not waiting or has no such option."""
    after = table.options.get("bots_after_s")
    if table.status is not Status.WAITING or after is None or not table.wait_started_at:
        return None
    return utc_iso(datetime.fromisoformat(table.wait_started_at) + timedelta(seconds=after))


def timeout(ruleset: Ruleset[Any], table: Table[Any], wait_since: int) -> list[Event] | None:
    """What being late means for the wait that began at `wait_since`, by the game's own rules;
    None when the game has its random bot decide for each awaited seat instead."""
    if table.status is not Status.IN_PROGRESS or table.wait_since != wait_since:
        raise IllegalMoveError(TableRefusal.WAIT_OVER, "the game is no longer waiting on that decision")
    return ruleset.timeout(table.rules, rng_at(table))


def tally(ruleset: Ruleset[Any], table: Table[Any]) -> list[Event]:
    """The final tally of a finished game, once: a tallied game needs nothing more."""
    if table.status is not Status.FINISHED:
        raise IllegalMoveError(TableRefusal.GAME_NOT_FINISHED, "the game has not finished yet")
    return [] if table.tallied else [GameTallied(result=ruleset.result(table.rules))]


def start_if_full(ruleset: Ruleset[Any], table: Table[Any]) -> list[Event]:
    if any(s.is_open for s in table.seats):
        return []
    started = GameStarted()
    table = evolve(ruleset, table, started)
    return [started, *ruleset.start(table.rules, rng_at(table))]


def evolve(ruleset: Ruleset[S], table: Table[S] | None, event: Event, at: str = "") -> Table[S]:
    """The table after one event recorded at time `at`; game events go to the game's own `evolve`.

    The time is the envelope's, a fact of the log like the event: replaying the log gives the same table."""
    after = _evolve(ruleset, table, event, at)
    # Most of a log is the game's own events, whose table is made with its time already (a copy less each).
    return msgspec.structs.replace(after, moved_at=at) if at and after.moved_at != at else after


def _evolve(ruleset: Ruleset[S], table: Table[S] | None, event: Event, at: str) -> Table[S]:
    if isinstance(event, GameCreated):
        return Table(
            game_id=event.game_id,
            ruleset=event.ruleset,
            seats=event.seats,
            options=event.options,
            seed=event.seed,
            salt=event.salt,
            seed_commitment=event.seed_commitment,
            created_at=event.created_at,
            version=1,
            status_since=1,
            wait_since=1,
            wait_started_at=at or event.created_at,
            moved_at=at or event.created_at,
            creator=event.creator,
            founders=tuple(i for i, s in enumerate(event.seats) if s.name is not None),
            rematch_of=event.rematch_of,
        )
    assert table is not None, "a game's first event is game_created"
    version = table.version + 1
    if not isinstance(event, TABLE_EVENTS):  # most of a log: the game's own events
        return _evolve_rules(ruleset, table, event, at, version)
    if isinstance(event, SeatJoined | SeatLeft | BotsSeated):  # the wait for players begins again
        seats = list(table.seats)
        if isinstance(event, BotsSeated):
            for seat in event.seats:
                seats[seat] = Seat(bot=event.bot)
        else:
            seats[event.seat] = Seat(name=event.name, player=event.player) if isinstance(event, SeatJoined) else Seat()
        founders = tuple(f for f in table.founders if isinstance(event, BotsSeated) or f != event.seat)
        return msgspec.structs.replace(
            table,
            seats=tuple(seats),
            founders=founders,
            version=version,
            status_since=version,
            wait_since=version,
            wait_started_at=at,
        )
    if isinstance(event, SeatResigned):
        resigned = tuple(sorted({*table.resigned, event.seat}))
        return msgspec.structs.replace(table, resigned=resigned, version=version, status_since=version)
    if isinstance(event, GameAborted):
        return msgspec.structs.replace(table, status=Status.ABORTED, version=version, status_since=version)
    if isinstance(event, RematchCreated):
        return msgspec.structs.replace(table, rematch=event.game_id, version=version)
    if isinstance(event, GameStarted):  # the first wait begins
        rules = ruleset.initial_state(len(table.seats), table.options)
        return msgspec.structs.replace(
            table,
            status=Status.IN_PROGRESS,
            rules=rules,
            version=version,
            wait_since=version,
            wait_started_at=at,
            status_since=version,
        )
    if isinstance(event, GameTallied):
        return msgspec.structs.replace(table, tallied=True, version=version, status_since=version)
    if isinstance(event, AutoPassSet):
        chosen = [*table.auto_pass, *[()] * (len(table.seats) - len(table.auto_pass))]
        chosen[event.seat] = event.decisions
        return msgspec.structs.replace(table, auto_pass=tuple(chosen), version=version, status_since=version)
    raise AssertionError(f"a table event without its evolve: {event.type}")


def _evolve_rules(ruleset: Ruleset[S], table: Table[S], event: Event, at: str, version: int) -> Table[S]:
    """The table after one of the game's own events: the game's `evolve`, then the end and the wait."""
    assert table.rules is not None, "a game's own events follow game_started"
    rules = ruleset.evolve(table.rules, event)
    status = Status.FINISHED if ruleset.is_over(rules) else table.status
    since = version if status is not table.status else table.status_since
    ended = version if status is not table.status else table.ended_at
    anew = waits_anew(ruleset, table.rules, rules)
    return msgspec.structs.replace(
        table,
        rules=rules,
        status=status,
        version=version,
        status_since=since,
        ended_at=ended,
        wait_since=version if anew else table.wait_since,
        wait_started_at=at if anew else table.wait_started_at,
        moved_at=at or table.moved_at,
    )


def waits_anew(ruleset: Ruleset[S], before: S, after: S) -> bool:
    """Whether the game, one event after `before`, begins a new wait: the one deadlines count from.

    It does when it awaits a (seat, decision) that `before` did not: a new phase, the next seat in turn.
    A seat deciding in a simultaneous round leaves the others awaited on what they already owed, a subset:
    their wait goes on. Where the same seat owes the same kind of decision again (each pick of a lone
    sharer), only the game can tell it is a new one: it says so in `Ruleset.renews_wait`. Nothing awaited,
    no wait."""
    owed_before = _awaiting(ruleset, before)  # in a fold, the `after` of the event before: worked out already
    owed = _awaiting(ruleset, after)
    return bool(owed) and (not owed.items() <= owed_before.items() or ruleset.renews_wait(before, after))


_awaited: tuple[Any, Mapping[int, str]] = (None, {})
"""The last state `waits_anew` asked `awaiting` about, and the answer: a fold asks of each state twice, as the
state after one event and then as the state before the next (the state is immutable; it is held, so it is the
same object)."""


def _awaiting(ruleset: Ruleset[S], state: S) -> Mapping[int, str]:
    global _awaited
    last, owed = _awaited
    if last is not state:
        owed = ruleset.awaiting(state)
        _awaited = (state, owed)
    return owed


TABLE_SECRET_FIELDS: dict[type[Event], tuple[str, ...]] = {GameCreated: ("seed", "salt")}
"""The fields of table events nobody but EVERYONE sees: the seed and its salt, until the game is over."""


def event_view(ruleset: Ruleset[Any], event: Event, viewer: Viewer) -> dict[str, Any]:
    """An event's payload as a viewer may see it: the seed stays secret until the game is over.

    The caller passes EVERYONE once the game is finished: then the whole log is public."""
    if isinstance(event, TABLE_EVENTS):
        payload: dict[str, Any] = msgspec.to_builtins(event)
        if isinstance(event, GameCreated) and viewer != EVERYONE:
            for secret in TABLE_SECRET_FIELDS[GameCreated]:
                del payload[secret]
        return payload
    return ruleset.event_view(event, viewer)


def deadline_at(ruleset: Ruleset[Any], table: Table[Any]) -> str | None:
    """When the current wait ends (UTC, ISO 8601), if it has a time limit."""
    limit = time_limit(ruleset, table)
    if limit is None or not table.wait_started_at:
        return None
    started = datetime.fromisoformat(table.wait_started_at)
    return utc_iso(started + timedelta(seconds=limit))


def utc_iso(moment: datetime) -> str:
    """The service's way of writing a time: `2026-12-01T07:42:20.123Z`."""
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# --- what `view` shows: declared once, typed per ruleset by games/schema.py -----------------------------------


class SeatView(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A seat: its number, who holds it (a player's `name` or a `bot` kind), and whether it is still open."""

    seat: Annotated[int, Meta(description="the seat's number, from 0 in play order")]
    name: Annotated[str, Meta(description="a human seat's name (its player's, if a player holds it)")] | UnsetType = (
        UNSET
    )
    bot: Annotated[str, Meta(description="a bot seat's kind")] | UnsetType = UNSET
    player: Annotated[str, Meta(description="the registered player's id, if a player holds the seat")] | UnsetType = (
        UNSET
    )
    invited: (
        Annotated[str, Meta(description="an open seat kept for this player (its id): only that player may take it")]
        | UnsetType
    ) = UNSET
    kept_for: (
        Annotated[
            int,
            Meta(
                description="an open seat a rematch keeps for whoever held this seat of the game it replays: only a "
                "join with that seat's token takes it"
            ),
        ]
        | UnsetType
    ) = UNSET
    open: Annotated[bool, Meta(description="whether the seat is open, for someone to join")]
    resigned: Annotated[bool, Meta(description="the seat resigned: the random bot plays it")] | UnsetType = UNSET
    auto_pass: (
        Annotated[list[str], Meta(description="the decisions the house passes for the seat, as it asked (if any)")]
        | UnsetType
    ) = UNSET


class AwaitingView(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A seat the game waits on, and the decision it owes (games/schema.py lists each ruleset's decisions)."""

    seat: Annotated[int, Meta(description="the seat awaited")]
    decision: Annotated[str, Meta(description="what it owes: one of its ruleset's decisions")]
    simultaneous: Annotated[
        bool,
        Meta(
            description="every seat awaited makes this decision at once, without seeing the others' (revealed "
            "together): another seat's move changes nothing of your options, so a move needs no `If-Match`; false: "
            "a turn-based decision, where a move should send `If-Match`"
        ),
    ]
    deadline_at: Annotated[Timestamp | None, Meta(description="when the deadline falls, if any")] | UnsetType = UNSET


Version = Annotated[int, Meta(ge=0, description="the number of events in the game's log")]


class GameView(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The game as a viewer may see it. `options`, `awaiting`, `state` and `you` are typed per ruleset by
    games/schema.py, from each ruleset's own declarations."""

    game_id: Annotated[str, Meta(description="the game's id")]
    ruleset: Annotated[str, Meta(description="the game's ruleset: the shape of its options, state and you")]
    version: Version
    status: Annotated[Status, Meta(description="where the game is in its life")]
    created_at: Annotated[Timestamp, Meta(description="when the game was created (ISO 8601, UTC)")]
    options: Annotated[dict[str, Any], Meta(description="every option of the game, as set or by default")]
    seats: Annotated[list[SeatView], Meta(description="every seat, in play order")]
    seed_commitment: Annotated[str, Meta(description='sha256 of "<seed>:<salt>", both revealed at the end')]
    randomness: Annotated[
        Literal["secret", "public"],
        Meta(
            description="`secret`: the service drew the seed and keeps it and its salt secret until the end. "
            "`public`: the creator gave the seed; it reproduces the game, and whoever knows or guesses it can "
            "compute every shuffle and roll (for tests and replays, not for games whose deal must stay secret)"
        ),
    ]
    awaiting: Annotated[list[AwaitingView], Meta(description="the seats the game waits on now, and for what")]
    waiting_since: Annotated[
        int | None,
        Meta(
            description="the version of the event with which the current wait began (the game's start, a new "
            "round, the next seat's turn): deadlines count from it; null before the game starts"
        ),
    ]
    time_limit_s: Annotated[
        int | None, Meta(description="seconds the current wait may last (a deadline, an aiming window)")
    ]
    bots_at: (
        Annotated[
            Timestamp,
            Meta(
                description="a game waiting for players, with `bots_after_s`: when the house's bots take its open "
                "seats unless someone joins or leaves first (which starts the wait again)"
            ),
        ]
        | UnsetType
    ) = UNSET
    state: Annotated[Any, Meta(description="the game's own state; null until it starts")]
    rematch: Annotated[str, Meta(description="the game that replays this one, once asked for")] | UnsetType = UNSET
    rematch_of: Annotated[str, Meta(description="the game this one replays")] | UnsetType = UNSET
    seed: Annotated[int, Meta(description="revealed once the game is finished")] | UnsetType = UNSET
    salt: Annotated[str, Meta(description="revealed once the game is finished")] | UnsetType = UNSET
    you: (
        Annotated[Any, Meta(description="the caller's seat, for a seat token: its own state and `legal_moves`")]
        | UnsetType
    ) = UNSET


def seat_views(table: Table[Any]) -> list[SeatView]:
    """Every seat as a view and the lobby show it."""
    return [
        SeatView(
            seat=i,
            name=_given(s.name),
            bot=_given(s.bot),
            player=_given(s.player),
            invited=_given(s.invited),
            kept_for=_given(s.kept_for),
            open=s.is_open,
            resigned=True if i in table.resigned else UNSET,
            auto_pass=list(table.auto_pass[i]) if i < len(table.auto_pass) and table.auto_pass[i] else UNSET,
        )
        for i, s in enumerate(table.seats)
    ]


G = TypeVar("G", str, int)


def _given(value: G | None) -> G | UnsetType:
    """A field a view leaves out (UNSET) when the table has nothing (None) to show in it."""
    return UNSET if value is None else value


@functools.cache
def you_type(own: type[msgspec.Struct]) -> type[msgspec.Struct]:
    """What the table shows a seat under `you`: its number, its own as the game's `you_view` declares it (absent
    before the start), and the moves it may make, in that order (games/schema.py `you_schema` documents it).
    Its fields are positional: a seat's own goes in as a tuple, the quickest way on every move's views."""
    fields = [(f.name, f.type, f.default) for f in msgspec.structs.fields(own)]
    return msgspec.defstruct(own.__name__, [("seat", int), *fields, ("legal_moves", list[Move], [])])


def view(ruleset: Ruleset[Any], table: Table[Any], viewer: Viewer, house: bool = False) -> GameView:
    """The game as a viewer may see it: public state, who is awaited, and the viewer's own seat. A resigned
    seat is offered no moves (none would be taken from it), but the house, which plays it, is (`house`)."""
    return seen_by(ruleset, table, public_view(ruleset, table), viewer, house)


def views(ruleset: Ruleset[Any], table: Table[Any]) -> tuple[GameView, list[GameView]]:
    """The spectator's view and each seat's: what all of them show alike is worked out once."""
    public = public_view(ruleset, table)
    seats = [seen_by(ruleset, table, public, seat) for seat in range(len(table.seats))]
    return seen_by(ruleset, table, public, SPECTATOR), seats


def public_view(ruleset: Ruleset[Any], table: Table[Any]) -> GameView:
    """What every viewer's view shows alike: all but the game's own state and the viewer's seat."""
    finished = table.status is Status.FINISHED
    started = table.rules is not None
    due = deadline_at(ruleset, table)
    awaited = sorted((ruleset.awaiting(table.rules) if started else {}).items())
    return GameView(
        game_id=table.game_id,
        ruleset=table.ruleset,
        version=table.version,
        status=table.status,
        created_at=table.created_at,
        options=table.options,
        seats=seat_views(table),
        seed_commitment=table.seed_commitment,
        randomness=randomness(table),
        awaiting=[
            AwaitingView(
                seat=seat, decision=decision, simultaneous=decision in ruleset.simultaneous, deadline_at=due or UNSET
            )
            for seat, decision in awaited
        ],
        waiting_since=table.wait_since if started else None,
        time_limit_s=time_limit(ruleset, table),
        bots_at=bots_at(table) or UNSET,
        state=None,
        rematch=table.rematch or UNSET,
        rematch_of=table.rematch_of or UNSET,
        seed=table.seed if finished else UNSET,
        salt=table.salt if finished else UNSET,
    )


def seen_by(
    ruleset: Ruleset[Any], table: Table[Any], public: GameView, viewer: Viewer, house: bool = False
) -> GameView:
    """`public` (the table's `public_view`) with what `viewer` sees of the game's state, and of its own seat."""
    finished = table.status is Status.FINISHED
    started = table.rules is not None
    you: msgspec.Struct | UnsetType = UNSET
    if isinstance(viewer, int):
        playable = started and not finished and (house or viewer not in table.resigned)
        moves = ruleset.legal_moves(table.rules, viewer) if playable else []
        own = msgspec.structs.astuple(ruleset.you(table.rules, viewer)) if started else ()
        you = you_type(ruleset.you_view)(viewer, *own, legal_moves=moves)
    # a finished game is public, down to every hand
    state = ruleset.view(table.rules, EVERYONE if finished else viewer) if started else None
    return msgspec.structs.replace(public, state=state, you=you)


def plain_view(ruleset: Ruleset[Any], table: Table[Any], viewer: Viewer, house: bool = False) -> dict[str, Any]:
    """`view` as plain JSON values (dicts, lists), as the bots read it: `view["you"]["legal_moves"]`."""
    found: dict[str, Any] = msgspec.to_builtins(view(ruleset, table, viewer, house))
    return found
