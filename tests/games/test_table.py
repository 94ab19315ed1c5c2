"""The table around every game: open seats, joining, the start, the secret seed; and `rank_seats`."""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

import pytest

from games.base import EVERYONE, SPECTATOR, Event, IllegalMoveError, rank_seats
from games.table import GameCreated, GameStarted, Seat, SeatJoined, Status, Table, create, event_view, join, plain_view
from games.table import seed_commitment as commitment_of
from games.twelve_gangsters import RULESET
from games.twelve_gangsters.events import BossChosen
from games.twelve_gangsters.moves import Play
from tests.games.helpers import apply, given, when

ANN, OPEN, BOT = Seat(name="Ann"), Seat(), Seat(bot="random")


def waiting_table(seats: list[Seat], seed: int = 42, salt: str = "pepper") -> Table[Any]:
    return given(RULESET, create(RULESET, "game-1", seats, {"first_boss": 0}, seed, salt))


def joined(table: Table[Any], name: str) -> tuple[Table[Any], list[Event]]:
    """The table after `name` joins, and the events of the join."""
    events = join(RULESET, table, name)
    return apply(RULESET, table, events), events


# --- seats and the start -------------------------------------------------------------------------------------


def test_a_table_with_open_seats_waits_without_starting() -> None:
    events = create(RULESET, "game-1", [ANN, OPEN, BOT, OPEN], {}, 42, "pepper")

    assert [e.type for e in events] == ["game_created"]
    table = given(RULESET, events)
    assert table.status is Status.WAITING
    assert table.rules is None
    body = plain_view(RULESET, table, SPECTATOR)
    assert [s["open"] for s in body["seats"]] == [False, True, False, True]
    assert body["awaiting"] == []
    assert body["state"] is None


def test_join_fills_the_first_open_seat() -> None:
    table = waiting_table([ANN, OPEN, BOT, OPEN])

    table, events = joined(table, "Bob")
    assert events == [SeatJoined(seat=1, name="Bob")]
    table, events = joined(table, "Cy")
    assert events[0] == SeatJoined(seat=3, name="Cy")
    assert table.seats == (ANN, Seat(name="Bob"), BOT, Seat(name="Cy"))


def test_game_starts_exactly_when_the_last_open_seat_is_filled() -> None:
    table = waiting_table([OPEN, BOT, OPEN])

    table, events = joined(table, "Bob")
    assert events == [SeatJoined(seat=0, name="Bob")]
    assert table.status is Status.WAITING
    table, events = joined(table, "Cy")
    assert events == [SeatJoined(seat=2, name="Cy"), GameStarted(), BossChosen(seat=0, drawn=False)]
    assert table.status is Status.IN_PROGRESS
    assert table.rules.boss == 0


def test_a_table_created_full_starts_at_once() -> None:
    events = create(RULESET, "game-1", [ANN, BOT, BOT], {"first_boss": 1}, 42, "pepper")

    assert events[1:] == [GameStarted(), BossChosen(seat=1, drawn=False)]
    assert given(RULESET, events).status is Status.IN_PROGRESS


def test_joining_a_started_game_is_refused() -> None:
    table, _ = joined(waiting_table([ANN, OPEN, BOT]), "Bob")

    with pytest.raises(IllegalMoveError) as refusal:
        join(RULESET, table, "Cy")
    assert refusal.value.code == "game_already_started"


def test_version_counts_the_events_folded() -> None:
    table = waiting_table([OPEN, BOT, BOT])
    assert table.version == 1

    table, events = joined(table, "Bob")
    assert table.version == 1 + len(events) == 4
    table, _ = when(RULESET, table, 0, Play(card=3))
    assert table.version == 5


# --- the secret seed ---------------------------------------------------------------------------------------


def test_seed_commitment_is_the_sha256_of_seed_colon_salt() -> None:
    created = create(RULESET, "game-1", [ANN, OPEN, BOT], {}, 42, "pepper")[0]

    assert isinstance(created, GameCreated)
    assert created.seed_commitment == hashlib.sha256(b"42:pepper").hexdigest()
    assert commitment_of(42, "pepper") != commitment_of(42, "salt")
    assert commitment_of(42, "pepper") != commitment_of(43, "pepper")
    assert given(RULESET, [created]).seed_commitment == created.seed_commitment


def test_game_created_hides_seed_and_salt_from_everyone_but_everyone() -> None:
    created = create(RULESET, "game-1", [ANN, OPEN, BOT], {}, 42, "pepper")[0]

    for viewer in (0, 1, SPECTATOR):
        payload = event_view(RULESET, created, viewer)
        assert "seed" not in payload
        assert "salt" not in payload
        assert payload["seed_commitment"] == commitment_of(42, "pepper")
    payload = event_view(RULESET, created, EVERYONE)
    assert (payload["seed"], payload["salt"]) == (42, "pepper")


def test_view_shows_the_seed_only_once_the_game_is_over() -> None:
    table = waiting_table([BOT, BOT, BOT])
    for card in range(1, 13):
        assert "seed" not in plain_view(RULESET, table, SPECTATOR)
        assert "salt" not in plain_view(RULESET, table, 0)
        for seat in range(3):
            table, _ = when(RULESET, table, seat, Play(card=card))

    assert table.status is Status.FINISHED
    body = plain_view(RULESET, table, SPECTATOR)
    assert (body["seed"], body["salt"]) == (42, "pepper")
    assert plain_view(RULESET, table, 0)["you"]["legal_moves"] == []


def test_seat_joined_and_game_started_are_public() -> None:
    for viewer in (0, SPECTATOR, EVERYONE):
        assert event_view(RULESET, SeatJoined(seat=1, name="Bob"), viewer) == {"seat": 1, "name": "Bob"}
        assert event_view(RULESET, GameStarted(), viewer) == {}


# --- rank_seats ----------------------------------------------------------------------------------------------


def test_rank_seats_orders_by_score() -> None:
    result = rank_seats([10, 30, 20])

    assert result.ranks == (3, 1, 2)
    assert result.winners == (1,)
    assert result.tie_break is None
    assert result.scores == (10, 30, 20)


def test_equal_scores_share_a_rank_and_the_next_rank_is_skipped() -> None:
    result = rank_seats([30, 10, 30, 20])

    assert result.ranks == (1, 4, 1, 3)
    assert result.winners == (0, 2)
    assert result.tie_break is None


def test_tie_breaker_separates_leaders_tied_on_score_and_is_named() -> None:
    result = rank_seats([30, 30, 10], [("heists", [2, 3, 9])])

    assert result.ranks == (2, 1, 3)
    assert result.winners == (1,)
    assert result.tie_break == "heists"
    assert result.tie_breakers == ("heists",)


def test_tie_breaker_is_not_named_when_scores_alone_decide_the_lead() -> None:
    result = rank_seats([30, 20, 20], [("heists", [1, 5, 3])])

    assert result.ranks == (1, 2, 3)
    assert result.winners == (0,)
    assert result.tie_break is None


def test_later_tie_breaker_is_named_when_the_first_leaves_leaders_tied() -> None:
    result = rank_seats([10, 10, 10], [("a", [1, 1, 0]), ("b", [0, 2, 5])])

    assert result.ranks == (2, 1, 3)
    assert result.winners == (1,)
    assert result.tie_break == "b"
    assert result.tie_breakers == ("a", "b")


def test_seats_tied_on_every_key_share_the_victory() -> None:
    result = rank_seats([10, 10, 5], [("a", [1, 1, 9])])

    assert result.ranks == (1, 1, 3)
    assert result.winners == (0, 1)
    assert result.tie_break is None


def test_ineligible_seats_get_no_rank_and_cannot_win() -> None:
    result = rank_seats([50, 10, 20], eligible=[False, True, True])

    assert result.ranks == (None, 2, 1)
    assert result.winners == (2,)
    assert result.scores == (50, 10, 20)


def test_ineligible_seats_take_no_part_in_the_tie_break() -> None:
    result = rank_seats([20, 20, 20], [("a", [9, 1, 2])], eligible=[False, True, True])

    assert result.ranks == (None, 2, 1)
    assert result.winners == (2,)
    assert result.tie_break == "a"


def test_no_eligible_seat_means_no_winner() -> None:
    result = rank_seats([5, 7], [("a", [1, 2])], eligible=[False, False], details={"why": "all dead"})

    assert result.ranks == (None, None)
    assert result.winners == ()
    assert result.tie_break is None
    assert result.details == {"why": "all dead"}


# --- a fold ---------------------------------------------------------------------------------------------------


def test_a_fold_asks_what_each_state_awaits_once_and_finds_the_same_waits() -> None:
    from games.cash_n_guns import RULESET as CASH_N_GUNS
    from games.table import TABLE_EVENTS, evolve, play

    events: list[Event] = list(create(CASH_N_GUNS, "game-1", [Seat(name=n) for n in "ABCD"], {}, 7, "salt"))
    table = given(CASH_N_GUNS, events)
    while table.status is Status.IN_PROGRESS:
        seat = min(CASH_N_GUNS.awaiting(table.rules))
        decided = play(CASH_N_GUNS, table, seat, CASH_N_GUNS.legal_moves(table.rules, seat)[0])
        table = apply(CASH_N_GUNS, table, decided)
        events += decided
    asked: list[object] = []

    def awaiting(state: Any) -> dict[int, str]:
        asked.append(state)
        return CASH_N_GUNS.awaiting(state)

    counted = dataclasses.replace(CASH_N_GUNS, awaiting=awaiting)
    folded: Table[Any] | None = None
    for event in events:
        folded = evolve(counted, folded, event)
    game_events = sum(not isinstance(e, TABLE_EVENTS) for e in events)
    assert game_events > 50
    assert len(asked) == game_events + 1  # each state once: the one the game started in, then one per event
    assert folded == table  # the same waits (wait_since, wait_started_at) as the fold made as it went
