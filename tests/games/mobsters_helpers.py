"""Mobsters test builders: a game dealt from a stacked deck, standing in a chosen phase, and scripted dice.

table = game(hands={0: [CASINO]}, crews={0: {LUCKY: [CASINO]}, 1: {TONY: []}}, law={TONY: [BEAT_COP]}, phase="crime")
table, events = rolled(table, seat=0, move=Hit(mobster=LUCKY, card=SNIPER, victim=TONY), rolls=[5])
assert refused(RULESET, table, 0, PettyCrime(mobster=LUCKY)) == "mobster_has_operations"
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, MutableSequence, Sequence
from typing import Any

from games.base import Event, Move
from games.mobsters import RULESET
from games.mobsters import events as ev
from games.mobsters.cards import CARDS, DECK, Kind, card_id
from games.mobsters.moves import KeepHand
from games.mobsters.state import Mobster, State
from games.table import Table
from tests.games.helpers import apply, created, given, when

Step = tuple[Table[Any], list[Event]]

NEUTRAL_FIRST = [
    *reversed([c for c in DECK if CARDS[c].kind is Kind.ESCAPE]),
    *(c for c in DECK if CARDS[c].kind is not Kind.ESCAPE),
]
"""The undealt cards in the order `game` stacks them: Escape Law cards first (from the rulebook's last), as the
turn's draw, unless `top` says otherwise, is best made of cards that change nothing outside the Law phase."""


def cid(kind: Kind, name: str) -> str:
    """A card's id from its rulebook name, checked to exist."""
    card = card_id(kind, name)
    assert card in CARDS, card
    return card


def mobster(name: str) -> str:
    """A mobster card's id."""
    return cid(Kind.MOBSTER, name)


def operation(name: str) -> str:
    """A crime operation card's id."""
    return cid(Kind.OPERATION, name)


def of_kind(wanted: Kind) -> list[str]:
    """Every card of one kind, in rulebook order."""
    return [c for c in DECK if CARDS[c].kind is wanted]


def game(
    seats: int = 3,
    *,
    hands: Mapping[int, Sequence[str]] | None = None,
    crews: Mapping[int, Mapping[str, Sequence[str]]] | None = None,
    law: Mapping[str, Sequence[str]] | None = None,
    top: Sequence[str] = (),
    first: int = 0,
    phase: str = "draw",
    options: Mapping[str, Any] | None = None,
    deck_size: int | None = None,
    money: Mapping[int, int] | None = None,
) -> Table[Any]:
    """A game whose first turn (seat `first`'s) stands in `phase`, its two cards drawn from `top` (by default
    two Escape Law cards: Beat the Rap and Fugitive).

    Each seat holds `hands[seat]`; `crews[seat]` maps its mobsters in play to their operations; `law[mobster]`
    lists the Law cards on that mobster (placed by the next seat). `deck_size` keeps only that many cards in
    the deck after the draw (the rest are dealt to nobody: they are left out of the game). `money[seat]` is
    what the seat holds, as if it had collected the difference from $1,000 before."""
    hands, crews, law = hands or {}, crews or {}, law or {}
    dealt = [[*hands.get(s, ()), *_table_cards(s, crews, law, seats)] for s in range(seats)]
    drawn, kept = _undealt([c for cards in dealt for c in cards], top, deck_size)
    events = [
        ev.DeckShuffled(cards=(*(c for cards in dealt for c in cards), *drawn, *kept)),
        *(ev.CardsDrawn(seat=s, reason="deal", count=len(cards), cards=tuple(cards)) for s, cards in enumerate(dealt)),
        ev.FirstPlayerChosen(seat=first, drawn=False),
        *_in_play(crews, law, seats),
        *(ev.IncomeCollected(seat=s, incomes=(), total=m - 1000) for s, m in (money or {}).items()),
        ev.TurnStarted(turn=1, seat=first),
        ev.CardsDrawn(seat=first, reason="draw", count=2, cards=tuple(drawn)),
    ]
    if phase != "draw":
        events.append(ev.PhaseStarted(seat=first, phase=phase))
    opening = created(RULESET, seats, {"first_player": first, **(options or {})})[:2]
    return apply(RULESET, given(RULESET, opening), events)


def _undealt(dealt: list[str], top: Sequence[str], deck_size: int | None) -> tuple[list[str], list[str]]:
    """The first turn's two cards, and the deck left after them (cut to `deck_size` cards)."""
    rest = [*top, *(c for c in NEUTRAL_FIRST if c not in dealt and c not in top)]
    return rest[:2], rest[2:] if deck_size is None else rest[2 : 2 + deck_size]


def _table_cards(
    seat: int, crews: Mapping[int, Mapping[str, Sequence[str]]], law: Mapping[str, Sequence[str]], seats: int
) -> list[str]:
    """The cards a seat is dealt to put on the table: its mobsters and their operations, and the Law cards it
    places on the previous seat's mobsters."""
    own = [card for m, ops in crews.get(seat, {}).items() for card in (m, *ops)]
    victim = (seat - 1) % seats
    placed = [card for m in crews.get(victim, {}) for card in law.get(m, ())]
    return own + placed


def _in_play(
    crews: Mapping[int, Mapping[str, Sequence[str]]], law: Mapping[str, Sequence[str]], seats: int
) -> list[Event]:
    events: list[Event] = []
    for seat, crew in crews.items():
        for member, ops in crew.items():
            events.append(ev.MobsterRecruited(seat=seat, card=member))
            events += [ev.OperationAttached(seat=seat, mobster=member, operation=op, source=None) for op in ops]
            placer = (seat + 1) % seats
            events += [ev.LawPlaced(seat=placer, card=c, target_seat=seat, mobster=member) for c in law.get(member, ())]
    return events


class Dice(random.Random):
    """A generator whose die rolls are scripted, in order, and whose shuffle stacks the deck as told."""

    def __init__(self, rolls: Iterable[int] = (), deck: Sequence[str] | None = None) -> None:
        super().__init__(0)
        self.rolls = list(rolls)
        self.deck = deck

    def randint(self, a: int, b: int) -> int:
        """The next scripted die roll."""
        assert (a, b) == (1, 6), "only dice are scripted"
        return self.rolls.pop(0)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Put the deck in the stacked order."""
        assert self.deck is not None and sorted(self.deck) == sorted(x), "a stacked deck holds every card"
        x[:] = self.deck


def stacked_start(
    hands: Sequence[Sequence[str]],
    then: Sequence[str] = (),
    first: int = 0,
    options: Mapping[str, Any] | None = None,
) -> Step:
    """A game started by the rules from a deck stacked so that each seat is dealt `hands[seat]` (7 cards),
    the cards `then` come next, and the rest follow in rulebook order: the table, and the opening facts."""
    assert all(len(hand) == 7 for hand in hands)
    stacked = [*(c for hand in hands for c in hand), *then]
    order = [*stacked, *(c for c in DECK if c not in stacked)]
    table = given(RULESET, created(RULESET, len(hands), {"first_player": first, **(options or {})})[:2])
    events = RULESET.start(table.rules, Dice(deck=order))
    return apply(RULESET, table, events), events


def decided(table: Table[Any], *choices: tuple[int, Move]) -> Step:
    """Seats make their setup decisions, in the order given: the table after, and the events made."""
    events: list[Event] = []
    for seat, move in choices:
        table, new = when(RULESET, table, seat, move)
        events += new
    return table, events


def all_kept(table: Table[Any]) -> Step:
    """Every seat the setup awaits keeps its hand, in seat order: the first turn starts."""
    return decided(table, *((seat, KeepHand()) for seat in sorted(RULESET.awaiting(table.rules))))


def rolled(table: Table[Any], seat: int, move: Move, rolls: Iterable[int]) -> Step:
    """A seat moves while the dice show `rolls`: the table after, and the events made."""
    events = RULESET.decide(table.rules, seat, move, Dice(rolls))
    return apply(RULESET, table, events), events


def moves(table: Table[Any], seat: int, *plays: Move) -> Step:
    """One seat makes several moves in a row."""
    events: list[Event] = []
    for move in plays:
        table, new = when(RULESET, table, seat, move)
        events += new
    return table, events


def member(state: State, card: str) -> Mobster:
    """A mobster in play."""
    return next(m for boss in state.bosses for m in boss.crew if m.card == card)


def money(table: Table[Any]) -> list[int]:
    """Every seat's money, in seat order."""
    return [boss.money for boss in table.rules.bosses]


def of_type(events: Iterable[Event], cls: type) -> list[Any]:
    """The events of one type, in order."""
    return [e for e in events if isinstance(e, cls)]
