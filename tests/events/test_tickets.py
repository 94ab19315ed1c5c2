"""The stream tickets' contract, held by both stores: Redis (the service's) and memory (for use-case tests)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from events.tickets import MemoryTicketStore, RedisTicketStore, SeatTicket, TicketStore

ANN = "0123456789abcdef"

Advance = Callable[[float], None]
"""Lets the given seconds pass for the store."""


@pytest.fixture(params=["redis", "memory"])
def tickets(request: pytest.FixtureRequest) -> tuple[TicketStore, Advance]:
    """A store, and what lets time pass for it: Redis's own clock, or the one the memory store is given."""
    if request.param == "memory":
        now = [0.0]

        def advance(seconds: float) -> None:
            now[0] += seconds

        return MemoryTicketStore(clock=lambda: now[0]), advance
    return RedisTicketStore(request.getfixturevalue("redis_client")), time.sleep


def test_a_seat_ticket_opens_its_seats_feed_once(tickets: tuple[TicketStore, Advance]) -> None:
    store, _ = tickets
    ticket = store.issue("g", 2, "holder", token_id="t1")
    assert store.redeem("h", ticket) is None  # another game's
    assert store.redeem("g", ticket) == SeatTicket(2, "holder", "t1")
    assert store.redeem("g", ticket) is None
    assert store.redeem("g", store.issue("g", 0, "other")) == SeatTicket(0, "other", "")
    assert store.redeem("g", "made-up") is None


def test_a_player_ticket_names_its_player_and_opens_its_feed_once(tickets: tuple[TicketStore, Advance]) -> None:
    store, _ = tickets
    ticket = store.issue_player(ANN, "t1")
    assert ticket.startswith(f"{ANN}.") and len(ticket) > len(ANN) + 40
    assert store.redeem_player(ticket) == (ANN, "t1")
    assert store.redeem_player(ticket) is None
    assert store.redeem_player(store.issue_player(ANN)) == (ANN, "")  # minted by no token it knows
    for malformed in ("no-dot", f"{ANN}-x.{ticket.split('.')[1]}", f"{ANN}.made-up"):
        assert store.redeem_player(malformed) is None


def test_a_ticket_expires_after_its_time(tickets: tuple[TicketStore, Advance]) -> None:
    store, advance = tickets
    early, late = store.issue("g", 0, "holder", ttl_s=1), store.issue("g", 0, "holder", ttl_s=1)
    player = store.issue_player(ANN, "t1", ttl_s=1)
    advance(0.5)
    assert store.redeem("g", early) is not None
    advance(0.7)
    assert store.redeem("g", late) is None
    assert store.redeem_player(player) is None
