"""A process acts on the game as it last loaded or saved it, without loading it again, and a game another process
moved meanwhile is loaded and decided again: no move is refused, lost or doubled for it. Two `bootstrap`s on one
Redis stand for two processes (two gunicorn workers, or the API and a worker). A move is decided again only in a
wait that began before it came, as if loaded then: a duplicate of a round's last move never lands in the next round."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from typing import Any

import pytest
import redis

from events import keys
from games.table import utc_iso
from service.application import play, seating
from service.application.callers import Caller
from service.application.errors import GameMovedOnError, InvalidTokenError
from service.application.services import Services
from service.bootstrap import bootstrap


def loads(client: redis.Redis) -> int:
    """Loads so far: the load script is the one that reads a game's token hashes (HGETALL)."""
    return int(client.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0))


def new_game(services: Services) -> tuple[str, dict[int, str]]:
    created = play.create_game(services, "twelve-gangsters", [{"name": n} for n in "ABC"], {"first_boss": 0}, None)
    return created.game.game_id, dict(created.handed)


def move(services: Services, game_id: str, token: str, card: int, **how: Any) -> play.Moved:
    return play.make_move(services, game_id, Caller(token=token), {"type": "play", "card": card}, **how)


def chosen(client: redis.Redis, game_id: str) -> list[bool]:
    return [c is not None for c in bootstrap(client=client).repository.get(game_id).table.rules.chosen]


def test_a_process_moves_on_the_game_it_holds_without_loading_it(redis_client: redis.Redis) -> None:
    services = bootstrap(client=redis_client)
    game_id, tokens = new_game(services)
    before = loads(redis_client)
    for seat in range(3):
        move(services, game_id, tokens[seat], 1)
    assert loads(redis_client) == before
    assert services.repository.get(game_id).version == redis_client.xlen(keys.events(game_id))


def test_a_game_moved_by_another_process_is_loaded_and_decided_again(redis_client: redis.Redis) -> None:
    one, other = bootstrap(client=redis_client), bootstrap(client=redis_client)
    game_id, tokens = new_game(one)
    move(one, game_id, tokens[0], 5)  # `one` holds the game after it
    move(other, game_id, tokens[1], 6)
    # On the game `one` holds, seat 2's card closes the round without seat 1's: the save refuses it, and it is
    # decided again on the game as it stands (the same wait), where it closes the round with seat 1's card.
    landed = move(one, game_id, tokens[2], 7)
    game = one.repository.get(game_id)
    assert landed.version == game.version == redis_client.xlen(keys.events(game_id))
    assert game.table.rules.round == 2 and chosen(redis_client, game_id) == [False] * 3


def test_a_move_an_old_state_would_refuse_is_decided_on_the_game_as_it_stands(redis_client: redis.Redis) -> None:
    one, other = bootstrap(client=redis_client), bootstrap(client=redis_client)
    game_id, tokens = new_game(one)
    move(one, game_id, tokens[0], 5)  # `one` holds round 1, seat 0 chosen
    move(other, game_id, tokens[1], 6)
    move(other, game_id, tokens[2], 7)  # round 2
    # On the game `one` holds, seat 0 has chosen this round already: that old state's refusal is not the answer.
    landed = move(one, game_id, tokens[0], 8)
    assert landed.version == redis_client.xlen(keys.events(game_id))
    assert chosen(redis_client, game_id) == [True, False, False]


def test_a_token_voided_in_another_process_opens_nothing_in_a_process_holding_the_game(
    redis_client: redis.Redis,
) -> None:
    one, other = bootstrap(client=redis_client), bootstrap(client=redis_client)
    created = play.create_game(one, "twelve-gangsters", [{"name": "A"}, {"open": True}, {"open": True}], {}, None)
    game_id, token = created.game.game_id, created.handed[0]
    seating.leave_game(other, game_id, token)  # `one` holds the game with seat 0's token still good
    version = redis_client.xlen(keys.events(game_id))
    with pytest.raises(InvalidTokenError):
        seating.leave_game(one, game_id, token)
    assert redis_client.xlen(keys.events(game_id)) == version


def test_a_move_on_a_game_held_a_wait_behind_lands_as_on_the_game_loaded(redis_client: redis.Redis) -> None:
    one, other = bootstrap(client=redis_client), bootstrap(client=redis_client)
    game_id, tokens = new_game(one)
    move(one, game_id, tokens[0], 5)  # `one` holds round 1, seat 1 still to choose
    for seat, card in ((1, 6), (2, 7), (0, 8)):
        move(other, game_id, tokens[seat], card)  # round 2, seat 0 has chosen
    # Seat 1's card for round 2, sent to `one`: decided on round 1 there, refused by the save, and decided again on
    # round 2, where the sender saw it was awaited (the game had moved on before the move came, not after).
    landed = move(one, game_id, tokens[1], 9)
    assert landed.version == redis_client.xlen(keys.events(game_id))
    assert chosen(redis_client, game_id) == [True, True, False]


def test_an_idempotent_move_sent_again_gets_its_first_answer_from_a_process_holding_the_game(
    redis_client: redis.Redis,
) -> None:
    one, other = bootstrap(client=redis_client), bootstrap(client=redis_client)
    game_id, tokens = new_game(one)
    first = move(one, game_id, tokens[0], 5, idempotency_key="k1")
    other.repository.get(game_id)
    for services in (one, other):  # each holds the game after the move: card 5 is no longer in the hand
        again = move(services, game_id, tokens[0], 5, idempotency_key="k1")
        assert again.document == first.document
    assert redis_client.xlen(keys.events(game_id)) == first.version


def test_a_move_held_a_wait_behind_whose_next_wait_began_after_it_came_is_refused_not_carried_on(
    redis_client: redis.Redis,
) -> None:
    one, other = bootstrap(client=redis_client), bootstrap(client=redis_client)
    game_id, tokens = new_game(one)
    move(one, game_id, tokens[0], 5)  # `one` holds round 1, seats 1 and 2 still to choose
    move(other, game_id, tokens[1], 6)
    move(other, game_id, tokens[2], 7)  # round 2 begins
    began = datetime.fromisoformat(other.repository.get(game_id).table.wait_started_at)
    version = redis_client.xlen(keys.events(game_id))
    # Seat 2's move sent again to `one` (a duplicate of round 1's last), which it got a moment before round 2 began:
    # decided on round 1 there, refused by the save, and not carried into a round its sender had not seen.
    came_before = dataclasses.replace(one, clock=lambda: utc_iso(began - timedelta(milliseconds=5)))
    with pytest.raises(GameMovedOnError):
        move(came_before, game_id, tokens[2], 8)
    assert redis_client.xlen(keys.events(game_id)) == version
    assert chosen(redis_client, game_id) == [False] * 3
