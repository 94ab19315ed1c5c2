"""The state of a Mobsters game, its setup, and the questions the rules ask of it (`evolve.py` changes it)."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from games.mobsters.cards import CARDS, Kind, bonus
from games.mobsters.events import Income

START_MONEY = 1000
HAND = 7
"""Cards dealt to each seat, and drawn again on a redeal."""
DRAWS = 2
HAND_LIMIT = 10
EXTRA_CARD_PRICE = 1000
BRIBE_PRICE = 3000
KILLS_FROM = 4
"""A hit's die roll of 4-6 kills; 1-3 and the victim got away."""
ABSENT_FROM = 4
"""An attendance roll of 4-6 costs a mobster its action."""


class Phase(StrEnum):
    """Where the game stands: the setup, one of a turn's six phases (with `discard` between Draw and Hit
    while the active seat holds more than 10 cards), or over."""

    SETUP = "setup"
    DRAW = "draw"
    DISCARD = "discard"
    HIT = "hit"
    CRIME = "crime"
    COLLECTION = "collection"
    RECRUIT = "recruit"
    LAW = "law"
    OVER = "over"


NEXT_PHASE: dict[Phase, Phase] = {
    Phase.DRAW: Phase.HIT,
    Phase.DISCARD: Phase.HIT,
    Phase.HIT: Phase.CRIME,
    Phase.CRIME: Phase.COLLECTION,
    Phase.COLLECTION: Phase.RECRUIT,
    Phase.RECRUIT: Phase.LAW,
}
"""The phase `end_phase` leads to; after Law the next seat's turn begins."""


class Setup(StrEnum):
    """A seat's part in the setup: deciding (awaited), decided face down (`keep` or `redeal`: only the seat knows
    which until every seat has decided), or done (its hand kept, for all to see)."""

    DECIDING = "deciding"
    KEEP = "keep"
    REDEAL = "redeal"
    DONE = "done"


class Deed(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What became of a mobster's action this turn, for all to see: `recruited` (it came into play), `absent`
    (the attendance roll), or the move that spent it with the card played, what it aimed at and the die roll."""

    action: Annotated[str, Meta(description="what it did: `recruited`, `absent`, or the move that spent it")]
    card: Annotated[str | None, Meta(description="the card it played, if any: its card id")] = None
    on: Annotated[str | None, Meta(description="the card it acted on, if any: its card id")] = None
    roll: Annotated[int | None, Meta(description="the die roll, if any")] = None


class Mobster(msgspec.Struct, frozen=True, kw_only=True):
    """A mobster in play: the operations attached to it, the Law cards on top of it, and what became of its
    action this turn (None while it has not spent it)."""

    card: str
    operations: tuple[str, ...] = ()
    law: tuple[str, ...] = ()
    deed: Deed | None = None


class Ledger(msgspec.Struct, frozen=True, kw_only=True):
    """Where a seat's money came from (and went), by what the rules pay: it always sums to the seat's money."""

    start: int = START_MONEY
    operations: int = 0
    """Operations' income, collected and doubled, without the holders' bonuses."""
    bonuses: int = 0
    """The mobsters' bonuses, on operations and crimes."""
    crimes: int = 0
    """Major crimes and armed robberies, without bonuses."""
    petty_crimes: int = 0
    costs: int = 0
    """Costs of Doing Business the seat paid (negative)."""
    extra_cards: int = 0
    """Extra cards bought (negative)."""
    bribes: int = 0
    """Law cards bribed away (negative)."""


SOURCES: tuple[str, ...] = tuple(Ledger.__struct_fields__)
"""Every source of money, in the ledger's order."""


class Boss(msgspec.Struct, frozen=True, kw_only=True):
    """One seat: its money (below zero is debt), its hand, its mobsters in play, its part in the setup, and where
    its money came from."""

    money: int = START_MONEY
    hand: tuple[str, ...] = ()
    crew: tuple[Mobster, ...] = ()
    setup: Setup = Setup.DECIDING
    ledger: Ledger = Ledger()


class State(msgspec.Struct, frozen=True, kw_only=True):
    seats: int
    attendance: bool
    open_setup: bool
    """The setup of games created before it was secret: only the seats dealt no mobster decide, in public."""
    first_player: int | None
    bosses: tuple[Boss, ...]
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    phase: Phase = Phase.SETUP
    turn: int = 0
    active: int = 0
    rolled: bool = False
    drawn: bool = False
    collected: bool = False
    orphans: tuple[str, ...] = ()
    """A killed mobster's operations, waiting for its controller (`orphaned_by`) to reassign them."""
    orphaned_by: int | None = None
    ended: str | None = None


def initial_state(seats: int, options: Mapping[str, Any]) -> State:
    """$1,000 for each seat and nothing dealt yet."""
    return State(
        seats=seats,
        attendance=bool(options.get("attendance")),
        open_setup=bool(options.get("open_setup")),
        first_player=options.get("first_player"),
        bosses=(Boss(),) * seats,
    )


# --- questions about a state ------------------------------------------------------------------------------


Places = dict[str, tuple[int, Mobster]]

_places: tuple[tuple[Boss, ...], Places] = ((), {})
"""The mobsters in play of the last `bosses` asked about, each with its controller: `located` asks it many times
of one state (every candidate move checks its mobsters), and the bosses of a state never change, so the table of
the very same tuple (`is`, not `==`: it is held here, so never another's) answers as a scan of it would."""


def located(state: State, mobster: str) -> tuple[int, Mobster] | None:
    """The controller and the in-play record of a mobster; None when it is not in play."""
    global _places
    bosses, places = _places
    if bosses is not state.bosses:
        # each card is in one place, so a mobster is in play at most once
        places = {member.card: (seat, member) for seat, boss in enumerate(state.bosses) for member in boss.crew}
        _places = state.bosses, places
    return places.get(mobster)


def holding(state: State, card: str, field: str) -> tuple[int, Mobster] | None:
    """The seat and mobster that hold `card` among its `operations` or its `law` cards."""
    for seat, boss in enumerate(state.bosses):
        for member in boss.crew:
            if card in getattr(member, field):
                return seat, member
    return None


def can_act(mobster: Mobster) -> bool:
    """A mobster acts once a turn, and never while a Law card is on top of it."""
    return mobster.deed is None and not mobster.law


def in_hand(state: State, seat: int, wanted: Kind) -> list[str]:
    """The seat's cards of one kind, in hand order."""
    return [card for card in state.bosses[seat].hand if CARDS[card].kind is wanted]


def has_mobster(hand: tuple[str, ...]) -> bool:
    """Whether a hand holds a mobster card (a seat dealt none may redeal)."""
    return any(CARDS[card].kind is Kind.MOBSTER for card in hand)


def deciding(state: State) -> list[int]:
    """During the setup: the seats the game waits on for their setup decision. Every seat that has not decided;
    with `open_setup`, only the seats dealt no mobster that have not kept their hand."""
    if state.phase is not Phase.SETUP:
        return []
    if state.open_setup:
        return [s for s, b in enumerate(state.bosses) if b.setup is not Setup.DONE and not has_mobster(b.hand)]
    return [s for s, b in enumerate(state.bosses) if b.setup is Setup.DECIDING]


def revealing(state: State) -> bool:
    """Every seat has decided its setup face down and some decision is still to be revealed."""
    if state.phase is not Phase.SETUP:
        return False
    return any(b.setup in (Setup.KEEP, Setup.REDEAL) for b in state.bosses) and not deciding(state)


def incomes(state: State, seat: int) -> tuple[Income, ...]:
    """What the seat's mobsters free of Law cards collect: each operation's income plus the holder's bonus."""
    return tuple(
        Income(mobster=member.card, operation=op, amount=CARDS[op].amount, bonus=bonus(member.card, op))
        for member in state.bosses[seat].crew
        if not member.law
        for op in member.operations
    )


def next_seat(state: State) -> int:
    """Play goes clockwise: increasing seat numbers, wrapping around."""
    return (state.active + 1) % state.seats
