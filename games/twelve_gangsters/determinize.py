"""A 12 Gangsters state a seat's view could come from.

Nothing of a seat's hand is hidden: each colour holds its twelve gangsters (ten with five players) less those
its piles show. What is hidden is this round's face-down choices, and a searching bot does not draw those: it
leaves them unmade, so the search makes each for its seat at the same time as its own, as the round is played.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from games.twelve_gangsters.events import RoundRevealed
from games.twelve_gangsters.state import State


def determinize(view: dict[str, Any], rng: random.Random) -> State:
    """The state the view shows, every other seat's choice this round still to make (`rng` is not needed)."""
    shown, you = view["state"], view["you"]
    me: int = you["seat"]
    seats = shown["seats"]
    played = [{*seat["succeeded"], *seat["stopped"]} for seat in seats]
    last = shown["last_round"]
    return State(
        seats=len(seats),
        rounds=shown["rounds"],
        first_boss=None,
        hands=tuple(
            tuple(you["hand"]) if s == me else tuple(c for c in range(1, shown["rounds"] + 1) if c not in played[s])
            for s in range(len(seats))
        ),
        chosen=tuple(you["chosen"] if s == me else None for s in range(len(seats))),
        succeeded=tuple(tuple(seat["succeeded"]) for seat in seats),
        stopped=tuple(tuple(seat["stopped"]) for seat in seats),
        boss=shown["boss"],
        round=shown["round"],
        history=() if last is None else (msgspec.convert(last, RoundRevealed),),
    )
