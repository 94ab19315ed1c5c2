"""A registered player's move costs no round trip to Redis more than an anonymous seat's: on a plain Redis its save
checks the token and keeps the notices the decision makes for the players seated, in the same step (its rate-limit
counts are kept in the process as a seat's are). Where a player is read ahead (on a Redis Cluster, in the round trip
of its counts), it is never taken on its word: the token is checked against it."""

from __future__ import annotations

import pytest

from benchmarks.roundtrips import counting
from players.state import Player
from service.application import accounts
from service.application.errors import InvalidTokenError
from service.application.services import Services
from service.http import ratelimit
from tests.client import ApiClient, Table
from tests.players.helpers import bearer, create, join


def trips_per_move(api: ApiClient, table: Table, tokens: list[str]) -> list[int]:
    """Each move's round trips over a whole 3-seat game, every seat playing gangster r in round r."""
    trips = []
    for card in range(1, 13):
        for token in tokens:
            with counting() as counted:
                response = api.http.post(
                    f"/v1/games/{table.id}/moves", json={"type": "play", "card": card}, headers=bearer(token)
                )
            assert response.status_code == 200, response.json
            trips.append(counted[0])
    return trips


@pytest.mark.usefixtures("one_minute")  # none of the moves makes the lobby's once-a-minute write
def test_a_players_move_makes_no_round_trip_more_than_a_seats_but_to_tell_the_players(
    api: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ratelimit, "SYNC_S", 600.0)  # however slow the machine, no count ages within the game
    anonymous = api.create(players=3)
    seats = trips_per_move(api, anonymous, [anonymous.tokens[s] for s in range(3)])
    # The seat tokens were handed out by this process, which counts them from zero: a move is its save alone, but for
    # the first with a token from this address, which counts the address's budget in Redis.
    assert seats[:-1] == [2] + [1] * 34, seats
    players = [api.register(f"Mover{i}") for i in range(3)]
    table = create(api, players[0], [{"player": "me"}, {"open": True}, {"open": True}])
    for token in players[1:]:
        join(api, table, token)
    theirs = trips_per_move(api, table, players)
    # A player's: the save alone, which checks the token, and at each round's last move keeps the notices of the new
    # wait (every player seated is told a decision is due).
    assert theirs[:-1] == [1] * 35, theirs
    assert theirs[-1] <= seats[-1] + 1  # the last ends the game: an anonymous one frees its address's place too


def test_a_player_read_ahead_is_checked_against_the_token(services: Services) -> None:
    _, _, token = accounts.register_player(services, "Reader")
    _, _, other = accounts.register_player(services, "Other")
    mine = accounts.authenticate(services, token)
    theirs = accounts.authenticate(services, other)
    # The token of another player is not made good by a player read ahead: its own player is read.
    assert accounts.authenticate(services, other, read=mine) == theirs
    # A token its player does not hold is refused, read ahead or not.
    forged = f"{mine.player_id}.{token.split('.')[1]}.not-the-secret"
    with pytest.raises(InvalidTokenError):
        accounts.authenticate(services, forged, read=mine)
    revoked = Player(player_id=mine.player_id, name=mine.name, created_at=mine.created_at, version=mine.version)
    with pytest.raises(InvalidTokenError):
        accounts.authenticate(services, token, read=revoked)
