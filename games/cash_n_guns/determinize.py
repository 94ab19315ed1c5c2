"""A Ca$h 'n Guns state a seat's view could come from, its hidden parts drawn.

What a seat does not see, and how it is drawn:

- Where the loot cards it has not seen lie: every card of the deck but its own loot, the table's and the lost
  loot, dealt into the other seats' loot (each as many cards as its `loot_count`, the dead's too) and the piles to
  come (`piles_left` piles of 8), in any order. (The event log shows each card as it is taken, but the view does
  not: a bot that reads only its view knows of the others' loot its count, and the clips below.)
- Each other seat's Bang!/Click split (the view shows only how many bullet cards it holds), and during the aim,
  the privilege and the courage its loaded card.
- This turn's choices still hidden: the other seats' loads, aims or courages already made. Those three are
  simultaneous decisions, and a searching bot does not draw them: it leaves each unmade (a load goes back to the
  seat's hand), so the search makes it for that seat at the same time as its own, as the round is played. The
  state drawn shows the seat those seats still to load, aim or choose; nothing else of its view changes.

What the view tells of them, which every draw respects:

- A clip adds a Bang! card to its taker's at once and stays in its loot, and every seat loads one card a turn
  while it lives: so a living seat's bullet count tells how many clips its loot holds (8 + clips - cards loaded).
  A dead seat loaded one a turn until the turn it died: that turn is the last shots' if it died in them, else
  any earlier one, and its clips follow from it.
- A seat's Bang!s and Clicks spent are within what it had (3 Bang!s and its clips' ones, 5 Clicks); its card in
  the last shots, if shown, is one of them.
- Every wound was a Bang! fired by another seat (a first-aid kit only takes wounds away): the Bang!s spent in
  the shots so far, this seat's own included (known from its own hand), are at least every seat's wounds, and
  those spent by the seats other than one are at least that seat's wounds.

Uniformly among the states that meet all of it: each placement of the distinct loot cards and each (spent Bang!s,
loaded card) of a seat is one possibility. The clips' whereabouts are drawn first, weighed by how many placements
and hands each allows; then the hands, redrawn until the wounds are covered (and, should that take too long,
drawn exactly from their counts); then the other cards, shuffled into the slots left.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from games.cash_n_guns.events import Bullet, ShotsResolved
from games.cash_n_guns.loot import DECK, PILE_SIZE, kind
from games.cash_n_guns.state import START_BANGS, START_CLICKS, Gangster, Phase, State

LOADED_HIDDEN = frozenset({Phase.AIM, Phase.PRIVILEGE, Phase.RETARGET, Phase.COURAGE})
"""Where the other seats' loaded cards are on the table, face down (during the load they are left unmade)."""
TRIES = 400
"""Draws of the hands before they are drawn exactly instead (the wounds rarely refuse that many)."""


@dataclass(frozen=True)
class Hand:
    """One way another seat's bullet cards may stand: the Bang!s it spent in the shots so far, its loaded card
    (None: none, or not hidden), and what it holds."""

    spent_bangs: int
    loaded: Bullet | None
    bangs: int
    clicks: int


@dataclass(frozen=True)
class Hidden:
    """What is hidden of another seat: its loot count, and the hands it may hold by how many clips its loot holds."""

    seat: int
    loot: int
    hands: dict[int, list[Hand]]


def hands(clips: int, spent: int, loaded_hidden: bool, last_card: str | None) -> list[Hand]:
    """Every hand of a seat holding `clips` clips that loaded `spent` cards in the shots so far (its card in the
    last shots was `last_card`), with a loaded card face down or not."""
    found = []
    loads: tuple[Bullet | None, ...] = ("bang", "click") if loaded_hidden else (None,)
    for bangs_spent in range(spent + 1):
        if bangs_spent < (last_card == "bang") or spent - bangs_spent < (last_card == "click"):
            continue
        for loaded in loads:
            bangs = START_BANGS + clips - bangs_spent - (loaded == "bang")
            clicks = START_CLICKS - (spent - bangs_spent) - (loaded == "click")
            if bangs >= 0 and clicks >= 0:
                found.append(Hand(bangs_spent, loaded, bangs, clicks))
    return found


def determinize(view: dict[str, Any], rng: random.Random) -> State:
    """A state the view could have been shown from: the loot unseen, the others' hands and loaded cards drawn with
    `rng`, uniformly among those the view allows; the others' loads, aims or courages this turn still to make."""
    return draw(view, rng, TRIES)


def draw(view: dict[str, Any], rng: random.Random, tries: int) -> State:
    """`determinize`, the hands drawn up to `tries` times before they are drawn from their counts."""
    shown, you = view["state"], view["you"]
    me: int = you["seat"]
    seats: list[dict[str, Any]] = shown["seats"]
    phase = Phase(shown["phase"])
    turn: int = shown["turn"]
    last = shown["last_shots"]
    hidden = hidden_parts(view)

    seen = {*you["loot"], *shown["table_loot"], *shown["lost_loot"]}
    unseen = [card for card in DECK if card not in seen]
    pile_slots = PILE_SIZE * shown["piles_left"]
    if len(unseen) != pile_slots + sum(h.loot for h in hidden):
        raise ValueError("the view's loot counts do not add up to the deck")
    clips = [card for card in unseen if kind(card) == "clip"]
    others = [card for card in unseen if kind(card) != "clip"]

    wounds = [seat["wounds"] for seat in seats]
    vectors, placements = _clip_vectors(hidden, len(clips), pile_slots)
    vector, held = _draw_hands(hidden, vectors, placements, me, spent_bangs(you), wounds, rng, tries)

    rng.shuffle(clips)
    rng.shuffle(others)
    loot: dict[int, tuple[str, ...]] = {}
    for h, count in zip(hidden, vector, strict=True):
        cards = [clips.pop() for _ in range(count)] + [others.pop() for _ in range(h.loot - count)]
        rng.shuffle(cards)
        loot[h.seat] = tuple(cards)
    deck = clips + others
    rng.shuffle(deck)
    piles = tuple(tuple(deck[i : i + PILE_SIZE]) for i in range(0, len(deck), PILE_SIZE))

    gangsters = tuple(
        _mine(seat, you) if seat["seat"] == me else _other(seat, phase, held[seat["seat"]], loot[seat["seat"]])
        for seat in seats
    )
    options = view["options"]
    return State(
        seats=len(seats),
        first_godfather=options.get("first_godfather"),
        aim_window_s=options.get("aim_window_s") or 15,
        gangsters=gangsters,
        piles=piles,
        table_loot=tuple(shown["table_loot"]),
        lost=tuple(shown["lost_loot"]),
        godfather=shown["godfather"],
        turn=turn,
        phase=phase,
        token_available=shown["godfather_token_available"],
        token_taker=shown["godfather_token_taken_by"],
        ordered=shown["ordered"],
        sharer=shown["sharer"],
        last_shots=None if last is None else msgspec.convert(last, ShotsResolved),
        ended=shown["ended"],
    )


def spent_bangs(you: dict[str, Any]) -> int:
    """The Bang!s the seat spent in the shots so far, from its own hand and loot."""
    clips = sum(kind(card) == "clip" for card in you["loot"])
    spent: int = START_BANGS + clips - you["bang_cards"] - (you["loaded_card"] == "bang")
    return spent


def covers(spent: dict[int, int], wounds: Sequence[int]) -> bool:
    """Whether the Bang!s each seat spent could have dealt the wounds: each one fired by another seat."""
    total = sum(spent.values())
    return total >= sum(wounds) and all(total - spent[s] >= w for s, w in enumerate(wounds))


def hidden_parts(view: dict[str, Any]) -> list[Hidden]:
    """What is hidden of each other seat, by seat: the clips its loot may hold, with the hands each allows."""
    shown, me = view["state"], view["you"]["seat"]
    phase, turn, last = Phase(shown["phase"]), shown["turn"], shown["last_shots"]
    return [_hidden(seat, phase, turn, last) for seat in shown["seats"] if seat["seat"] != me]


def _hidden(seat: dict[str, Any], phase: Phase, turn: int, last: dict[str, Any] | None) -> Hidden:
    """Another seat's hidden parts: the clips its loot may hold (each with the hands it allows)."""
    s: int = seat["seat"]
    last_card = None if last is None else last["cards"][s]
    if seat["alive"]:
        loaded_hidden = phase in LOADED_HIDDEN
        spent = turn - 1 + (phase is Phase.SHARING)
        loads = spent + (seat["has_loaded"] or loaded_hidden)
        clips = seat["bullet_cards"] - START_BANGS - START_CLICKS + loads
        return Hidden(s, seat["loot_count"], {clips: hands(clips, spent, loaded_hidden, last_card)})
    assert last is not None, "a seat dies in the shots"
    died = [last["turn"]] if s in last["died"] else range(1, last["turn"])
    by_clips = {}
    for turn_died in died:  # one card loaded each turn up to the one it died in
        clips = seat["bullet_cards"] - START_BANGS - START_CLICKS + turn_died
        if 0 <= clips <= seat["loot_count"] and (possible := hands(clips, turn_died, False, last_card)):
            by_clips[clips] = possible
    return Hidden(s, seat["loot_count"], by_clips)


def _clip_vectors(hidden: Sequence[Hidden], clips: int, pile_slots: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """Every way the unseen clips may be held (how many in each other seat's loot, the rest in the piles), each with
    the number of placements of the cards it allows."""
    vectors, placements = [], []
    for vector in itertools.product(*(sorted(h.hands) for h in hidden)):
        in_piles = clips - sum(vector)
        if not 0 <= in_piles <= pile_slots or any(c > h.loot for c, h in zip(vector, hidden, strict=True)):
            continue
        ways = math.comb(pile_slots, in_piles)
        for count, h in zip(vector, hidden, strict=True):
            ways *= math.comb(h.loot, count)
        if ways:
            vectors.append(vector)
            placements.append(ways)
    if not vectors:
        raise ValueError("no deal of the unseen clips fits the view")
    return vectors, placements


def _draw_hands(
    hidden: Sequence[Hidden],
    vectors: Sequence[tuple[int, ...]],
    placements: Sequence[int],
    me: int,
    my_spent: int,
    wounds: Sequence[int],
    rng: random.Random,
    tries: int,
) -> tuple[tuple[int, ...], dict[int, Hand]]:
    """A clips vector and every other seat's hand, uniformly among those that cover the wounds (each vector weighed
    by its placements): drawn from every combination and redrawn until one covers them."""
    weights = [
        ways * math.prod(len(h.hands[c]) for c, h in zip(vector, hidden, strict=True))
        for vector, ways in zip(vectors, placements, strict=True)
    ]
    for _ in range(tries):
        vector = rng.choices(vectors, weights)[0]
        held = {h.seat: rng.choice(h.hands[c]) for c, h in zip(vector, hidden, strict=True)}
        if covers({me: my_spent} | {s: hand.spent_bangs for s, hand in held.items()}, wounds):
            return vector, held
    return _exact_hands(hidden, vectors, placements, me, my_spent, wounds, rng)


def _exact_hands(
    hidden: Sequence[Hidden],
    vectors: Sequence[tuple[int, ...]],
    placements: Sequence[int],
    me: int,
    my_spent: int,
    wounds: Sequence[int],
    rng: random.Random,
) -> tuple[tuple[int, ...], dict[int, Hand]]:
    """As `_draw_hands`, from the counts: by the Bang!s spent in all, each seat's spent at most that less its
    wounds."""
    choices: list[tuple[tuple[int, ...], list[list[Hand]], int]] = []
    counts: list[int] = []
    for vector, ways in zip(vectors, placements, strict=True):
        options = [h.hands[c] for c, h in zip(vector, hidden, strict=True)]
        low = my_spent + sum(min(hand.spent_bangs for hand in o) for o in options)
        high = my_spent + sum(max(hand.spent_bangs for hand in o) for o in options)
        for total in range(max(low, sum(wounds)), high + 1):
            if total - my_spent < wounds[me]:
                continue
            capped = [
                [hand for hand in o if total - hand.spent_bangs >= wounds[h.seat]]
                for o, h in zip(options, hidden, strict=True)
            ]
            found = _ways(capped)[0].get(total - my_spent, 0)
            if found:
                choices.append((vector, capped, total - my_spent))
                counts.append(ways * found)
    if not choices:
        raise ValueError("no hands fit the wounds the view shows")
    chosen, allowed, left = rng.choices(choices, counts)[0]
    after = _ways(allowed)
    held: dict[int, Hand] = {}
    for i, (hands_of, h) in enumerate(zip(allowed, hidden, strict=True)):
        hand = rng.choices(hands_of, [after[i + 1].get(left - o.spent_bangs, 0) for o in hands_of])[0]
        held[h.seat] = hand
        left -= hand.spent_bangs
    return chosen, held


def _ways(options: Sequence[Sequence[Hand]]) -> list[dict[int, int]]:
    """For each seat on, the number of hands of it and the seats after it by their Bang!s spent in all."""
    ways: list[dict[int, int]] = [{0: 1}]
    for hands_of in reversed(options):
        after: defaultdict[int, int] = defaultdict(int)
        for spent, count in ways[0].items():
            for hand in hands_of:
                after[spent + hand.spent_bangs] += count
        ways.insert(0, dict(after))
    return ways


def _mine(seat: dict[str, Any], you: dict[str, Any]) -> Gangster:
    """The seat's own gangster, as its view shows it."""
    return Gangster(
        alive=seat["alive"],
        wounds=seat["wounds"],
        bangs=you["bang_cards"],
        clicks=you["click_cards"],
        loaded=you["loaded_card"],
        aimed=seat["has_aimed"],
        target=you["aiming_at"],
        stand=you["courage"],
        standing=seat["standing"],
        loot=tuple(you["loot"]),
    )


def _other(seat: dict[str, Any], phase: Phase, hand: Hand, loot: tuple[str, ...]) -> Gangster:
    """Another seat: its hand drawn, its load, aim or courage this turn left unmade where still hidden."""
    aim_unmade = phase is Phase.AIM
    return Gangster(
        alive=seat["alive"],
        wounds=seat["wounds"],
        bangs=hand.bangs,
        clicks=hand.clicks,
        loaded=hand.loaded,
        aimed=seat["has_aimed"] and not aim_unmade,
        target=None if aim_unmade else seat["target"],
        stand=seat["stands"],
        standing=seat["standing"],
        loot=loot,
    )
