"""The state of a Ca$h 'n Guns game and how each fact changes it (`evolve`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any

import msgspec

from games.base import Event, dispatcher
from games.cash_n_guns import events as ev
from games.cash_n_guns.loot import CLIP_BANGS, KIT_HEALS, kind

TURNS = 8
START_BANGS, START_CLICKS = 3, 5
DEAD_AT = 3
"""Wounds that kill."""
BANG_WOUNDS = 1
"""Wounds one Bang! deals when it is fired; a Click deals none."""


class Phase(StrEnum):
    """Where a turn stands. `between_turns`, `bullets` never last beyond the command that reached them."""

    BETWEEN_TURNS = "between_turns"
    LOAD = "load"
    AIM = "aim"
    PRIVILEGE = "privilege"
    RETARGET = "retarget"
    COURAGE = "courage"
    BULLETS = "bullets"
    SHARING = "sharing"
    OVER = "over"


class Gangster(msgspec.Struct, frozen=True, kw_only=True):
    """One seat: its health, bullet cards in hand, this turn's choices and its loot."""

    alive: bool = True
    wounds: int = 0
    bangs: int = START_BANGS
    clicks: int = START_CLICKS
    loaded: str | None = None
    aimed: bool = False
    target: int | None = None
    stand: bool | None = None
    standing: bool = False
    loot: tuple[str, ...] = ()


class State(msgspec.Struct, frozen=True, kw_only=True):
    seats: int
    first_godfather: int | None
    aim_window_s: int
    gangsters: tuple[Gangster, ...]
    piles: tuple[tuple[str, ...], ...] = ()
    table_loot: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()
    """Loot out of the game for good: left untaken after the 8th turn, or on the table when the game ended."""
    godfather: int = 0
    turn: int = 0
    phase: Phase = Phase.BETWEEN_TURNS
    token_available: bool = False
    token_taker: int | None = None
    ordered: int | None = None
    sharer: int | None = None
    last_shots: ev.ShotsResolved | None = None
    ended: str | None = None


def initial_state(seats: int, options: Mapping[str, Any]) -> State:
    """Each seat holds 5 Click and 3 Bang! cards and no wound; nothing is dealt yet."""
    return State(
        seats=seats,
        first_godfather=options.get("first_godfather"),
        aim_window_s=options.get("aim_window_s") or 15,
        gangsters=(Gangster(),) * seats,
    )


# --- questions about a state ------------------------------------------------------------------------------


def living(state: State) -> list[int]:
    """The seats still alive, in seat order."""
    return [s for s, g in enumerate(state.gangsters) if g.alive]


def clockwise_from(state: State, seat: int, *, inclusive: bool) -> list[int]:
    """Every seat in clockwise order starting at `seat` (or just after it)."""
    start = seat if inclusive else seat + 1
    return [(start + step) % state.seats for step in range(state.seats)]


def next_standing(state: State, seat: int, *, inclusive: bool) -> int | None:
    """The nearest standing seat clockwise from `seat`, None if nobody stands."""
    return next((s for s in clockwise_from(state, seat, inclusive=inclusive) if state.gangsters[s].standing), None)


def alternative_targets(state: State, seat: int) -> list[int]:
    """Where an ordered seat may aim instead: a living seat other than itself and its current target."""
    current = state.gangsters[seat].target
    return [t for t in living(state) if t not in (seat, current)]


def orderable(state: State) -> list[int]:
    """The seats the Godfather may order: other living seats aiming at someone, with somewhere else to aim."""
    return [
        s
        for s in living(state)
        if s != state.godfather and state.gangsters[s].target is not None and alternative_targets(state, s)
    ]


def next_godfather(state: State) -> int:
    """The token's taker; else the Godfather stays; a dead Godfather passes to the nearest living seat clockwise."""
    if state.token_taker is not None:
        return state.token_taker
    if state.gangsters[state.godfather].alive:
        return state.godfather
    return next(s for s in clockwise_from(state, state.godfather, inclusive=False) if state.gangsters[s].alive)


# --- evolve -------------------------------------------------------------------------------------------------


def _with(state: State, seat: int, **changes: Any) -> tuple[Gangster, ...]:
    """The gangsters with one of them changed."""
    gangsters = list(state.gangsters)
    gangsters[seat] = msgspec.structs.replace(gangsters[seat], **changes)
    return tuple(gangsters)


def _all(state: State, **changes: Any) -> tuple[Gangster, ...]:
    return tuple(msgspec.structs.replace(g, **changes) for g in state.gangsters)


def _loaded(state: State, event: ev.BulletLoaded) -> State:
    gangster = state.gangsters[event.seat]
    hand = {"bangs": gangster.bangs - 1} if event.card == "bang" else {"clicks": gangster.clicks - 1}
    return msgspec.structs.replace(state, gangsters=_with(state, event.seat, loaded=event.card, **hand))


def _shot(state: State, event: ev.ShotsResolved) -> State:
    """Bullets spent, wounds taken, the dead out; the standing seats share, the Godfather's side first."""
    gangsters = tuple(
        msgspec.structs.replace(
            g,
            loaded=None,
            wounds=g.wounds + event.hits[s],
            alive=g.alive and s not in event.died,
            standing=g.alive and s not in event.died and bool(g.stand) and event.hits[s] == 0,
        )
        for s, g in enumerate(state.gangsters)
    )
    state = msgspec.structs.replace(state, gangsters=gangsters, phase=Phase.SHARING, last_shots=event)
    return msgspec.structs.replace(state, sharer=next_standing(state, state.godfather, inclusive=True))


def _took_loot(state: State, event: ev.LootTaken) -> State:
    """The card moves to the seat; a clip adds a Bang! card, a first-aid kit heals a wound."""
    gangster = state.gangsters[event.seat]
    effect: dict[str, int] = {}
    if kind(event.card) == "clip":
        effect = {"bangs": gangster.bangs + CLIP_BANGS}
    elif kind(event.card) == "first-aid":
        effect = {"wounds": max(0, gangster.wounds - KIT_HEALS)}
    table_loot = tuple(c for c in state.table_loot if c != event.card)
    gangsters = _with(state, event.seat, loot=(*gangster.loot, event.card), **effect)
    return _passed_on(msgspec.structs.replace(state, table_loot=table_loot, gangsters=gangsters), event.seat)


def _passed_on(state: State, seat: int) -> State:
    """The next standing seat clockwise picks, until no loot card is left."""
    sharer = next_standing(state, seat, inclusive=False) if state.table_loot else None
    return msgspec.structs.replace(state, sharer=sharer)


def _turn_started(state: State, event: ev.LootRevealed) -> State:
    return msgspec.structs.replace(
        state,
        turn=event.turn,
        phase=Phase.LOAD,
        piles=state.piles[1:],
        table_loot=(*state.table_loot, *event.cards),
        token_available=True,
        token_taker=None,
        ordered=None,
        sharer=None,
        gangsters=_all(state, aimed=False, target=None, stand=None, standing=False),
    )


def _guns_drawn(state: State, event: ev.GunsDrawn) -> State:
    gangsters = tuple(msgspec.structs.replace(g, target=event.aims[s]) for s, g in enumerate(state.gangsters))
    return msgspec.structs.replace(state, gangsters=gangsters, phase=Phase.PRIVILEGE)


def _turn_ended(state: State, event: ev.TurnEnded) -> State:
    lost = (*state.lost, *event.lost)
    return msgspec.structs.replace(
        state, godfather=event.godfather, table_loot=event.carried, lost=lost, phase=Phase.BETWEEN_TURNS
    )


def _game_ended(state: State, event: ev.GameEnded) -> State:
    """Loot still on the table (the game ended at once, before a sharing) leaves the game, unshared."""
    return msgspec.structs.replace(
        state,
        phase=Phase.OVER,
        ended=event.reason,
        sharer=None,
        ordered=None,
        table_loot=(),
        lost=(*state.lost, *state.table_loot),
    )


_replace = msgspec.structs.replace
EVOLVERS: dict[type[Event], Callable[[State, Any], State]] = {
    ev.LootDealt: lambda s, e: _replace(s, piles=e.piles),
    ev.GodfatherChosen: lambda s, e: _replace(s, godfather=e.seat),
    ev.LootRevealed: _turn_started,
    ev.BulletLoaded: _loaded,
    ev.HoldUpStarted: lambda s, e: _replace(s, phase=Phase.AIM),
    ev.Aimed: lambda s, e: _replace(s, gangsters=_with(s, e.seat, aimed=True, target=e.target)),
    ev.GunsDrawn: _guns_drawn,
    ev.RetargetOrdered: lambda s, e: _replace(s, phase=Phase.RETARGET, ordered=e.seat),
    ev.PrivilegeSkipped: lambda s, e: _replace(s, phase=Phase.COURAGE),
    ev.Retargeted: lambda s, e: _replace(s, gangsters=_with(s, e.seat, target=e.target), phase=Phase.COURAGE),
    ev.CourageChosen: lambda s, e: _replace(s, gangsters=_with(s, e.seat, stand=e.stand)),
    ev.CourageRevealed: lambda s, e: _replace(s, phase=Phase.BULLETS),
    ev.ShotsResolved: _shot,
    ev.LootTaken: _took_loot,
    ev.TokenTaken: lambda s, e: _passed_on(_replace(s, token_available=False, token_taker=e.seat), e.seat),
    ev.TurnEnded: _turn_ended,
    ev.GameEnded: _game_ended,
}
"""How each fact changes the state, by event type."""

evolve = dispatcher(EVOLVERS, "Ca$h 'n Guns")
"""The state after one fact."""
