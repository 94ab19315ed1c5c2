"""The moves a seat may send in Ca$h 'n Guns, in the order a turn asks for them."""

from __future__ import annotations

from games.base import Move
from games.cash_n_guns.events import Bullet


class Load(Move, frozen=True, tag="load"):
    """Choose this turn's bullet card, face down."""

    card: Bullet


class Aim(Move, frozen=True, tag="aim"):
    """Hold a seat up during the hold-up window."""

    target: int


class OrderRetarget(Move, frozen=True, tag="order_retarget"):
    """The Godfather's privilege: order an aiming seat to change target."""

    seat: int


class SkipPrivilege(Move, frozen=True, tag="skip_privilege"):
    """The Godfather lets every aim stand."""


class Retarget(Move, frozen=True, tag="retarget"):
    """The ordered seat aims at a different seat."""

    target: int


class Courage(Move, frozen=True, tag="courage"):
    """Stand ("Banzai!") or lie down; hidden until every living seat has chosen."""

    stand: bool


class Take(Move, frozen=True, tag="take", omit_defaults=True):
    """A pick during the sharing: one loot card, or the New Godfather token."""

    loot: str | None = None
    godfather_token: bool = False


MOVES: tuple[type[Move], ...] = (Load, Aim, OrderRetarget, SkipPrivilege, Retarget, Courage, Take)
