"""The JSON Schema games/schema.py builds: one name and one move `type` per thing, whatever games are added, and
the promises the schemas make (closed moves, optional secrets, typed options) kept."""

from __future__ import annotations

import dataclasses
from typing import Any

import jsonschema_rs
import msgspec
import pytest

from games.base import Catalogue, CatalogueCard, Ruleset
from games.commands import CreateGame, JoinGame, MakeMove, Setup
from games.registry import RULESETS
from games.schema import REF, build, catalogue_components, commands, components, event_names, prefix, tag
from games.table import TABLE_EVENTS, TABLE_SECRET_FIELDS, Seat, options_of

TWELVE_GANGSTERS = RULESETS["twelve-gangsters"]


def test_move_types_are_unique_across_every_ruleset() -> None:
    tags = [tag(m) for r in RULESETS.values() for m in r.moves]
    assert len(tags) == len(set(tags))


def test_a_ruleset_whose_move_type_another_takes_is_refused() -> None:
    rival = dataclasses.replace(TWELVE_GANGSTERS, id="thirteen-gangsters", name="13 Gangsters")
    with pytest.raises(ValueError, match="two rulesets take a move 'play'"):
        build([*RULESETS.values(), rival])


def test_a_ruleset_whose_component_names_another_claims_is_refused() -> None:
    twin = dataclasses.replace(TWELVE_GANGSTERS, id="twelve--gangsters")
    assert prefix(twin) == prefix(TWELVE_GANGSTERS)
    with pytest.raises(ValueError, match="two schemas are named"):
        build([TWELVE_GANGSTERS, twin])


def test_every_move_schema_is_closed_and_names_its_type() -> None:
    schemas = components()
    mapping = schemas["Move"]["discriminator"]["mapping"]
    for ruleset in RULESETS.values():
        for move in ruleset.moves:
            name = prefix(ruleset) + move.__name__
            assert mapping[tag(move)] == f"#/components/schemas/{name}"
            assert schemas[name]["additionalProperties"] is False
            assert {**schemas[name]["properties"]["type"], "description": ""} == {
                "type": "string",
                "enum": [tag(move)],
                "description": "",
            }
            assert "type" in schemas[name]["required"]
    assert [s["$ref"] for s in schemas["Move"]["oneOf"]] == list(mapping.values())


@pytest.mark.parametrize("ruleset", [pytest.param(r, id=r.id) for r in RULESETS.values()])
def test_a_secret_field_is_optional_and_every_other_field_required(ruleset: Ruleset[Any]) -> None:
    schemas = components()
    secrets = {
        **{e: set(f) for e, f in TABLE_SECRET_FIELDS.items()},
        **{e: {f} for e, f in ruleset.secret_fields.items()},
    }
    names = {**event_names(None), **event_names(ruleset)}
    for event in (*TABLE_EVENTS, *ruleset.events):
        payload = schemas[names[event.type]]
        required = {f.name for f in msgspec.structs.fields(event) if f.required}
        assert set(payload["properties"]) == set(event.__struct_fields__)
        assert set(payload["required"]) == required - secrets.get(event, set())


@pytest.mark.parametrize("ruleset", [pytest.param(r, id=r.id) for r in RULESETS.values()])
def test_options_are_typed_with_their_defaults_and_bounds(ruleset: Ruleset[Any]) -> None:
    schema = components()[f"{prefix(ruleset)}Options"]
    assert set(schema["properties"]) == set(options_of(ruleset))
    for name, option in options_of(ruleset).items():
        declared = schema["properties"][name]
        assert declared["default"] == option.default
        value = declared["anyOf"][0]
        assert value["type"] == ("boolean" if option.kind is bool else "integer")
        if option.kind is int:
            assert value["minimum"] == (0 if option.names_a_seat else option.minimum)
            assert value["maximum"] == (ruleset.max_seats - 1 if option.names_a_seat else option.maximum)


@pytest.mark.parametrize("ruleset", [pytest.param(r, id=r.id) for r in RULESETS.values()])
def test_a_view_lists_the_rulesets_decisions_and_types_you_and_state(ruleset: Ruleset[Any]) -> None:
    schemas = components()
    p = prefix(ruleset)
    assert schemas[f"{p}Awaiting"]["properties"]["decision"]["enum"] == list(ruleset.decisions)
    game = schemas[f"{p}Game"]["properties"]
    assert game["ruleset"]["enum"] == [ruleset.id]
    assert game["you"]["$ref"].endswith(f"{p}You")
    assert schemas[f"{p}You"]["properties"]["legal_moves"]["items"]["$ref"].endswith(f"{p}Move")
    assert game["state"]["anyOf"][0]["$ref"].endswith(p + ruleset.state_view.__name__)


def test_a_command_fits_its_schema_as_a_log_records_it_and_only_so() -> None:
    schemas = {**components(), **commands()}
    command = jsonschema_rs.validator_for({"$ref": REF + "Command", "components": {"schemas": schemas}})
    setup = Setup(game_id="g", seats=(Seat(name="Ann"), Seat(bot="random")), options={}, seed=1, salt="s")

    assert command.is_valid(CreateGame(setup=setup).stored())
    assert command.is_valid(JoinGame(player="Ann").stored())
    assert command.is_valid(MakeMove(seat=0, move={"type": "play", "card": 3}, by="bot").stored())
    assert not command.is_valid({"name": "create", "setup": msgspec.to_builtins(setup)}), "the setup is never stored"
    assert not command.is_valid({"name": "join", "player": "Ann", "player_id": None}), "a default is left out"
    assert not command.is_valid({"name": "move", "seat": 0, "move": {"type": "play", "card": 3}, "by": "someone"})
    assert not command.is_valid({"name": "move", "seat": 0, "move": {"type": "no_such_move"}})


class OddCard(CatalogueCard, kw_only=True):
    per_seat: str


def test_a_card_field_two_games_declare_differently_is_refused() -> None:
    odd = Catalogue(cards=(OddCard(id="odd", kind="odd", name="odd", value=0, per_seat="one"),))
    rival = dataclasses.replace(TWELVE_GANGSTERS, id="odd-gangsters", catalogue=odd)
    with pytest.raises(ValueError, match="card field 'per_seat'"):
        catalogue_components([TWELVE_GANGSTERS, rival])
