"""The use cases on the whole service graph in memory (`Services.in_memory`): no Redis, no HTTP. What a move
saves, answers and refuses; seats taken, left and resigned; a quick match; players; the house's turns."""

from __future__ import annotations

import typing

import msgspec
import pytest

from games import commands
from games.base import IllegalMoveError
from games.commands import MakeMove, recorded
from service.application import accounts, play, queries, seating
from service.application.callers import Caller, seat_of
from service.application.errors import InvalidRequestError, InvalidTokenError, VersionMismatchError
from service.application.house import Done, House, Outcome, tally_game
from service.application.ports import MemoryJobQueue
from service.application.services import Services

SEATS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]


@pytest.fixture
def services() -> Services:
    return Services.in_memory()


@pytest.fixture
def game(services: Services) -> tuple[str, dict[int, str]]:
    created = play.create_game(services, "twelve-gangsters", SEATS, {"first_boss": 0}, None)
    return created.game.game_id, dict(created.handed)


def move(services: Services, game: tuple[str, dict[int, str]], seat: int, card: int, **kwargs: typing.Any) -> dict:
    game_id, handed = game
    body = {"type": "play", "card": card}
    return msgspec.json.decode(play.make_move(services, game_id, Caller(token=handed[seat]), body, **kwargs).document)


def test_every_command_a_log_may_record_has_its_one_decision() -> None:
    assert set(commands.DECISIONS) == set(typing.get_args(commands.AnyCommand))


def test_a_move_answers_the_new_version_its_events_and_the_movers_view(services: Services, game) -> None:
    answer = move(services, game, 1, 7)
    assert answer["version"] == services.repository.get(game[0]).version
    assert [e["type"] for e in answer["events"]] == ["twelve_gangsters.gangster_played"]
    assert answer["events"][0]["payload"] == {"seat": 1, "card": 7}
    assert answer["game"]["you"]["chosen"] == 7


def test_a_move_stores_the_views_of_every_viewer_with_it(services: Services, game) -> None:
    move(services, game, 1, 7)
    spectator = msgspec.json.decode(queries.view(services, game[0], None))
    assert spectator["version"] == services.repository.get(game[0]).version
    assert "you" not in spectator
    own = msgspec.json.decode(queries.view(services, game[0], game[1][1]))
    assert own["you"]["chosen"] == 7


def test_the_log_records_the_move_as_a_typed_command(services: Services, game) -> None:
    move(services, game, 2, 5)
    last = services.repository.log(game[0])[-1]
    assert recorded(last.command or {}) == MakeMove(seat=2, move={"type": "play", "card": 5})


def test_an_idempotent_retry_gets_the_first_answer_and_a_new_body_is_refused(services: Services, game) -> None:
    first = move(services, game, 0, 3, idempotency_key="k")
    again = move(services, game, 0, 3, idempotency_key="k")
    assert again == first
    with pytest.raises(InvalidRequestError) as refused:
        move(services, game, 0, 4, idempotency_key="k")
    assert refused.value.code == "idempotency_key_reused"


def test_a_stale_if_match_is_refused(services: Services, game) -> None:
    version = services.repository.get(game[0]).version
    move(services, game, 0, 3)
    with pytest.raises(VersionMismatchError):
        move(services, game, 1, 3, if_match=version)


def test_a_token_of_no_seat_and_an_illegal_move_are_refused(services: Services, game) -> None:
    with pytest.raises(InvalidTokenError):
        play.make_move(services, game[0], Caller(token="nope"), {"type": "play", "card": 1})
    move(services, game, 0, 3)
    with pytest.raises(IllegalMoveError) as refused:
        move(services, game, 0, 4)
    assert refused.value.code == "already_played"


def test_joining_fills_the_open_seats_and_starts_the_game(services: Services) -> None:
    seats = [{"name": "Ann"}, {"open": True}, {"open": True}]
    game_id = play.create_game(services, "twelve-gangsters", seats, {}, None).game.game_id
    _, seat = play.join_game(services, game_id, "Bob")
    joined, last = play.join_game(services, game_id, "Cat")
    assert (seat, last) == (1, 2)
    assert str(joined.game.table.status) == "in_progress"
    assert seat_of(services, services.repository.get(game_id), joined.handed[2]) == 2
    with pytest.raises(IllegalMoveError):
        play.join_game(services, game_id, "Dan")


def test_a_seat_left_opens_again_and_its_token_opens_nothing(services: Services) -> None:
    seats = [{"name": "Ann"}, {"open": True}, {"open": True}]
    game_id = play.create_game(services, "twelve-gangsters", seats, {}, None).game.game_id
    joined, seat = play.join_game(services, game_id, "Bob")
    token = joined.handed[seat]
    left = seating.leave_game(services, game_id, token)
    assert left.game.table.seats[seat].is_open
    with pytest.raises(InvalidTokenError):
        seating.leave_game(services, game_id, token)
    assert play.join_game(services, game_id, "Cat")[1] == seat


def test_a_resigned_seat_is_played_by_the_house(services: Services) -> None:
    seats = [{"name": "Ann"}, {"bot": "random"}, {"bot": "random"}]
    created = play.create_game(services, "twelve-gangsters", seats, {}, None)
    game_id = created.game.game_id
    seating.resign_game(services, game_id, created.handed[0])
    house = House(services)
    while services.repository.get(game_id).table.status.value == "in_progress":
        assert house.play_bots(game_id).outcome is Outcome.PLAYED
    assert services.repository.get(game_id).table.resigned == (0,)


def test_a_quick_match_joins_a_game_it_can_trust_or_opens_one(services: Services) -> None:
    players = [accounts.register_player(services, name)[0] for name in ("Pat", "Sam", "Kim")]
    opened, seat, created = seating.quick_match(services, "twelve-gangsters", 3, players[0])
    assert (seat, created) == (0, True)
    rigged = play.create_game(services, "twelve-gangsters", [{"name": "Eve"}, {"open": True}, {"open": True}], {}, 7)
    joined, seat, created = seating.quick_match(services, "twelve-gangsters", 3, players[1])
    assert (joined.game.game_id, seat, created) == (opened.game.game_id, 1, False)
    assert joined.game.game_id != rigged.game.game_id
    started, _, _ = seating.quick_match(services, "twelve-gangsters", 3, players[2])
    assert started.game.table.status.value == "in_progress"


def test_a_player_registers_rotates_its_token_and_is_told_it_is_seated(services: Services) -> None:
    player, token_id, token = accounts.register_player(services, "Pat")
    assert accounts.authenticate(services, token).player_id == player.player_id
    _, second = accounts.issue_token(services, player)
    accounts.revoke_token(services, accounts.authenticate(services, second), token_id)
    with pytest.raises(InvalidTokenError):
        accounts.authenticate(services, token)
    seats = [{"player": "me"}, {"bot": "random"}, {"bot": "random"}]
    play.create_game(services, "twelve-gangsters", seats, {}, None, accounts.authenticate(services, second))
    told = services.projections.feeds.feed(player.player_id, "0", 0)
    assert [msgspec.json.decode(data)["type"] for _, data in told] == ["seated", "started", "decision_due"]


def test_the_house_plays_the_bots_turns_that_the_game_queues(services: Services) -> None:
    seats = [{"bot": "smart"}, {"bot": "random"}, {"bot": "random"}]
    game_id = play.create_game(services, "twelve-gangsters", seats, {}, None).game.game_id
    jobs = services.jobs
    assert isinstance(jobs, MemoryJobQueue)
    house = House(services)
    while turns := jobs.take("bot"):
        assert [house.play_bots(g) for g in turns] == [Done(Outcome.PLAYED, 3)]
    assert jobs.take("tally") == [game_id]
    assert house.tally(game_id) == Done(Outcome.TALLIED)
    assert queries.audit(services, game_id).ok


def test_a_finished_game_is_tallied_once(services: Services, game) -> None:
    for card in range(1, 13):
        for seat in range(3):
            move(services, game, seat, card)
    assert tally_game(services, game[0]).table.tallied
    version = services.repository.get(game[0]).version
    tally_game(services, game[0])
    assert services.repository.get(game[0]).version == version
    result = msgspec.json.decode(queries.result(services, game[0]))
    assert result["tallied"] and len(result["scores"]) == 3 and result["version"] == version
