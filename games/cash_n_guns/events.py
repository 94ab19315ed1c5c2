"""The facts of Ca$h 'n Guns, in the order a turn produces them (the moves are in `moves.py`)."""

from __future__ import annotations

from typing import Literal

from games.base import Event

Bullet = Literal["bang", "click"]


class LootDealt(Event, frozen=True):
    """The shuffled deck cut into 8 piles of 8; each pile stays secret until its turn reveals it."""

    type = "cash_n_guns.loot_dealt"
    piles: tuple[tuple[str, ...], ...]


class GodfatherChosen(Event, frozen=True):
    """The first Godfather: named in `options.first_godfather`, or drawn at random."""

    type = "cash_n_guns.godfather_chosen"
    seat: int
    drawn: bool


class LootRevealed(Event, frozen=True):
    """A turn begins: its pile turns face up and the New Godfather token is available."""

    type = "cash_n_guns.loot_revealed"
    turn: int
    cards: tuple[str, ...]


class BulletLoaded(Event, frozen=True):
    """A seat put a bullet card face down; only that seat may see which."""

    type = "cash_n_guns.bullet_loaded"
    seat: int
    card: Bullet


class HoldUpStarted(Event, frozen=True):
    """Every living seat has loaded: the aiming window opens for `window_s` seconds."""

    type = "cash_n_guns.hold_up_started"
    turn: int
    window_s: int


class Aimed(Event, frozen=True):
    """A seat aimed during the window; its target is shown when the window closes."""

    type = "cash_n_guns.aimed"
    seat: int
    target: int


class GunsDrawn(Event, frozen=True):
    """The window closed: every seat's target (None: nobody), and the seats too late to aim."""

    type = "cash_n_guns.guns_drawn"
    aims: tuple[int | None, ...]
    late: tuple[int, ...]


class RetargetOrdered(Event, frozen=True):
    """The Godfather ordered a seat to change target."""

    type = "cash_n_guns.retarget_ordered"
    godfather: int
    seat: int


class PrivilegeSkipped(Event, frozen=True):
    """No retarget this turn: the Godfather skipped, or (`automatic`) no seat could be ordered."""

    type = "cash_n_guns.privilege_skipped"
    godfather: int
    automatic: bool


class Retargeted(Event, frozen=True):
    """The ordered seat now aims at `target` instead of `previous`."""

    type = "cash_n_guns.retargeted"
    seat: int
    previous: int
    target: int


class CourageChosen(Event, frozen=True):
    """A seat chose to stand or lie down; only that seat may see which until the reveal."""

    type = "cash_n_guns.courage_chosen"
    seat: int
    stand: bool


class CourageRevealed(Event, frozen=True):
    """Every choice shown together: True stands, False lies down, None for the dead."""

    type = "cash_n_guns.courage_revealed"
    stands: tuple[bool | None, ...]


class ShotsResolved(Event, frozen=True):
    """All bullets at once: each seat's card (`bang`, `click`, `discarded` unseen, None if dead),
    the wounds each seat took, and the seats that died."""

    type = "cash_n_guns.shots_resolved"
    turn: int
    cards: tuple[str | None, ...]
    hits: tuple[int, ...]
    died: tuple[int, ...]


class LootTaken(Event, frozen=True):
    """A standing seat took a loot card (a clip or a first-aid kit acts at once)."""

    type = "cash_n_guns.loot_taken"
    seat: int
    card: str


class TokenTaken(Event, frozen=True):
    """A standing seat took the New Godfather token: it is Godfather from the next turn."""

    type = "cash_n_guns.token_taken"
    seat: int


class TurnEnded(Event, frozen=True):
    """The turn is over: next turn's Godfather, loot carried to it, and loot lost for good."""

    type = "cash_n_guns.turn_ended"
    turn: int
    godfather: int
    carried: tuple[str, ...]
    lost: tuple[str, ...]


class GameEnded(Event, frozen=True):
    """The end: `eighth_turn`, `one_survivor` or `no_survivor`. Loot still on the table is lost, unshared."""

    type = "cash_n_guns.game_ended"
    reason: str


EVENTS: tuple[type[Event], ...] = (
    LootDealt,
    GodfatherChosen,
    LootRevealed,
    BulletLoaded,
    HoldUpStarted,
    Aimed,
    GunsDrawn,
    RetargetOrdered,
    PrivilegeSkipped,
    Retargeted,
    CourageChosen,
    CourageRevealed,
    ShotsResolved,
    LootTaken,
    TokenTaken,
    TurnEnded,
    GameEnded,
)
