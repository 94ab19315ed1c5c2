"""12 Gangsters: every seat sends one gangster a round; nobody may steal more than the Boss's gangster.

See docs in `games/twelve_gangsters/__init__.py` for the rules and rulings this module implements.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from games.base import EVERYONE, Event, IllegalMoveError, Move, Result, Viewer, rank_seats, redacted
from games.twelve_gangsters.events import BossChosen, BossPassed, GangsterPlayed, Play, RoundRevealed


class State(msgspec.Struct, frozen=True, kw_only=True):
    seats: int
    rounds: int
    first_boss: int | None
    hands: tuple[tuple[int, ...], ...]
    chosen: tuple[int | None, ...]
    succeeded: tuple[tuple[int, ...], ...]
    stopped: tuple[tuple[int, ...], ...]
    boss: int | None = None
    round: int = 1
    history: tuple[RoundRevealed, ...] = ()


MIN_SEATS, MAX_SEATS = 3, 6
GANGSTERS: tuple[int, ...] = tuple(range(1, 13))
"""The gangsters of one colour. A gangster is worth its number: a seat scores the numbers that succeed."""


def hand(seats: int) -> tuple[int, ...]:
    """What each seat holds, one gangster a round: all twelve, but 1-10 with five players (11 and 12 are out)."""
    return GANGSTERS[:10] if seats == 5 else GANGSTERS


def initial_state(seats: int, options: Mapping[str, Any]) -> State:
    """Each seat holds its colour's gangsters and plays one a round until they are gone."""
    return State(
        seats=seats,
        rounds=len(hand(seats)),
        first_boss=options.get("first_boss"),
        hands=(hand(seats),) * seats,
        chosen=(None,) * seats,
        succeeded=((),) * seats,
        stopped=((),) * seats,
    )


def start(state: State, rng: random.Random) -> list[Event]:
    """The first Boss: the seat named in `options.first_boss`, else one drawn at random."""
    if state.first_boss is not None:
        return [BossChosen(seat=state.first_boss, drawn=False)]
    return [BossChosen(seat=rng.randrange(state.seats), drawn=True)]


def is_over(state: State) -> bool:
    return state.round > state.rounds


def check(state: State, seat: int, move: Move) -> None:
    """Raise IllegalMoveError unless the seat may make this move now."""
    if not isinstance(move, Play):
        raise IllegalMoveError("unknown_move", "12 Gangsters takes one move: play")
    if is_over(state):
        raise IllegalMoveError("game_finished", "the game is over")
    if state.chosen[seat] is not None:
        raise IllegalMoveError("already_played", "you have already chosen your gangster for this round")
    if move.card not in state.hands[seat]:
        raise IllegalMoveError("card_not_in_hand", f"gangster {move.card} is not in your hand")


def legal_moves(state: State, seat: int) -> list[Move]:
    if is_over(state) or state.chosen[seat] is not None:
        return []
    return [Play(card=card) for card in state.hands[seat]]


def decide(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    """A seat's gangster goes face down; the last one to be chosen reveals the round."""
    check(state, seat, move)
    assert isinstance(move, Play)
    played = GangsterPlayed(seat=seat, card=move.card)
    plays = list(state.chosen)
    plays[seat] = move.card
    if any(card is None for card in plays):
        return [played]
    events: list[Event] = [played, reveal(state, [card for card in plays if card is not None])]
    if state.round < state.rounds:
        events.append(BossPassed(seat=(state.boss + 1) % state.seats))
    return events


def reveal(state: State, plays: list[int]) -> RoundRevealed:
    """Below the Boss's gangster succeeds, above is stopped; equal succeeds and stops the Boss's."""
    boss = state.boss
    assert boss is not None
    bar = plays[boss]
    others = [s for s in range(state.seats) if s != boss]
    boss_stopped = any(plays[s] == bar for s in others)
    succeeded = [s for s in others if plays[s] <= bar] + ([] if boss_stopped else [boss])
    return RoundRevealed(
        round=state.round,
        boss=boss,
        plays=tuple(plays),
        succeeded=tuple(sorted(succeeded)),
        stopped=tuple(s for s in range(state.seats) if s not in succeeded),
    )


def evolve(state: State, event: Event) -> State:
    replace = msgspec.structs.replace
    match event:
        case BossChosen(seat=seat) | BossPassed(seat=seat):
            return replace(state, boss=seat)
        case GangsterPlayed(seat=seat, card=card):
            return replace(state, chosen=_set(state.chosen, seat, card))
        case RoundRevealed(plays=plays, succeeded=succeeded):
            return replace(
                state,
                hands=tuple(tuple(c for c in hand if c != plays[s]) for s, hand in enumerate(state.hands)),
                chosen=(None,) * state.seats,
                succeeded=tuple(p + ((plays[s],) if s in succeeded else ()) for s, p in enumerate(state.succeeded)),
                stopped=tuple(p + (() if s in succeeded else (plays[s],)) for s, p in enumerate(state.stopped)),
                round=state.round + 1,
                history=(*state.history, event),
            )
    raise ValueError(f"not a 12 Gangsters event: {event.type}")


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


DECISIONS = ("play",)
"""What `awaiting` may say a seat owes: its gangster for the round."""


def awaiting(state: State) -> dict[int, str]:
    if is_over(state):
        return {}
    return {seat: "play" for seat, card in enumerate(state.chosen) if card is None}


class You(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A seat's own: its hand and the gangster it chose this round (null until it chooses). Shown to the seat
    under `you`, and to everyone in `seats` once the game is over."""

    hand: list[int] | UnsetType = UNSET
    chosen: int | UnsetType | None = UNSET


class SeatView(You, kw_only=True):
    """A seat's piles: face-up gangsters that succeeded, face-down ones that were stopped."""

    seat: int
    cards_left: int
    has_chosen: bool
    succeeded: list[int]
    stopped: list[int]
    score: int


class StateView(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The round, the Boss, every seat's piles, and the last round revealed."""

    round: int
    rounds: int
    boss: int | None
    seats: list[SeatView]
    last_round: RoundRevealed | None


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """Public: piles, scores, who has chosen. A seat also sees its hand and its choice; nobody else does."""
    body: dict[str, Any] = {
        "round": min(state.round, state.rounds),
        "rounds": state.rounds,
        "boss": state.boss,
        "seats": [
            {
                "seat": s,
                "cards_left": len(state.hands[s]),
                "has_chosen": state.chosen[s] is not None,
                "succeeded": list(state.succeeded[s]),
                "stopped": list(state.stopped[s]),
                "score": sum(state.succeeded[s]),
                **(_private(state, s) if viewer == EVERYONE else {}),
            }
            for s in range(state.seats)
        ],
        "last_round": msgspec.to_builtins(state.history[-1]) if state.history else None,
    }
    if isinstance(viewer, int):
        body["you"] = _private(state, viewer)
    return body


def _private(state: State, seat: int) -> dict[str, Any]:
    return {"hand": list(state.hands[seat]), "chosen": state.chosen[seat]}


SECRET_FIELDS: dict[type[Event], str] = {GangsterPlayed: "card"}
"""A chosen gangster is the chooser's secret until the round is revealed."""


def event_view(event: Event, viewer: Viewer) -> dict[str, Any]:
    """A chosen gangster is the chooser's secret until the round is revealed."""
    return redacted(event, viewer, SECRET_FIELDS)


def result(state: State) -> Result:
    """Score = face-up gangsters; ties broken by successful heists, then the victory is shared."""
    return rank_seats(
        scores=[sum(pile) for pile in state.succeeded],
        tie_breakers=[("successful_heists", [len(pile) for pile in state.succeeded])],
    )
