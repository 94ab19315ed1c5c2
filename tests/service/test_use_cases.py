"""The use cases on games kept in memory: no Redis, no HTTP. What a move saves, answers and refuses."""

from __future__ import annotations

import msgspec
import pytest

from games.base import IllegalMoveError
from games.commands import MakeMove, recorded
from service.application import play as use_cases
from service.application import queries
from service.application.errors import InvalidRequestError, InvalidTokenError, VersionMismatchError
from service.application.play import Caller
from service.application.services import Services

SEATS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]


@pytest.fixture
def services() -> Services:
    return Services.in_memory()


@pytest.fixture
def game(services: Services) -> tuple[str, dict[int, str]]:
    saved, handed = use_cases.create_game(services, "twelve-gangsters", SEATS, {"first_boss": 0}, None)
    return saved.game.game_id, handed


def play(services: Services, game: tuple[str, dict[int, str]], seat: int, card: int, **kwargs: object) -> dict:
    game_id, handed = game
    body = {"type": "play", "card": card}
    return msgspec.json.decode(use_cases.make_move(services, game_id, Caller(token=handed[seat]), body, **kwargs))


def test_a_move_answers_the_new_version_its_events_and_the_movers_view(services: Services, game) -> None:
    answer = play(services, game, 1, 7)
    assert answer["version"] == services.repository.get(game[0]).version
    assert [e["type"] for e in answer["events"]] == ["twelve_gangsters.gangster_played"]
    assert answer["events"][0]["payload"] == {"seat": 1, "card": 7}
    assert answer["game"]["you"]["chosen"] == 7


def test_a_move_stores_the_views_of_every_viewer_with_it(services: Services, game) -> None:
    play(services, game, 1, 7)
    spectator = msgspec.json.decode(queries.view(services, game[0], None))
    assert spectator["version"] == services.repository.get(game[0]).version
    assert "you" not in spectator
    own = msgspec.json.decode(queries.view(services, game[0], game[1][1]))
    assert own["you"]["chosen"] == 7


def test_the_log_records_the_move_as_a_typed_command(services: Services, game) -> None:
    play(services, game, 2, 5)
    last = services.repository.log(game[0])[-1]
    assert recorded(last.command or {}) == MakeMove(seat=2, move={"type": "play", "card": 5})


def test_an_idempotent_retry_gets_the_first_answer_and_a_new_body_is_refused(services: Services, game) -> None:
    first = play(services, game, 0, 3, idempotency_key="k")
    again = play(services, game, 0, 3, idempotency_key="k")
    assert again == first
    with pytest.raises(InvalidRequestError) as refused:
        play(services, game, 0, 4, idempotency_key="k")
    assert refused.value.code == "idempotency_key_reused"


def test_a_stale_if_match_is_refused(services: Services, game) -> None:
    version = services.repository.get(game[0]).version
    play(services, game, 0, 3)
    with pytest.raises(VersionMismatchError):
        play(services, game, 1, 3, if_match=version)


def test_a_token_of_no_seat_and_an_illegal_move_are_refused(services: Services, game) -> None:
    with pytest.raises(InvalidTokenError):
        use_cases.make_move(services, game[0], Caller(token="nope"), {"type": "play", "card": 1})
    play(services, game, 0, 3)
    with pytest.raises(IllegalMoveError) as refused:
        play(services, game, 0, 4)
    assert refused.value.code == "already_played"


def test_joining_fills_the_open_seats_and_starts_the_game(services: Services) -> None:
    seats = [{"name": "Ann"}, {"open": True}, {"open": True}]
    saved, _ = use_cases.create_game(services, "twelve-gangsters", seats, {}, None)
    game_id = saved.game.game_id
    _, seat, _ = use_cases.join_game(services, game_id, "Bob")
    joined, last, token = use_cases.join_game(services, game_id, "Cat")
    assert (seat, last) == (1, 2)
    assert str(joined.game.table.status) == "in_progress"
    assert use_cases.seat_of(services, services.repository.get(game_id), token) == 2
    with pytest.raises(IllegalMoveError):
        use_cases.join_game(services, game_id, "Dan")


def test_a_finished_game_is_tallied_once(services: Services, game) -> None:
    for card in range(1, 13):
        for seat in range(3):
            play(services, game, seat, card)
    assert use_cases.tally_game(services, game[0]).table.tallied
    version = services.repository.get(game[0]).version
    use_cases.tally_game(services, game[0])
    assert services.repository.get(game[0]).version == version
    result = msgspec.json.decode(queries.result(services, game[0]))
    assert result["tallied"] and len(result["scores"]) == 3 and result["version"] == version
