"""The web client has words for everything the service can say: every event type, every decision and every phase
of every ruleset has a text in each language, and each game's module follows every event type of its ruleset on
the live feed. Read from the client's own modules, without a browser."""

from __future__ import annotations

import re
import typing
from enum import Enum
from pathlib import Path

import pytest

from events.registry import EVENT_TYPES
from games.base import Ruleset
from games.registry import RULESETS

STATIC = Path(__file__).parents[2] / "service" / "http" / "web" / "static"
STRINGS = (STATIC / "strings.js").read_text(encoding="utf-8")
DECISIONS = {decision for ruleset in RULESETS.values() for decision in ruleset.decisions}


def keys(language: str) -> set[str]:
    english, french = STRINGS.split("STRINGS_FR", 1)
    return set(re.findall(r'"((?:ev|decision|m?phase)\.[a-z_.\-]+)"', english if language == "en" else french))


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_event_type_and_decision_has_a_text(language: str) -> None:
    found = keys(language)
    assert {f"ev.{name}" for name in EVENT_TYPES} <= found
    assert {f"decision.{name}" for name in DECISIONS} <= found
    assert {key for key in found if key.startswith("decision.")} == {f"decision.{name}" for name in DECISIONS}


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_each_game_module_follows_every_event_type_of_its_ruleset(ruleset_id: str) -> None:
    module = (STATIC / "games" / f"{ruleset_id.replace('-n-', '_n_').replace('-', '_')}.js").read_text()
    listed = re.search(r"export const EVENTS = \[(.*?)\]\.map\(\(e\) => `([a-z_]+)\.\$\{e\}`\)", module, re.S)
    assert listed is not None
    followed = {f"{listed.group(2)}.{name}" for name in re.findall(r'"([a-z_]+)"', listed.group(1))}
    assert followed == {event.type for event in RULESETS[ruleset_id].events}


PHASE_KEYS = {"cash-n-guns": "phase", "mobsters": "mphase"}
"""Where each game's phases are named in the client's texts (12 Gangsters has none: every round is one choice)."""


def phases(ruleset: Ruleset[typing.Any]) -> set[str]:
    """Every phase a ruleset's view may show (its `phase` field's values)."""
    kind = typing.get_type_hints(ruleset.state_view).get("phase")
    return {str(phase.value) for phase in kind} if isinstance(kind, type) and issubclass(kind, Enum) else set()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_phase_of_every_game_has_a_name(language: str) -> None:
    found = keys(language)
    assert {ruleset_id for ruleset_id, ruleset in RULESETS.items() if phases(ruleset)} == set(PHASE_KEYS)
    for ruleset_id, prefix in PHASE_KEYS.items():
        named = {key.split(".", 1)[1] for key in found if key.startswith(f"{prefix}.")}
        assert phases(RULESETS[ruleset_id]) <= named, (ruleset_id, phases(RULESETS[ruleset_id]) - named)
