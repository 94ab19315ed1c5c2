"""The moves a seat may send in Ca$h 'n Guns, in the order a turn asks for them."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from games.base import Move
from games.cash_n_guns.events import Bullet


class Load(Move, frozen=True, tag="load"):
    """Choose this turn's bullet card, face down."""

    card: Annotated[Bullet, Meta(description="the bullet card loaded: `bang` (a shot) or `click` (a bluff)")]


class Aim(Move, frozen=True, tag="aim"):
    """Hold a seat up during the hold-up window."""

    target: Annotated[int, Meta(description="the seat aimed at: another living seat")]


class OrderRetarget(Move, frozen=True, tag="order_retarget"):
    """The Godfather's privilege: order an aiming seat to change target."""

    seat: Annotated[int, Meta(description="the aiming seat ordered to change its target")]


class SkipPrivilege(Move, frozen=True, tag="skip_privilege"):
    """The Godfather lets every aim stand."""


class Retarget(Move, frozen=True, tag="retarget"):
    """The ordered seat aims at a different seat."""

    target: Annotated[int, Meta(description="the seat aimed at now: another living seat than before")]


class Courage(Move, frozen=True, tag="courage"):
    """Stand ("Banzai!") or lie down; hidden until every living seat has chosen."""

    stand: Annotated[bool, Meta(description="true to stand (and take a share of the loot), false to lie down")]


class Take(Move, frozen=True, tag="take", omit_defaults=True):
    """A pick during the sharing: one loot card, or the New Godfather token."""

    loot: Annotated[str | None, Meta(description="the loot card taken: its id, one of the loot on the table")] = None
    godfather_token: Annotated[bool, Meta(description="true to take the New Godfather token instead of a card")] = False


MOVES: tuple[type[Move], ...] = (Load, Aim, OrderRetarget, SkipPrivilege, Retarget, Courage, Take)
