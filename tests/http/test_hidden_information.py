"""The differential test: two games alike in everything but one seat's face-down gangster look the same to
everyone else, down to every byte of their views, logs and error messages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.client import ApiClient, Table, assert_problem

PLAYERS = 4
HIDER = 1
HIDDEN = {"a": 11, "b": 12}
ROUND_ONE = [3, 5, 9, 7]
PER_GAME = ("game_id", "created_at", "seed_commitment")


def twin_game(api: ApiClient, hidden: int) -> Table:
    """Round one played and revealed; in round two, seats 0 and 2 have chosen, the hider chose `hidden`,
    seat 3 has not chosen yet, so nothing of round two is revealed."""
    table = api.create(players=PLAYERS, seed=7, options={"first_boss": 2})
    for seat, card in enumerate(ROUND_ONE):
        assert api.play(table, seat, card).status_code == 200
    for seat, card in ((0, 4), (HIDER, hidden), (2, 1)):
        assert api.play(table, seat, card).status_code == 200
    return table


@pytest.fixture
def twins(api: ApiClient) -> dict[str, Table]:
    return {name: twin_game(api, card) for name, card in HIDDEN.items()}


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """A game view without what legitimately differs between two games: the id, the creation time, the
    seed commitment (each game draws its own salt) and the clock time a deadline falls."""
    awaiting = [{k: v for k, v in a.items() if k != "deadline_at"} for a in view.get("awaiting", [])]
    return {**{k: v for k, v in view.items() if k not in PER_GAME}, "awaiting": awaiting}


def public_feed(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The feed without what is random per event (time, hashes, nonces, command ids) or per game (id, commitment)."""
    dropped = ("at", "hash", "prev_hash", "nonce", "command_id", *PER_GAME)
    feed = []
    for event in events:
        payload = {k: v for k, v in event["payload"].items() if k not in PER_GAME}
        feed.append({**{k: v for k, v in event.items() if k not in dropped}, "payload": payload})
    return feed


@pytest.mark.parametrize("viewer", [None, 0, 2, 3], ids=["spectator", "seat0", "seat2", "seat3"])
def test_other_seats_and_spectators_see_the_same_game_whatever_card_is_hidden(
    api: ApiClient, twins: dict[str, Table], viewer: int | None
) -> None:
    a, b = twins["a"], twins["b"]
    view_a, view_b = api.game(a, viewer), api.game(b, viewer)
    assert view_a["status"] == "in_progress" and view_a["state"]["round"] == 2
    assert view_a["awaiting"] == [{"seat": 3, "decision": "play", "simultaneous": True}]
    assert public_view(view_a) == public_view(view_b)
    feed_a, feed_b = api.events(a, viewer), api.events(b, viewer)
    assert len(feed_a) == view_a["version"]
    assert public_feed(feed_a) == public_feed(feed_b)
    hider_events = [e for e in feed_a if e["seat"] == HIDER]
    assert hider_events[-1]["payload"] == {"seat": HIDER}
    assert "command" not in hider_events[-1]


def test_the_hider_sees_its_own_card_in_its_view_and_its_log(api: ApiClient, twins: dict[str, Table]) -> None:
    for name, table in twins.items():
        you = api.game(table, HIDER)["you"]
        assert you["chosen"] == HIDDEN[name]
        assert you["legal_moves"] == []
        own = [e for e in api.events(table, HIDER) if e["seat"] == HIDER][-1]
        assert own["payload"] == {"seat": HIDER, "card": HIDDEN[name]}
        assert own["command"]["move"] == {"type": "play", "card": HIDDEN[name]}
    # The differential can tell the twins apart when it may: the hider's own views differ.
    assert public_view(api.game(twins["a"], HIDER)) != public_view(api.game(twins["b"], HIDER))


def test_a_spectator_does_not_see_any_chosen_card_or_hand(api: ApiClient, twins: dict[str, Table]) -> None:
    view = api.game(twins["a"])
    assert "you" not in view and "you" not in view["state"]
    for public in view["state"]["seats"]:
        assert "hand" not in public and "chosen" not in public
    assert [s["has_chosen"] for s in view["state"]["seats"]] == [True, True, True, False]


def test_errors_from_other_seats_moves_are_the_same_whatever_card_is_hidden(
    api: ApiClient, twins: dict[str, Table]
) -> None:
    bad_moves = [
        (0, {"type": "play", "card": 6}, 409, "already_played"),
        (2, {"type": "play", "card": 2}, 409, "already_played"),
        (3, {"type": "play", "card": 7}, 409, "card_not_in_hand"),  # seat 3 played its 7 in round one
        (3, {"type": "play", "card": 13}, 409, "card_not_in_hand"),
        (3, {"type": "play", "card": "11"}, 422, "invalid_request"),
        (3, {"type": "steal", "card": 12}, 422, "invalid_request"),
    ]
    for seat, move, status, code in bad_moves:
        bodies = {}
        for name, table in twins.items():
            response = api.move(table, seat, **move)
            bodies[name] = assert_problem(response, status, code)
            text = response.get_data(as_text=True)
            if move.get("card") not in (HIDDEN[name], str(HIDDEN[name])):
                assert str(HIDDEN[name]) not in text, text
        assert bodies["a"] == bodies["b"]
    assert api.version(twins["a"]) == api.version(twins["b"])


def test_the_round_is_revealed_to_all_once_the_last_seat_plays(api: ApiClient, twins: dict[str, Table]) -> None:
    for name, table in twins.items():
        assert api.play(table, 3, 2).status_code == 200
        last_round = api.game(table)["state"]["last_round"]
        assert last_round["plays"] == [4, HIDDEN[name], 1, 2]
