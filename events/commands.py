"""The commands a game's log records, on the first event of each batch: what was asked, as the rules read it.

A log stores each as plain JSON, `{"name": "move", "seat": 1, "move": {"type": "play", "card": 7}}`, the shape
it has had since the first log; here each is a type, so code dispatches on types, not on strings.
"""

from __future__ import annotations

from typing import Any

import msgspec


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="name", omit_defaults=True):
    """Something asked of a game. `name` is the stored tag."""


class CreateGame(Command, frozen=True, tag="create"):
    """The game was created (its setup is in the `game_created` event itself)."""


class JoinGame(Command, frozen=True, tag="join"):
    """`player` is the name taken; `player_id` the registered player who took it, if one did."""

    player: str
    player_id: str | None = None


class LeaveGame(Command, frozen=True, tag="leave"):
    seat: int


class ResignGame(Command, frozen=True, tag="resign"):
    seat: int


class AbortGame(Command, frozen=True, tag="abort"):
    """Asked by a seat named at creation, or by the creating player."""

    seat: int | None = None
    player_id: str | None = None


class CreateRematch(Command, frozen=True, tag="rematch"):
    seat: int
    game_id: str


class MakeMove(Command, frozen=True, tag="move"):
    """A seat's move, as parsed; `by` names the house (`bot`, `deadline`) when it moved for the seat."""

    seat: int
    move: dict[str, Any]
    by: str | None = None


class CloseWait(Command, frozen=True, tag="timeout"):
    """The game's own rule for lateness, applied to the wait that began at `wait_since`."""

    wait_since: int


class TallyGame(Command, frozen=True, tag="tally"):
    """The final tally of a finished game."""


AnyCommand = (
    CreateGame | JoinGame | MakeMove | CloseWait | TallyGame | LeaveGame | ResignGame | AbortGame | CreateRematch
)


def parse(stored: dict[str, Any]) -> AnyCommand:
    """The command a log recorded; msgspec.ValidationError if it is none."""
    command: AnyCommand = msgspec.convert(stored, AnyCommand)
    return command


def stored(command: Command) -> dict[str, Any]:
    """The command as a log records it."""
    return msgspec.to_builtins(command)  # type: ignore[no-any-return]
