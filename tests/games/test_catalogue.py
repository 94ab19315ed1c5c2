"""Every game's card catalogue: one entry per id, each with the common fields, every kind described, JSON-able,
fitting the documented card; and 12 Gangsters' gangsters, worth what the rules score."""

from __future__ import annotations

import json
from typing import Any

import jsonschema_rs
import msgspec
import pytest

from games.base import Ruleset
from games.registry import RULESETS
from games.schema import REF, components
from games.twelve_gangsters import RULESET as TWELVE_GANGSTERS
from games.twelve_gangsters.rules import result
from games.twelve_gangsters.state import initial_state


def entries(ruleset: Ruleset[Any]) -> dict[Any, dict[str, Any]]:
    return {card["id"]: card for card in msgspec.to_builtins(ruleset.catalogue.cards)}


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=list(RULESETS))
def test_a_catalogue_lists_each_id_once_with_its_kind_name_and_value(ruleset: Ruleset[Any]) -> None:
    cards = ruleset.catalogue.cards

    assert cards, f"{ruleset.id} has no catalogue"
    assert len({card.id for card in cards}) == len(cards), "ids are unique"
    for card in cards:
        assert isinstance(card.id, int | str) and not isinstance(card.id, bool)
        assert isinstance(card.kind, str) and isinstance(card.name, str) and card.name
        assert isinstance(card.value, int) and card.value >= 0, card


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=list(RULESETS))
def test_every_kind_and_number_of_a_catalogue_is_described(ruleset: Ruleset[Any]) -> None:
    catalogue = ruleset.catalogue

    assert {card.kind for card in catalogue.cards} == set(catalogue.kinds)
    assert all(description.strip() for description in catalogue.kinds.values())
    assert all(constant.description.strip() for constant in catalogue.constants.values())


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=list(RULESETS))
def test_every_card_fits_the_documented_card(ruleset: Ruleset[Any]) -> None:
    card = jsonschema_rs.validator_for({"$ref": REF + "CatalogueCard", "components": {"schemas": components()}})

    for entry in msgspec.to_builtins(ruleset.catalogue.cards):
        assert card.is_valid(entry), entry


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=list(RULESETS))
def test_a_catalogue_survives_json_unchanged(ruleset: Ruleset[Any]) -> None:
    catalogue = ruleset.catalogue
    cards = msgspec.to_builtins(list(catalogue.cards))
    constants = {name: c.value for name, c in catalogue.constants.items()}

    assert json.loads(json.dumps(cards)) == cards
    assert json.loads(json.dumps(constants)) == msgspec.to_builtins(constants)


def test_twelve_gangsters_are_worth_1_to_12_as_the_rules_score_them() -> None:
    gangsters = entries(TWELVE_GANGSTERS)

    assert sorted(gangsters) == list(range(1, 13))
    for number, card in gangsters.items():
        state = msgspec.structs.replace(initial_state(3, {}), succeeded=((number,), (), ()))
        assert card["value"] == number == result(state).scores[0]


def test_twelve_gangsters_rounds_and_hands_by_players_are_the_deals() -> None:
    rounds = TWELVE_GANGSTERS.catalogue.constants["rounds"].value
    gangsters = entries(TWELVE_GANGSTERS)

    assert set(rounds) == {str(n) for n in range(TWELVE_GANGSTERS.min_seats, TWELVE_GANGSTERS.max_seats + 1)}
    for players, count in rounds.items():
        state = initial_state(int(players), {})
        assert state.rounds == count
        assert all(
            hand == tuple(n for n, c in gangsters.items() if int(players) in c["players"]) for hand in state.hands
        )
    assert gangsters[11]["players"] == gangsters[12]["players"] == [3, 4, 6]
    assert rounds["5"] == 10
