"""12 Gangsters properties over whole random games: any seat count, seed, first Boss, play order and cards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Event
from games.table import Status, Table
from games.twelve_gangsters import RULESET
from games.twelve_gangsters.events import BossChosen, BossPassed, GangsterPlayed, RoundRevealed
from tests.games import helpers

games_settings = settings(max_examples=60, deadline=None)


@dataclass(frozen=True)
class Game:
    seats: int
    first_boss: int | None
    table: Table[Any]
    events: list[Event]

    @property
    def reveals(self) -> list[RoundRevealed]:
        return [e for e in self.events if isinstance(e, RoundRevealed)]

    @property
    def hand(self) -> list[int]:
        return list(range(1, (10 if self.seats == 5 else 12) + 1))


@st.composite
def whole_games(draw: st.DrawFn) -> Game:
    """A finished game: each round the seats choose in a drawn order, each a drawn legal gangster."""
    seats = draw(st.integers(3, 6))
    first_boss = draw(st.none() | st.integers(0, seats - 1))
    options = {} if first_boss is None else {"first_boss": first_boss}
    events = helpers.created(RULESET, seats, options, seed=draw(st.integers(0, 2**32 - 1)))
    table = helpers.given(RULESET, events)
    while table.status is not Status.FINISHED:
        for seat in draw(st.permutations(range(seats))):
            move = draw(st.sampled_from(RULESET.legal_moves(table.rules, seat)))
            table, new = helpers.when(RULESET, table, seat, move)
            events += new
    return Game(seats, first_boss, table, events)


@games_settings
@given(whole_games())
def test_every_gangster_of_every_seat_is_played_exactly_once(game: Game) -> None:
    for seat in range(game.seats):
        played = [e.card for e in game.events if isinstance(e, GangsterPlayed) and e.seat == seat]
        assert sorted(played) == game.hand
        assert sorted(r.plays[seat] for r in game.reveals) == game.hand
        assert sorted(game.table.rules.succeeded[seat] + game.table.rules.stopped[seat]) == game.hand
    assert game.table.rules.hands == ((),) * game.seats


@games_settings
@given(whole_games())
def test_there_is_one_reveal_per_round_and_it_follows_one_play_per_seat(game: Game) -> None:
    rounds = 10 if game.seats == 5 else 12
    assert [r.round for r in game.reveals] == list(range(1, rounds + 1))
    played_since_reveal: list[int] = []
    for event in game.events:
        if isinstance(event, GangsterPlayed):
            played_since_reveal.append(event.seat)
        elif isinstance(event, RoundRevealed):
            assert sorted(played_since_reveal) == list(range(game.seats))
            played_since_reveal = []
    assert played_since_reveal == []


@games_settings
@given(whole_games())
def test_boss_of_round_r_is_the_first_boss_plus_r_minus_one(game: Game) -> None:
    chosen = next(e for e in game.events if isinstance(e, BossChosen))
    assert chosen.drawn is (game.first_boss is None)
    if game.first_boss is not None:
        assert chosen.seat == game.first_boss
    for reveal in game.reveals:
        assert reveal.boss == (chosen.seat + reveal.round - 1) % game.seats
    passed = [e.seat for e in game.events if isinstance(e, BossPassed)]
    assert passed == [r.boss for r in game.reveals[1:]]


@games_settings
@given(whole_games())
def test_succeeded_and_stopped_partition_the_seats_as_the_boss_gangster_decides(game: Game) -> None:
    for reveal in game.reveals:
        assert set(reveal.succeeded).isdisjoint(reveal.stopped)
        assert sorted(reveal.succeeded + reveal.stopped) == list(range(game.seats))
        bar = reveal.plays[reveal.boss]
        others = [s for s in range(game.seats) if s != reveal.boss]
        for seat in others:
            assert (seat in reveal.succeeded) is (reveal.plays[seat] <= bar)
        boss_tied = any(reveal.plays[s] == bar for s in others)
        assert (reveal.boss in reveal.succeeded) is not boss_tied


@games_settings
@given(whole_games())
def test_each_score_is_the_sum_of_that_seats_face_up_gangsters(game: Game) -> None:
    face_up = [[r.plays[s] for r in game.reveals if s in r.succeeded] for s in range(game.seats)]
    result = RULESET.result(game.table.rules)
    assert list(result.scores) == [sum(cards) for cards in face_up]
    seats = msgspec.to_builtins(RULESET.view(game.table.rules, "spectator"))["seats"]
    assert [s["score"] for s in seats] == [sum(cards) for cards in face_up]
    assert [s["succeeded"] for s in seats] == face_up


@games_settings
@given(whole_games())
def test_ranks_follow_score_then_successful_heists(game: Game) -> None:
    result = RULESET.result(game.table.rules)
    heists = [sum(s in r.succeeded for r in game.reveals) for s in range(game.seats)]
    keys = [(score, heists[s]) for s, score in enumerate(result.scores)]
    assert result.ranks == tuple(1 + sum(other > key for other in keys) for key in keys)
    assert result.winners == tuple(s for s in range(game.seats) if keys[s] == max(keys))
    leaders = [s for s in range(game.seats) if result.scores[s] == max(result.scores)]
    expected_tie_break = "successful_heists" if len({heists[s] for s in leaders}) > 1 else None
    assert result.tie_break == expected_tie_break
