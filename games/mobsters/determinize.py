"""A Mobsters state a seat's view could come from.

What a seat sees: every card in play (mobsters, their operations and Law cards, a dead mobster's operations
waiting to be reassigned), the discard pile, its own hand, every seat's money and hand size, and the deck's size.
Every other card of the deck's one copy of each is unseen: in another seat's hand (a card it drew or bought face
down included) or in the deck. They are dealt uniformly: shuffled together (in the catalogue's order before, so
the draw depends on the view and `rng` alone), the other seats' hands taken in seat order by their public sizes,
the rest the deck, top first. What the turn's phase implies is set from it (the draw made, the attendance
rolled, the income collected).

The setup decision is the one hidden choice. A seat still awaited has not made it: it decides in the state drawn
too. Another seat that has made it face down in the first round (the discard pile is empty: nobody has redealt
yet) has its choice left unmade, as if still to decide, so a search makes it for that seat at the same time as
its own, on the hand drawn for it: drawing a choice would be drawing one no search can weigh against the hand.
Once a round of redeals has been revealed, the view cannot tell a seat that kept at a reveal (done for good) from
one that decided face down in this round; such a seat is taken as done, which keeps the state valid (a seat done
may not redeal again) at the cost of never redealing for it. The seat's own decision, when it is not awaited, is
not in its view either: taken as kept. With `open_setup` (old games, decided in public), an awaited seat holds no
mobster, so another awaited seat's hand is dealt from the unseen cards that are no mobster; every seat not awaited
is taken as done.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from games.mobsters.cards import CARDS, DECK, Kind
from games.mobsters.state import Boss, Deed, Mobster, Phase, Setup, State

COLLECTED = frozenset({Phase.COLLECTION, Phase.RECRUIT, Phase.LAW})
"""The phases in which the turn's income has been collected (as the Collection phase starts)."""


def determinize(view: dict[str, Any], rng: random.Random) -> State:
    """A state the seat's view could be shown from, the unseen cards dealt with `rng` (see the module)."""
    shown, you = view["state"], view["you"]
    me: int = you["seat"]
    seats: list[dict[str, Any]] = shown["seats"]
    phase = Phase(shown["phase"])
    open_setup = bool(view["options"].get("open_setup"))
    awaited = {wait["seat"] for wait in view["awaiting"]}
    crews = [
        tuple(
            Mobster(
                card=m["card"],
                operations=tuple(m["operations"]),
                law=tuple(m["law"]),
                deed=None if m["deed"] is None else msgspec.convert(m["deed"], Deed),
            )
            for m in seat["mobsters"]
        )
        for seat in seats
    ]
    reassigning = shown["reassigning"]
    orphans: tuple[str, ...] = () if reassigning is None else tuple(reassigning["operations"])
    seen = {*you["hand"], *shown["discard"], *orphans}
    seen.update(card for crew in crews for m in crew for card in (m.card, *m.operations, *m.law))
    unseen = [card for card in DECK if card not in seen]
    others = [s for s in range(len(seats)) if s != me]
    if len(unseen) != shown["deck_count"] + sum(seats[s]["hand_count"] for s in others):
        raise ValueError("the view's hand sizes and deck size do not add up to the cards it does not show")
    rng.shuffle(unseen)
    hands: dict[int, tuple[str, ...]] = {me: tuple(you["hand"])}
    if open_setup and phase is Phase.SETUP:
        # an awaited seat holds no mobster: its hand comes from the unseen cards that are none
        plain = [card for card in unseen if CARDS[card].kind is not Kind.MOBSTER]
        for s in others:
            if s in awaited:
                hands[s], plain = tuple(plain[: seats[s]["hand_count"]]), plain[seats[s]["hand_count"] :]
        taken = {card for s in hands if s != me for card in hands[s]}
        unseen = [card for card in unseen if card not in taken]
    for s in others:
        if s not in hands:
            hands[s], unseen = tuple(unseen[: seats[s]["hand_count"]]), unseen[seats[s]["hand_count"] :]
    first_round = not shown["discard"]
    return State(
        seats=len(seats),
        attendance=shown["attendance_rule"],
        open_setup=open_setup,
        first_player=view["options"].get("first_player"),
        bosses=tuple(
            Boss(
                money=seat["money"],
                hand=hands[s],
                crew=crews[s],
                setup=_setup(phase, open_setup, first_round, s in awaited, s == me),
            )
            for s, seat in enumerate(seats)
        ),
        deck=tuple(unseen),
        discard=tuple(shown["discard"]),
        phase=phase,
        turn=shown["turn"],
        active=shown["active_seat"],
        rolled=shown["attendance_rule"] and phase is not Phase.SETUP,
        drawn=phase is not Phase.SETUP,
        collected=phase in COLLECTED,
        orphans=orphans,
        orphaned_by=None if reassigning is None else reassigning["seat"],
        ended=shown["ended"],
    )


def _setup(phase: Phase, open_setup: bool, first_round: bool, awaited: bool, mine: bool) -> Setup:
    """A seat's part in the setup, as the module says it is drawn."""
    if phase is not Phase.SETUP:
        return Setup.DONE
    if awaited:
        return Setup.DECIDING
    if open_setup or not first_round:
        return Setup.DONE
    return Setup.KEEP if mine else Setup.DECIDING
