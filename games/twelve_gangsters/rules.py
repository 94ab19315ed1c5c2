"""12 Gangsters as a decider: every seat sends one gangster a round; nobody may steal more than the Boss's.

See `games/twelve_gangsters/__init__.py` for the rules and rulings this module implements. The last gangster
chosen reveals the round; the Boss token then passes clockwise, until the last round.
"""

from __future__ import annotations

import random

from games.base import Event, Move, Result, rank_seats
from games.twelve_gangsters.events import BossChosen, BossPassed, GangsterPlayed, RoundRevealed
from games.twelve_gangsters.legality import check
from games.twelve_gangsters.moves import Play
from games.twelve_gangsters.state import State


def start(state: State, rng: random.Random) -> list[Event]:
    """The first Boss: the seat named in `options.first_boss`, else one drawn at random."""
    if state.first_boss is not None:
        return [BossChosen(seat=state.first_boss, drawn=False)]
    return [BossChosen(seat=rng.randrange(state.seats), drawn=True)]


def is_over(state: State) -> bool:
    """After the last round."""
    return state.round > state.rounds


def decide(state: State, seat: int, move: Move, rng: random.Random) -> list[Event]:
    """A seat's gangster goes face down; the last one to be chosen reveals the round."""
    check(state, seat, move)
    assert isinstance(move, Play)
    played = GangsterPlayed(seat=seat, card=move.card)
    plays = list(state.chosen)
    plays[seat] = move.card
    if any(card is None for card in plays):
        return [played]
    revealed = reveal(state, [card for card in plays if card is not None])
    events: list[Event] = [played, revealed]
    if state.round < state.rounds:
        events.append(BossPassed(seat=(revealed.boss + 1) % state.seats))
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


DECISIONS = ("play",)
"""What `awaiting` may say a seat owes: its gangster for the round."""


def awaiting(state: State) -> dict[int, str]:
    """Every seat that has not chosen its gangster this round."""
    if is_over(state):
        return {}
    return {seat: "play" for seat, card in enumerate(state.chosen) if card is None}


def result(state: State) -> Result:
    """Score = face-up gangsters; ties broken by successful heists, then the victory is shared. The details
    list each seat's gangsters that succeeded (what its score is made of) and those stopped, in the order
    played: the game is over, so every pile is public."""
    seats = [
        {"seat": seat, "succeeded": list(succeeded), "stopped": list(stopped)}
        for seat, (succeeded, stopped) in enumerate(zip(state.succeeded, state.stopped, strict=True))
    ]
    return rank_seats(
        scores=[sum(pile) for pile in state.succeeded],
        tie_breakers=[("successful_heists", [len(pile) for pile in state.succeeded])],
        details={"seats": seats},
    )
