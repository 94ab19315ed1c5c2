"""What a read model is: how the registry (projections/__init__.py) feeds it, whatever it keeps.

A read model is fed `Change`s: a decision's table before and after it (a rebuild feeds each game's last table,
from nothing). Two kinds, by where they live:
- a `GameDocument` lives in the game's own slot and is written in the commit's one script with the events, so a
  client reads its own writes: each viewer's view, the result;
- a `ReadModel` lives apart (the lobby, each player's games, the ratings): brought up to each change it is fed
  once the change is saved, forward only and idempotently, so one fed twice, late, or beside a rebuild converges.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.base import Ruleset
from games.table import Table
from projections.notice_types import Told

Document = bytes | Mapping[str, bytes]
"""What a game document holds: one value (the result), or fields by name (a view per viewer), which the store
keeps with the version and format they show."""

Notice = tuple[str, str, Told]
"""Something to tell a player on its live feed: the player, the notice's key (told once however often it is
told), the notice."""


@dataclass(frozen=True)
class Change:
    """A saved decision as read models see it: the game's rules, its table before (None: a new game, or a catch-up
    or rebuild that starts from nothing) and after, and when its last event was stored (for a catch-up or a
    rebuild, when the game was tallied: the order of the ratings)."""

    ruleset: Ruleset[Any]
    before: Table[Any] | None
    after: Table[Any]
    at: str


class GameDocument(Protocol):
    """A read model in the game's own slot, rendered from the table after each decision."""

    def key(self, game_id: str) -> str:
        """Where the game's document is kept (under the game's hash tag)."""

    def render(self, ruleset: Ruleset[Any], table: Table[Any]) -> Document | None:
        """The document as of this table; None: nothing to keep yet (a result before the end)."""


class Rebuild(Protocol):
    """A read model being rebuilt after a drop: fed each game's last change, in no order, then finished."""

    def add(self, change: Change) -> None: ...

    def finish(self) -> None: ...


class ReadModel(Protocol):
    """A read model apart from the games: the registry applies each change it is fed once the change is saved."""

    def fed_by(self, change: Change) -> bool:
        """Whether the change shows in this model (a move that changes nothing it shows costs nothing)."""

    def apply(self, change: Change) -> Sequence[Notice]:
        """Bring the model up to the change (forward only, idempotent); what it tells the players (a rating)."""

    def rebuild(self) -> Rebuild:
        """A rebuild of the model from every game, after a drop."""

    def drop(self) -> int:
        """Delete what the model keeps (the logs stay); how many keys went."""


class Applies(Protocol):
    def apply(self, change: Change) -> Sequence[Notice]: ...


class Applying:
    """The rebuild of a model whose `apply` is its rebuild too: each game's last change applied as it comes."""

    def __init__(self, model: Applies) -> None:
        self.model = model

    def add(self, change: Change) -> None:
        self.model.apply(change)

    def finish(self) -> None:
        return None


class AppliesMany(Protocol):
    def apply_many(self, changes: Sequence[Change]) -> None: ...


class Batching:
    """The rebuild of a model that writes many games' changes in one round trip (`apply_many`): the changes fed
    are held until `size` of them are, then written together."""

    def __init__(self, model: AppliesMany, size: int = 100) -> None:
        self.model = model
        self.size = size
        self.held: list[Change] = []

    def add(self, change: Change) -> None:
        self.held.append(change)
        if len(self.held) >= self.size:
            self.finish()

    def finish(self) -> None:
        if self.held:
            self.model.apply_many(self.held)
            self.held = []
