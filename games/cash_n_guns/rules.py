"""Ca$h 'n Guns as a decider: the opening facts, a seat's move, a late window, and every step that follows.

See `games/cash_n_guns/__init__.py` for the rules and rulings. A move makes one fact; `_followed` then adds
every fact that is due without anyone deciding (the window closing, the reveal, the bullets, the next
turn...) until the game waits on a seat again or is over.
"""

from __future__ import annotations

import random

from games.base import Event, Move, Result
from games.cash_n_guns import events as ev
from games.cash_n_guns import moves as mv
from games.cash_n_guns.evolve import evolve
from games.cash_n_guns.legality import check
from games.cash_n_guns.loot import DECK, deal, tally
from games.cash_n_guns.state import BANG_WOUNDS, DEAD_AT, TURNS, Phase, State, living, next_godfather, orderable


def start(state: State, rng: random.Random) -> list[Event]:
    """Shuffle and deal the loot into 8 piles, choose the first Godfather, reveal the first pile."""
    deck = list(DECK)
    rng.shuffle(deck)
    if state.first_godfather is not None:
        chosen = ev.GodfatherChosen(seat=state.first_godfather, drawn=False)
    else:
        chosen = ev.GodfatherChosen(seat=rng.randrange(state.seats), drawn=True)
    return _followed(state, [ev.LootDealt(piles=deal(deck)), chosen])


def is_over(state: State) -> bool:
    """After the 8th turn, or once one seat or none is left alive."""
    return state.phase is Phase.OVER


def decide(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    """The fact a legal move makes, then whatever follows from it by the rules alone."""
    check(state, seat, move)
    return _followed(state, [_fact(state, seat, move)])


def _fact(state: State, seat: int, move: Move) -> Event:
    match move:
        case mv.Load(card=card):
            return ev.BulletLoaded(seat=seat, card=card)
        case mv.Aim(target=target):
            return ev.Aimed(seat=seat, target=target)
        case mv.OrderRetarget(seat=ordered):
            return ev.RetargetOrdered(godfather=seat, seat=ordered)
        case mv.SkipPrivilege():
            return ev.PrivilegeSkipped(godfather=seat, automatic=False)
        case mv.Retarget(target=target):
            previous = state.gangsters[seat].target
            assert previous is not None, "only an aiming seat is ordered"
            return ev.Retargeted(seat=seat, previous=previous, target=target)
        case mv.Courage(stand=stand):
            return ev.CourageChosen(seat=seat, stand=stand)
        case mv.Take(loot=str(card)):
            return ev.LootTaken(seat=seat, card=card)
    return ev.TokenTaken(seat=seat)


def time_limit(state: State) -> int | None:
    """The hold-up window's length while it is open; other waits use the table's move deadline."""
    return state.aim_window_s if state.phase is Phase.AIM else None


def renews_wait(before: State, after: State) -> bool:
    """Each pick of the sharing is a decision of its own, with its own deadline: after a pick the next one
    is owed anew, even by the same seat (a lone standing seat picks again and again)."""
    return after.phase is Phase.SHARING and after.sharer is not None and _picks_left(after) != _picks_left(before)


def _picks_left(state: State) -> tuple[int, bool]:
    """What the sharing still offers: the loot cards on the table, and whether the token is still there."""
    return len(state.table_loot), state.token_available


def timeout(state: State, rng: random.Random) -> list[Event] | None:
    """A closed window: a seat that has not aimed aims at nobody. Elsewhere lateness means nothing special."""
    if state.phase is not Phase.AIM:
        return None
    return _followed(state, [guns_drawn(state)])


def guns_drawn(state: State) -> ev.GunsDrawn:
    """The window closes: every aim is shown; the seats that did not aim in time aim at nobody."""
    return ev.GunsDrawn(
        aims=tuple(g.target if g.alive and g.aimed else None for g in state.gangsters),
        late=tuple(s for s in living(state) if not state.gangsters[s].aimed),
    )


# --- what follows by the rules alone ------------------------------------------------------------------------


def _followed(state: State, events: list[Event]) -> list[Event]:
    """The events, then every fact they make due, until the game waits on a seat or is over."""
    for event in events:
        state = evolve(state, event)
    events = list(events)
    while (fact := _due(state)) is not None:
        events.append(fact)
        state = evolve(state, fact)
    return events


def _due(state: State) -> Event | None:
    """The fact this state makes due without a seat's decision, if any."""
    everyone = [g for g in state.gangsters if g.alive]  # the living, asked after every event
    match state.phase:
        case Phase.BETWEEN_TURNS:
            return ev.GameEnded(reason="eighth_turn") if state.turn >= TURNS else _next_turn(state)
        case Phase.LOAD if all(g.loaded is not None for g in everyone):
            return ev.HoldUpStarted(turn=state.turn, window_s=state.aim_window_s)
        case Phase.AIM if all(g.aimed for g in everyone):
            return guns_drawn(state)
        case Phase.PRIVILEGE if not state.gangsters[state.godfather].alive or not orderable(state):
            return ev.PrivilegeSkipped(godfather=state.godfather, automatic=True)
        case Phase.COURAGE if all(g.stand is not None for g in everyone):
            return ev.CourageRevealed(stands=tuple(g.stand if g.alive else None for g in state.gangsters))
        case Phase.BULLETS:
            return shots(state)
        case Phase.SHARING if len(everyone) <= 1:
            return ev.GameEnded(reason="one_survivor" if everyone else "no_survivor")
        case Phase.SHARING if state.sharer is None:
            return _turn_ended(state)
    return None


def _next_turn(state: State) -> ev.LootRevealed:
    return ev.LootRevealed(turn=state.turn + 1, cards=state.piles[0])


def shots(state: State) -> ev.ShotsResolved:
    """All at once: a seat lying down, aiming at nobody or at a seat lying down discards unseen; Bang!s wound."""
    cards: list[str | None] = []
    hits = [0] * state.seats
    for gangster in state.gangsters:
        target = gangster.target
        if not gangster.alive:
            cards.append(None)
        elif not gangster.stand or target is None or not state.gangsters[target].stand:
            cards.append("discarded")
        else:
            cards.append(gangster.loaded)
            hits[target] += BANG_WOUNDS if gangster.loaded == "bang" else 0
    died = tuple(s for s, g in enumerate(state.gangsters) if g.alive and g.wounds + hits[s] >= DEAD_AT)
    return ev.ShotsResolved(turn=state.turn, cards=tuple(cards), hits=tuple(hits), died=died)


def _turn_ended(state: State) -> ev.TurnEnded:
    """Loot nobody could take stays for the next turn, or is lost after the last one."""
    last = state.turn >= TURNS
    return ev.TurnEnded(
        turn=state.turn,
        godfather=next_godfather(state),
        carried=() if last else state.table_loot,
        lost=state.table_loot if last else (),
    )


DECISIONS = ("load", "aim", "privilege", "retarget", "courage", "take")
"""What `awaiting` may say a seat owes: a decision of each phase a seat decides in."""


def awaiting(state: State) -> dict[int, str]:
    """The seats the game waits on, and the decision each owes (asked after every event: only the current
    phase's is worked out)."""
    phase, seats = state.phase, state.gangsters
    waiting: list[int | None]
    if phase is Phase.LOAD:
        waiting = [s for s, g in enumerate(seats) if g.alive and g.loaded is None]
    elif phase is Phase.AIM:
        waiting = [s for s, g in enumerate(seats) if g.alive and not g.aimed]
    elif phase is Phase.COURAGE:
        waiting = [s for s, g in enumerate(seats) if g.alive and g.stand is None]
    elif phase is Phase.PRIVILEGE:
        waiting = [state.godfather]
    elif phase is Phase.RETARGET:
        waiting = [state.ordered]
    elif phase is Phase.SHARING:
        waiting = [state.sharer]
    else:
        waiting = []
    name = DECISION_OF.get(phase, str(phase))
    return {s: name for s in waiting if s is not None}


DECISION_OF = {Phase.PRIVILEGE: "privilege", Phase.RETARGET: "retarget", Phase.SHARING: "take"}
"""A phase's decision, where it is not named as the phase is."""


def result(state: State) -> Result:
    """Only the living may win: score, then most wounds, then a shared victory."""
    gangsters = state.gangsters
    return tally(
        [g.loot for g in gangsters], [g.alive for g in gangsters], [g.wounds for g in gangsters], state.ended or ""
    )
