"""On a plain Redis a player's move is its save alone: the save checks, in the very step that lands the move, that
the player still holds the token (events.store.LiveToken). Only a token the process has seen live is decided on
before that: any other is read and refused first. Whatever else a move is answered (a refusal, a first answer given
again) waits for the token to be read and checked, so a token that is not live moves nothing and learns nothing."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from flask.testing import FlaskClient

from benchmarks.roundtrips import sending
from events import store
from service.application import accounts
from tests.client import ApiClient, Table, assert_problem
from tests.players.helpers import bearer, create

GAME_SCRIPTS = [hashlib.sha1(script.encode()).hexdigest().encode() for script in (store._LOAD, store._COMMIT)]
"""The scripts that load a game and save a decision, as EVALSHA names them."""


@contextmanager
def games_touched() -> Iterator[list[bool]]:
    """Whether each command redis-py sends while the block runs loads a game or saves a decision."""
    called: list[bool] = []

    def note(command: Any) -> None:
        packed = b"".join(bytes(part) for part in command) if isinstance(command, list) else bytes(command)
        called.append(any(sha in packed for sha in GAME_SCRIPTS))

    with sending(note):
        yield called


def move(http: FlaskClient, table: Table, token: str, card: int, **headers: str) -> Any:
    return http.post(
        f"/v1/games/{table.id}/moves", json={"type": "play", "card": card}, headers=bearer(token) | headers
    )


def seated(api: ApiClient) -> tuple[str, str, Table]:
    """Ann's first token and a second one, and a game she sits in (seat 0) that has started."""
    ann = api.register("Ann")
    second = api.http.post("/v1/players/me/tokens", headers=bearer(ann))
    assert second.status_code == 201
    return ann, second.json["token"], create(api, ann, [{"player": "me"}, {"name": "Bob"}, {"name": "Cat"}])


def awaited(api: ApiClient, table: Table, token: str) -> bool:
    return bool(api.http.get(f"/v1/games/{table.id}", headers=bearer(token)).json["you"]["legal_moves"])


def revoke(api: ApiClient, token: str, by: str) -> None:
    assert api.http.delete(f"/v1/players/me/tokens/{token.split('.')[1]}", headers=bearer(by)).status_code == 204


def test_a_revoked_token_moves_nothing_though_the_process_holds_the_game(api: ApiClient) -> None:
    ann, second, table = seated(api)
    assert api.play(table, 1, 5).status_code == 200  # this process holds the game as it saved it: no load comes first
    revoke(api, ann, by=second)
    version = api.game(table)["version"]
    with games_touched() as called:
        assert_problem(move(api.http, table, ann, 3), 401, "invalid_token")
    assert any(called)  # seen live before (at the creation): decided, and refused by the save
    with games_touched() as called:
        assert_problem(move(api.http, table, ann, 3), 401, "invalid_token")
    assert called and not any(called)  # found not live, forgotten: read and refused before anything is decided
    assert api.game(table)["version"] == version
    assert awaited(api, table, second)  # Ann's seat is still awaited
    assert move(api.http, table, second, 3).status_code == 200  # the token it holds moves


def test_a_forged_token_learns_nothing_from_a_refusal_and_moves_nothing(api: ApiClient) -> None:
    ann, _, table = seated(api)
    player_id, token_id, _ = ann.split(".")
    forged = f"{player_id}.{token_id}.not-the-secret"
    # To the live token, a gangster the seat does not hold is refused as such; to a forged one, only the token is.
    assert_problem(move(api.http, table, ann, 13), 409, "card_not_in_hand")
    version = api.game(table)["version"]
    # A token never seen live is read and refused before its move is decided: how long a refusal takes says nothing
    # of whether the seat holds the gangster.
    for card in (13, 3):
        with games_touched() as called:
            assert_problem(move(api.http, table, forged, card), 401, "invalid_token")
        assert called and not any(called)
    assert api.game(table)["version"] == version
    assert awaited(api, table, ann)


def test_a_first_answer_is_given_again_only_to_a_token_still_live(api: ApiClient) -> None:
    ann, second, table = seated(api)
    first = move(api.http, table, ann, 4, **{"Idempotency-Key": "k1"})
    assert first.status_code == 200
    again = move(api.http, table, ann, 4, **{"Idempotency-Key": "k1"})
    assert again.status_code == 200 and again.get_data() == first.get_data()
    revoke(api, ann, by=second)
    assert_problem(move(api.http, table, ann, 4, **{"Idempotency-Key": "k1"}), 401, "invalid_token")


def test_a_process_remembers_the_newest_tokens_it_has_seen_live_and_forgets_one_found_not() -> None:
    seen = accounts.Vouched(most=2)
    for digest in ("a", "b", "c"):
        seen.add(digest)
    assert "a" not in seen and "b" in seen and "c" in seen
    seen.add("b")  # seen again: the newest
    seen.add("d")
    assert "b" in seen and "c" not in seen
    seen.forget("b")
    assert "b" not in seen and "d" in seen
