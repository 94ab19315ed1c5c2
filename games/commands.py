"""Every command a game's log records, and the one decision the table makes of each.

A use case builds a command and asks `decide`; the audit parses the command a log recorded with each batch of
events and asks `decide` again. Both ask the same table (`DECISIONS`), so a log's events are what the rules decide
for the commands it records, by construction, and a new command is one class and one line of the table.

A log stores each command as plain JSON, `{"name": "move", "seat": 1, "move": {"type": "play", "card": 7}}`, the
shape it has had since the first log (`stored`, `recorded`). Creation is the one command recorded bare: its setup
(seats, options, seed) is in its `game_created` event, whole, and the audit reads it back from there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Literal

import msgspec

from games import lifecycle
from games import table as tables
from games.base import Event, Ruleset
from games.table import GameCreated, Seat, Table


class Setup(msgspec.Struct, frozen=True, kw_only=True):
    """What a new game is made of. The seed, salt and time come from outside the rules, and are recorded as facts
    in `game_created`."""

    game_id: str
    seats: tuple[Seat, ...]
    options: dict[str, Any]
    seed: int
    salt: str
    created_at: str = ""
    creator: str | None = None
    rematch_of: str | None = None

    @classmethod
    def of(cls, created: GameCreated) -> Setup:
        """The setup a `game_created` event records."""
        return cls(
            game_id=created.game_id,
            seats=created.seats,
            options=created.options,
            seed=created.seed,
            salt=created.salt,
            created_at=created.created_at,
            creator=created.creator,
            rematch_of=created.rematch_of,
        )


By = Literal["bot", "deadline", "auto_pass"]
"""Who in the house moved for a seat: its bot (a bot's seat, or one that resigned), a deadline, or the house passing
a decision the seat asked it to pass (`SetAutoPass`)."""


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="name", omit_defaults=True):
    """Something asked of a game. `name` is the stored tag; a field at its default is left out of the log.

    Each command's docstring is what the OpenAPI document says of it (games/schema.py `commands`)."""

    unstored: ClassVar[tuple[str, ...]] = ()
    """Fields the command carries in memory only: the log records it without them."""

    def stored(self) -> dict[str, Any]:
        """The command as a log records it."""
        found: dict[str, Any] = msgspec.to_builtins(self)
        for name in self.unstored:
            found.pop(name, None)
        return found


class CreateGame(Command, frozen=True, tag="create"):
    """A game was created."""

    unstored = ("setup",)  # recorded bare: the setup is in its `game_created` event, whole
    setup: Setup | None = None


class JoinGame(Command, frozen=True, tag="join"):
    """Someone took an open seat: `player` is the name taken, `player_id` the registered player, if one did;
    `rejoin` the seat it held in the game this one replays, if it showed that seat's token."""

    player: str
    player_id: str | None = None
    rejoin: int | None = None


class MakeMove(Command, frozen=True, tag="move"):
    """A seat moved: by its player, or `by` the house (a bot, or a random move at a deadline)."""

    seat: int
    move: dict[str, Any]
    """The move's body as parsed, read again by the game's `parse_move`; documented as a `Move`."""
    by: By | None = None


class LeaveGame(Command, frozen=True, tag="leave"):
    """A seat's holder left a game that had not started."""

    seat: int


class ResignGame(Command, frozen=True, tag="resign"):
    """A seat resigned: the random bot plays it to the end."""

    seat: int


class AbortGame(Command, frozen=True, tag="abort"):
    """The game was called off before it started, by a seat named at creation or by the creating player."""

    seat: int | None = None
    player_id: str | None = None
    """Only when that player is the creator."""


class CreateRematch(Command, frozen=True, tag="rematch"):
    """A seat asked for a rematch: `game_id` is the new game's."""

    seat: int
    game_id: str
    """Drawn by the service."""


class StartWithBots(Command, frozen=True, tag="start_with_bots"):
    """The house's bots took the open seats so that the game starts: asked for by a seat or the creating player,
    or by the house when the game's `bots_after_s` had passed since `wait_since`."""

    seat: int | None = None
    player_id: str | None = None
    """Only when that player is the creator."""
    wait_since: int | None = None
    """The house's request: the version its wait for players began at."""


class CloseWait(Command, frozen=True, tag="timeout"):
    """A wait's time ran out (the game's own rule, e.g. the aiming window)."""

    wait_since: int
    """The version the wait began at: the rule applies to that wait only."""


class SetAutoPass(Command, frozen=True, tag="auto_pass"):
    """A seat chose the decisions the house passes for it, whatever it holds (none: it passes each itself)."""

    seat: int
    decisions: tuple[str, ...] = ()


class TallyGame(Command, frozen=True, tag="tally"):
    """The final tally was recorded."""


AnyCommand = (
    CreateGame
    | JoinGame
    | MakeMove
    | LeaveGame
    | ResignGame
    | AbortGame
    | CreateRematch
    | StartWithBots
    | CloseWait
    | TallyGame
    | SetAutoPass
)


def recorded(stored: dict[str, Any], first: Event | None = None) -> AnyCommand:
    """The command a log recorded, with the first event it caused (a creation's setup is read back from it);
    msgspec.ValidationError if it is none."""
    command: AnyCommand = msgspec.convert(stored, AnyCommand)
    if isinstance(command, CreateGame) and isinstance(first, GameCreated):
        return CreateGame(setup=Setup.of(first))
    return command


# --- the decisions -----------------------------------------------------------------------------------------------


def _create(ruleset: Ruleset[Any], table: Table[Any] | None, command: CreateGame) -> list[Event]:
    if table is not None or command.setup is None:
        raise ValueError("a game is created once, first, from a setup")
    s = command.setup
    return tables.create(
        ruleset, s.game_id, list(s.seats), s.options, s.seed, s.salt, s.created_at, s.creator, s.rematch_of
    )


def _join(ruleset: Ruleset[Any], table: Table[Any], command: JoinGame) -> list[Event]:
    return tables.join(ruleset, table, command.player, command.player_id, command.rejoin)


def _move(ruleset: Ruleset[Any], table: Table[Any], command: MakeMove) -> list[Event]:
    # Read leniently: a log written before unknown fields were refused keeps what it recorded.
    return tables.play(ruleset, table, command.seat, ruleset.parse_move(command.move, strict=False), command.by)


def _leave(ruleset: Ruleset[Any], table: Table[Any], command: LeaveGame) -> list[Event]:
    return lifecycle.leave(table, command.seat)


def _resign(ruleset: Ruleset[Any], table: Table[Any], command: ResignGame) -> list[Event]:
    return lifecycle.resign(table, command.seat)


def _abort(ruleset: Ruleset[Any], table: Table[Any], command: AbortGame) -> list[Event]:
    return lifecycle.abort(table, command.seat, command.player_id)


def _rematch(ruleset: Ruleset[Any], table: Table[Any], command: CreateRematch) -> list[Event]:
    return lifecycle.rematch(table, command.seat, command.game_id)


def _start_with_bots(ruleset: Ruleset[Any], table: Table[Any], command: StartWithBots) -> list[Event]:
    return lifecycle.start_with_bots(ruleset, table, command.seat, command.player_id, command.wait_since)


def _close_wait(ruleset: Ruleset[Any], table: Table[Any], command: CloseWait) -> list[Event]:
    return tables.timeout(ruleset, table, command.wait_since) or []


def _auto_pass(ruleset: Ruleset[Any], table: Table[Any], command: SetAutoPass) -> list[Event]:
    return tables.set_auto_pass(ruleset, table, command.seat, command.decisions)


def _tally(ruleset: Ruleset[Any], table: Table[Any], command: TallyGame) -> list[Event]:
    return tables.tally(ruleset, table)


Decision = Callable[[Ruleset[Any], Any, Any], list[Event]]
"""What the rules decide for a command of one type, on the table as it stands (None: no game yet). Each decision
takes the command of its own type, which a mapping keyed by type cannot tell a type checker: hence `Any`."""

DECISIONS: dict[type[Command], Decision] = {
    CreateGame: _create,
    JoinGame: _join,
    MakeMove: _move,
    LeaveGame: _leave,
    ResignGame: _resign,
    AbortGame: _abort,
    CreateRematch: _rematch,
    StartWithBots: _start_with_bots,
    CloseWait: _close_wait,
    TallyGame: _tally,
    SetAutoPass: _auto_pass,
}
"""The command table: each command's decision, for the use cases and the audit alike."""


def decide(ruleset: Ruleset[Any], table: Table[Any] | None, command: Command) -> list[Event]:
    """The events the rules decide for a command on the table as it stands (no events: nothing to do); RuleError
    if they refuse it, ValueError for a command that does not fit where it is (a creation after the first)."""
    if table is None and not isinstance(command, CreateGame):
        raise ValueError(f"a game's log starts with its creation, not a {type(command).__name__}")
    return DECISIONS[type(command)](ruleset, table, command)
