"""Ca$h 'n Guns test builders: a started game with a stacked deck, and a turn played step by step.

table = new_game(4, godfather=0, piles=stacked("clip-1", "first-aid-1"))
table, events = hold_up(table, aims={0: 1, 1: 0, 2: 3, 3: 2}, loads={0: "bang"}, stands={3: False})
table, events = share(table)  # every standing seat takes the first card on the table, in turn
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.base import Event, Move
from games.cash_n_guns import RULESET
from games.cash_n_guns.events import GodfatherChosen, LootDealt, LootRevealed
from games.cash_n_guns.loot import DECK, deal
from games.cash_n_guns.moves import Aim, Courage, Load, OrderRetarget, Retarget, SkipPrivilege, Take
from games.cash_n_guns.state import Phase
from games.table import Table
from tests.games.helpers import apply, created, given, when

Step = tuple[Table[Any], list[Event]]


def stacked(*front: str) -> tuple[tuple[str, ...], ...]:
    """The 8 piles with `front` on top (the first pile holds its first 8 cards), the rest in deck order."""
    return deal([*front, *(card for card in DECK if card not in front)])


def new_game(
    seats: int = 4,
    godfather: int = 0,
    piles: Sequence[Sequence[str]] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Table[Any]:
    """A started game with `godfather` first; with `piles`, the deal is those piles instead of a shuffle."""
    events = created(RULESET, seats, {"first_godfather": godfather, **(options or {})})
    if piles is None:
        return given(RULESET, events)
    dealt = tuple(tuple(pile) for pile in piles)
    opening = [LootDealt(piles=dealt), GodfatherChosen(seat=godfather, drawn=False)]
    return apply(RULESET, given(RULESET, events[:2]), [*opening, LootRevealed(turn=1, cards=dealt[0])])


def moves(table: Table[Any], plays: Iterable[tuple[int, Move]]) -> Step:
    """Seats move one after the other: the table after, and every event made."""
    events: list[Event] = []
    for seat, move in plays:
        table, new = when(RULESET, table, seat, move)
        events += new
    return table, events


def alive(table: Table[Any]) -> list[int]:
    return [s for s, g in enumerate(table.rules.gangsters) if g.alive]


def load(table: Table[Any], loads: Mapping[int, str] | None = None) -> Step:
    """Every living seat loads: the card named in `loads`, by default a Click while it has one, else a Bang!."""

    def default(seat: int) -> str:
        return "click" if table.rules.gangsters[seat].clicks else "bang"

    return moves(table, [(s, Load(card=(loads or {}).get(s) or default(s))) for s in alive(table)])


def timeout(table: Table[Any]) -> Step:
    """The aiming window runs out."""
    events = RULESET.timeout(table.rules, random.Random(0))
    assert events is not None
    return apply(RULESET, table, events), events


def aim(table: Table[Any], aims: Mapping[int, int]) -> Step:
    """The seats in `aims` aim; if any living seat did not, the window then times out."""
    table, events = moves(table, [(s, Aim(target=t)) for s, t in aims.items()])
    if table.rules.phase is Phase.AIM:
        table, late = timeout(table)
        events += late
    return table, events


def privilege(table: Table[Any], order: tuple[int, int] | None) -> Step:
    """If the Godfather is awaited: order (seat, new target), or skip when `order` is None."""
    if table.rules.phase is not Phase.PRIVILEGE:
        return table, []
    godfather = table.rules.godfather
    if order is None:
        return moves(table, [(godfather, SkipPrivilege())])
    seat, target = order
    return moves(table, [(godfather, OrderRetarget(seat=seat)), (seat, Retarget(target=target))])


def courage(table: Table[Any], stands: Mapping[int, bool] | None = None) -> Step:
    """Every living seat chooses: as in `stands`, standing by default."""
    return moves(table, [(s, Courage(stand=(stands or {}).get(s, True))) for s in alive(table)])


def hold_up(
    table: Table[Any],
    aims: Mapping[int, int],
    loads: Mapping[int, str] | None = None,
    stands: Mapping[int, bool] | None = None,
    order: tuple[int, int] | None = None,
) -> Step:
    """A turn from loading to the bullets (and beyond, when nobody stands or the game ends)."""
    events: list[Event] = []
    for step in (
        lambda t: load(t, loads),
        lambda t: aim(t, aims),
        lambda t: privilege(t, order),
        lambda t: courage(t, stands),
    ):
        table, new = step(table)
        events += new
    return table, events


def share(table: Table[Any], picks: Sequence[str | None] = ()) -> Step:
    """The sharing: each pick is a card id or None for the token; then each picker takes the first card left."""
    events: list[Event] = []
    queue = list(picks)
    while table.rules.phase is Phase.SHARING and table.rules.sharer is not None:
        pick = queue.pop(0) if queue else table.rules.table_loot[0]
        move = Take(godfather_token=True) if pick is None else Take(loot=pick)
        table, new = when(RULESET, table, table.rules.sharer, move)
        events += new
    return table, events


def turn(
    table: Table[Any],
    aims: Mapping[int, int],
    loads: Mapping[int, str] | None = None,
    stands: Mapping[int, bool] | None = None,
    picks: Sequence[str | None] = (),
) -> Step:
    """A whole turn with no retarget order: hold-up, then the sharing."""
    table, events = hold_up(table, aims, loads, stands)
    table, shared = share(table, picks)
    return table, events + shared


def of_type(events: Iterable[Event], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def ring(seats: int) -> dict[int, int]:
    """Each seat aims at the next one clockwise."""
    return {s: (s + 1) % seats for s in range(seats)}
