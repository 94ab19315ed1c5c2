from typing import Any, ClassVar

import pytest

from events import registry
from games.base import Event


class CardShown(Event, frozen=True):
    """A made-up event at schema version 3, to exercise upcasting."""

    type = "test.card_shown"
    schema_version = 3
    upcasters: ClassVar[dict[int, Any]] = {
        1: lambda p: {"seat": p["player"], "card": p["card"]},
        2: lambda p: {**p, "face_up": True},
    }
    seat: int
    card: int
    face_up: bool


@pytest.fixture
def with_card_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.EVENT_TYPES, CardShown.type, CardShown)


def test_an_old_payload_is_upcast_step_by_step_when_read(with_card_shown: None) -> None:
    assert registry.from_payload("test.card_shown", 1, {"player": 2, "card": 7}) == CardShown(
        seat=2, card=7, face_up=True
    )


def test_a_current_payload_is_read_as_is(with_card_shown: None) -> None:
    payload = {"seat": 1, "card": 3, "face_up": False}
    assert registry.from_payload("test.card_shown", 3, payload) == CardShown(seat=1, card=3, face_up=False)


def test_an_unknown_event_type_is_refused() -> None:
    with pytest.raises(registry.UnknownEventError):
        registry.from_payload("nope.nothing_happened", 1, {})


def test_every_event_type_has_a_unique_stable_name() -> None:
    names = [t for t in registry.EVENT_TYPES]
    assert len(names) == len(set(names))
    assert all("." not in name or name.split(".")[0].replace("_", "").isalpha() for name in names)
    assert "twelve_gangsters.gangster_played" in names
    assert "game_created" in names
