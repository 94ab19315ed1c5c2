"""How each fact of Ca$h 'n Guns changes the state: `evolve`, one small function per event type."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from games.base import Event, dispatcher
from games.cash_n_guns import events as ev
from games.cash_n_guns.loot import CLIP_BANGS, KIT_HEALS, kind
from games.cash_n_guns.state import Gangster, Phase, State, next_standing


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
    card_kind = kind(event.card)
    if card_kind == "clip":
        effect = {"bangs": gangster.bangs + CLIP_BANGS}
    elif card_kind == "first-aid":
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
