"""The player domain on its own: typed events stored as players' logs have always been stored (byte for byte),
an older entry upcast when read, the player they fold to, and the keys a name is claimed under."""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec
import pytest

from players import events
from players.events import (
    Entry,
    PlayerRegistered,
    PlayerTokenIssued,
    PlayerTokenRevoked,
    UnknownPlayerEventError,
    decode_entry,
    encode_entry,
)
from players.names import name_key, skeleton_key
from players.state import Player, TokenRecord, evolve, fold, token_matches

AT = "2025-01-02T03:04:05Z"
ANN = "0123456789abcdef"
LOG = [
    Entry(version=1, event=PlayerRegistered(player_id=ANN, name="Ann"), at=AT),
    Entry(version=2, event=PlayerTokenIssued(token_id="a1b2c3d4", digest="d" * 64), at=AT),
    Entry(version=3, event=PlayerTokenIssued(token_id="e5f6a7b8", digest="e" * 64), at="2025-01-02T03:05:00Z"),
    Entry(version=4, event=PlayerTokenRevoked(token_id="a1b2c3d4"), at="2025-01-02T03:06:00Z"),
]
STORED = [
    b'{"version":1,"type":"player_registered","schema_version":1,"payload":{"player_id":"0123456789abcdef",'
    b'"name":"Ann"},"at":"2025-01-02T03:04:05Z"}',
    b'{"version":2,"type":"player_token_issued","schema_version":1,"payload":{"token_id":"a1b2c3d4","digest":"'
    + b"d" * 64
    + b'"},"at":"2025-01-02T03:04:05Z"}',
    b'{"version":3,"type":"player_token_issued","schema_version":1,"payload":{"token_id":"e5f6a7b8","digest":"'
    + b"e" * 64
    + b'"},"at":"2025-01-02T03:05:00Z"}',
    b'{"version":4,"type":"player_token_revoked","schema_version":1,"payload":{"token_id":"a1b2c3d4"},'
    b'"at":"2025-01-02T03:06:00Z"}',
]
"""The log above as players' logs were stored before their events were typed."""
STATE = (
    b'{"player_id":"0123456789abcdef","name":"Ann","created_at":"2025-01-02T03:04:05Z","version":4,"tokens":'
    b'{"e5f6a7b8":{"digest":"' + b"e" * 64 + b'","issued_at":"2025-01-02T03:05:00Z"}}}'
)
"""The player it folds to, as stored then."""


def test_entries_are_stored_as_they_always_were_and_read_back_as_typed_events() -> None:
    assert [encode_entry(entry) for entry in LOG] == STORED
    assert [decode_entry(raw) for raw in STORED] == LOG


def test_the_log_folds_to_the_player_stored_as_it_always_was() -> None:
    player = fold(LOG)
    assert player == Player(
        player_id=ANN, name="Ann", created_at=AT, version=4, tokens={"e5f6a7b8": TokenRecord("e" * 64, LOG[2].at)}
    )
    assert msgspec.json.encode(player) == STATE
    assert fold(LOG[2:], fold(LOG[:2])) == player  # from a player part way along its log, as a commit folds
    assert token_matches(player, "e5f6a7b8", "e" * 64)
    assert not token_matches(player, "e5f6a7b8", "d" * 64)
    assert not token_matches(player, "a1b2c3d4", "d" * 64)  # revoked


def test_every_player_event_type_is_known_by_its_stable_name() -> None:
    known = events.EVENT_TYPES
    assert known == {
        "player_registered": PlayerRegistered,
        "player_token_issued": PlayerTokenIssued,
        "player_token_revoked": PlayerTokenRevoked,
    }
    with pytest.raises(UnknownPlayerEventError):
        decode_entry(b'{"version":2,"type":"player_renamed","schema_version":1,"payload":{},"at":""}')


class TokenIssuedV2(PlayerTokenIssued, frozen=True):
    """A made-up schema version 2 of `player_token_issued`, to exercise upcasting."""

    schema_version = 2
    upcasters: ClassVar[dict[int, Any]] = {1: lambda p: {**p, "label": "first"}}
    label: str


def test_an_entry_of_an_older_schema_version_is_upcast_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(events.EVENT_TYPES, TokenIssuedV2.type, TokenIssuedV2)
    assert decode_entry(STORED[1]).event == TokenIssuedV2(token_id="a1b2c3d4", digest="d" * 64, label="first")


def test_a_log_must_start_with_the_registration_and_hold_only_player_events() -> None:
    with pytest.raises(AssertionError):
        evolve(None, LOG[1])
    with pytest.raises(ValueError, match="not a player event"):
        evolve(fold(LOG[:1]), Entry(version=2, event=TokenIssuedV2(token_id="x", digest="y", label="z"), at=AT))


@pytest.mark.parametrize(
    ("name", "same"),
    [("Ann", "aNN"), ("Ann", "\uff21nn"), ("\u00c1ngel", "A\u0301ngel"), ("fine", "\ufb01ne")],
)
def test_a_name_is_one_whatever_its_case_or_unicode_spelling(name: str, same: str) -> None:
    assert name_key(name) == name_key(same)


@pytest.mark.parametrize(
    ("name", "lookalike"),
    [("Anna", "\u0410nna"), ("Anna", "\u0391nna"), ("Bill", "BiII"), ("Bill", "Bi11"), ("Olga", "0lga")],
)
def test_a_lookalike_has_the_skeleton_of_the_name_it_looks_like(name: str, lookalike: str) -> None:
    assert name_key(name) != name_key(lookalike)
    assert skeleton_key(name) == skeleton_key(lookalike)


def test_a_name_in_another_scripts_other_letters_does_not_look_alike() -> None:
    assert skeleton_key("Anna") != skeleton_key("\u0410\u043d\u043d\u0430")  # Cyrillic n is no Latin n
