"""The facts of Ca$h 'n Guns, in the order a turn produces them (the moves are in `moves.py`)."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

from games.base import Event

Bullet = Literal["bang", "click"]


class LootDealt(Event, frozen=True):
    """The shuffled deck cut into 8 piles of 8; each pile stays secret until its turn reveals it."""

    type = "cash_n_guns.loot_dealt"
    piles: Annotated[
        tuple[tuple[str, ...], ...],
        Meta(description="the 8 piles of loot card ids, one per turn: seen by no seat until the end"),
    ]


class GodfatherChosen(Event, frozen=True):
    """The first Godfather: named in `options.first_godfather`, or drawn at random."""

    type = "cash_n_guns.godfather_chosen"
    seat: Annotated[int, Meta(description="the first Godfather's seat")]
    drawn: Annotated[bool, Meta(description="whether it was drawn at random (no `first_godfather` set)")]


class LootRevealed(Event, frozen=True):
    """A turn begins: its pile turns face up and the New Godfather token is available."""

    type = "cash_n_guns.loot_revealed"
    turn: Annotated[int, Meta(description="the turn that begins, from 1")]
    cards: Annotated[tuple[str, ...], Meta(description="the loot card ids turned face up on the table")]


class BulletLoaded(Event, frozen=True):
    """A seat put a bullet card face down; only that seat may see which."""

    type = "cash_n_guns.bullet_loaded"
    seat: Annotated[int, Meta(description="the seat that loaded")]
    card: Annotated[Bullet, Meta(description="the bullet card loaded: seen by its seat only until the shots")]


class HoldUpStarted(Event, frozen=True):
    """Every living seat has loaded: the aiming window opens for `window_s` seconds."""

    type = "cash_n_guns.hold_up_started"
    turn: Annotated[int, Meta(description="the turn, from 1")]
    window_s: Annotated[int, Meta(description="seconds the aiming window stays open")]


class Aimed(Event, frozen=True):
    """A seat aimed during the window; its target is shown when the window closes."""

    type = "cash_n_guns.aimed"
    seat: Annotated[int, Meta(description="the seat that aimed")]
    target: Annotated[int, Meta(description="the seat aimed at: seen by its seat only until the window closes")]


class GunsDrawn(Event, frozen=True):
    """The window closed: every seat's target (None: nobody), and the seats too late to aim."""

    type = "cash_n_guns.guns_drawn"
    aims: Annotated[tuple[int | None, ...], Meta(description="each seat's target, by seat; null: it aims at nobody")]
    late: Annotated[tuple[int, ...], Meta(description="the seats that did not aim in time")]


class RetargetOrdered(Event, frozen=True):
    """The Godfather ordered a seat to change target."""

    type = "cash_n_guns.retarget_ordered"
    godfather: Annotated[int, Meta(description="the Godfather's seat")]
    seat: Annotated[int, Meta(description="the aiming seat ordered to change target")]


class PrivilegeSkipped(Event, frozen=True):
    """No retarget this turn: the Godfather skipped, or (`automatic`) no seat could be ordered."""

    type = "cash_n_guns.privilege_skipped"
    godfather: Annotated[int, Meta(description="the Godfather's seat")]
    automatic: Annotated[bool, Meta(description="true if no seat could be ordered, so none was asked")]


class Retargeted(Event, frozen=True):
    """The ordered seat now aims at `target` instead of `previous`."""

    type = "cash_n_guns.retargeted"
    seat: Annotated[int, Meta(description="the seat that changed target")]
    previous: Annotated[int, Meta(description="the seat it aimed at before")]
    target: Annotated[int, Meta(description="the seat it aims at now")]


class CourageChosen(Event, frozen=True):
    """A seat chose to stand or lie down; only that seat may see which until the reveal."""

    type = "cash_n_guns.courage_chosen"
    seat: Annotated[int, Meta(description="the seat that chose")]
    stand: Annotated[bool, Meta(description="true: it stands; false: it lies down (its own until the reveal)")]


class CourageRevealed(Event, frozen=True):
    """Every choice shown together: True stands, False lies down, None for the dead."""

    type = "cash_n_guns.courage_revealed"
    stands: Annotated[
        tuple[bool | None, ...],
        Meta(description="each seat's choice, by seat: true stands, false lies down, null for the dead"),
    ]


class ShotsResolved(Event, frozen=True):
    """All bullets at once: each seat's card (`bang`, `click`, `discarded` unseen, None if dead),
    the wounds each seat took, and the seats that died."""

    type = "cash_n_guns.shots_resolved"
    turn: Annotated[int, Meta(description="the turn, from 1")]
    cards: Annotated[
        tuple[str | None, ...],
        Meta(description="each seat's bullet card, by seat: `bang`, `click`, `discarded` or null"),
    ]
    hits: Annotated[tuple[int, ...], Meta(description="the wounds each seat took, by seat")]
    died: Annotated[tuple[int, ...], Meta(description="the seats that died")]


class LootTaken(Event, frozen=True):
    """A standing seat took a loot card (a clip or a first-aid kit acts at once)."""

    type = "cash_n_guns.loot_taken"
    seat: Annotated[int, Meta(description="the seat that took it")]
    card: Annotated[str, Meta(description="the loot card id taken")]


class TokenTaken(Event, frozen=True):
    """A standing seat took the New Godfather token: it is Godfather from the next turn."""

    type = "cash_n_guns.token_taken"
    seat: Annotated[int, Meta(description="the seat that took the New Godfather token")]


class TurnEnded(Event, frozen=True):
    """The turn is over: next turn's Godfather, loot carried to it, and loot lost for good."""

    type = "cash_n_guns.turn_ended"
    turn: Annotated[int, Meta(description="the turn that ended, from 1")]
    godfather: Annotated[int, Meta(description="the next turn's Godfather")]
    carried: Annotated[tuple[str, ...], Meta(description="loot card ids left on the table for the next turn")]
    lost: Annotated[tuple[str, ...], Meta(description="loot card ids out of the game for good")]


class GameEnded(Event, frozen=True):
    """The end: `eighth_turn`, `one_survivor` or `no_survivor`. Loot still on the table is lost, unshared."""

    type = "cash_n_guns.game_ended"
    reason: Annotated[str, Meta(description="why it ended: `eighth_turn`, `one_survivor` or `no_survivor`")]


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
