"""The JSON Schema (2020-12, as OpenAPI 3.1 uses it) of what every game takes and shows: its moves, options,
views, event payloads and catalogue cards, and the commands a log records, under the names the OpenAPI document
gives them.

Nothing here is written twice: every schema comes from what games/ already declares. msgspec turns the
Structs into JSON Schema (moves and events in each game's `events.py`/`moves.py`, its cards in `catalogue.py`,
the Structs its views are built of, `Ruleset.state_view` and `Ruleset.you_view`, the table's `GameView`, the
commands of games/commands.py); the rest is assembled from the Ruleset itself (its options, its decisions, the
fields `secret_fields` redacts). A game's components are named after it (`CashNGunsLoad`, `MobstersGameEnded`),
so two games may name their classes alike; a name declared twice is an error, never a silent rename.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable, Mapping
from typing import Any, get_args

import msgspec

from games.base import CatalogueCard, Event, Option, Ruleset
from games.commands import AnyCommand
from games.registry import RULESETS
from games.table import TABLE_EVENTS, TABLE_SECRET_FIELDS, GameView, bot_kinds, options_of

REF = "#/components/schemas/"
Schema = dict[str, Any]


def prefix(ruleset: Ruleset[Any]) -> str:
    """The name a ruleset's components start with: `cash-n-guns` → `CashNGuns`."""
    return "".join(part.capitalize() for part in ruleset.id.split("-"))


def ref(name: str) -> Schema:
    return {"$ref": REF + name}


def tag(struct: type[msgspec.Struct]) -> str:
    """The tag a tagged Struct (a move, a command) is told apart by."""
    return str(struct.__struct_config__.tag)


def merge(into: dict[str, Schema], components: Mapping[str, Schema]) -> None:
    """Add components, refusing a name that is already taken: two games must not claim one name."""
    for name, schema in components.items():
        if name in into:
            raise ValueError(f"two schemas are named {name!r}: rename one")
        into[name] = schema


def struct_components(types: Iterable[Any], name_prefix: str = "") -> dict[str, Schema]:
    """msgspec's JSON Schema of some types and of every type they use, each name prefixed. Every object is
    closed (`additionalProperties: false`): what the service sends is exactly what its Structs declare,
    and a move with a field its type does not take is refused (422 `unknown_field`)."""
    _, found = msgspec.json.schema_components(tuple(types), ref_template=REF + name_prefix + "{name}")
    for name in found:
        if "." in name:  # msgspec spelt out a module path: two classes of one game share a name
            raise ValueError(f"{name}: two classes share the name {name.rsplit('.', 1)[-1]!r}; rename one")
    components = {name_prefix + name: schema for name, schema in found.items()}
    for name, schema in components.items():
        schema["title"] = name  # generators name their classes by title
        if schema.get("type") == "object":
            schema["additionalProperties"] = False
        typed_enums(schema)
    return components


def typed_enums(node: Any) -> None:
    """Give each enum of strings (msgspec writes a Literal as a bare `enum`) its type, as generators want."""
    if isinstance(node, dict):
        enum = node.get("enum")
        if enum and "type" not in node and all(isinstance(value, str) for value in enum):
            node["type"] = "string"
        for value in node.values():
            typed_enums(value)
    elif isinstance(node, list):
        for value in node:
            typed_enums(value)


def move_schema(move: type[msgspec.Struct]) -> Schema:
    """A move's JSON Schema on its own, as `GET /v1/rulesets` serves it: its component in the document, whole
    (a move uses no other type, so it refers to nothing; one that did would need a `$defs` of its own)."""
    found = struct_components([move])
    if len(found) != 1:
        raise ValueError(f"{move.__name__} uses other types: its schema would refer to them")
    return tag_described(found[move.__name__], move)


def tag_described(schema: Schema, move: type[msgspec.Struct]) -> Schema:
    """A move's schema with its `type` described (msgspec writes the tag bare)."""
    schema["properties"]["type"]["description"] = f"the move's type: `{tag(move)}`"
    return schema


def optional(schema: Schema, fields: Iterable[str]) -> None:
    """Fields some viewers do not receive (a redacted secret) are not required."""
    schema["required"] = [name for name in schema["required"] if name not in set(fields)]


def one_of(options: Mapping[str, str], property_name: str) -> Schema:
    """A union of components told apart by one property: `options` maps its values to component names."""
    return {
        "oneOf": [ref(name) for name in dict.fromkeys(options.values())],
        "discriminator": {"propertyName": property_name, "mapping": {k: REF + v for k, v in options.items()}},
    }


def option_schema(option: Option, max_seats: int) -> Schema:
    """One option: its type, bounds and default. Every option may be null: null means its default."""
    if option.kind is bool:
        value: Schema = {"type": "boolean"}
    elif option.names_a_seat:
        value = {"type": "integer", "minimum": 0, "maximum": max_seats - 1}
    else:
        value = {"type": "integer", "minimum": option.minimum, "maximum": option.maximum}
    return {"description": option.description, "anyOf": [value, {"type": "null"}], "default": option.default}


def options_schema(ruleset: Ruleset[Any]) -> Schema:
    """The options a game of this ruleset takes (its own and the table's); a view shows every one of them."""
    options = options_of(ruleset)
    return {
        "title": f"{prefix(ruleset)}Options",
        "description": f"The options of a {ruleset.name} game; one left out takes its default.",
        "type": "object",
        "properties": {name: option_schema(o, ruleset.max_seats) for name, o in options.items()},
        "additionalProperties": False,
    }


def event_names(ruleset: Ruleset[Any] | None) -> dict[str, str]:
    """Each event type of a ruleset (None: of the table) → the component name of its payload."""
    events = TABLE_EVENTS if ruleset is None else ruleset.events
    return {e.type: (prefix(ruleset) if ruleset else "") + e.__name__ for e in events}


def payload_components(ruleset: Ruleset[Any] | None) -> dict[str, Schema]:
    """Each event type's payload, and the types it uses. A field redacted for some viewers is optional."""
    events: tuple[type[Event], ...] = TABLE_EVENTS if ruleset is None else ruleset.events
    secrets: Mapping[type[Event], Iterable[str]] = (
        TABLE_SECRET_FIELDS if ruleset is None else {e: (f,) for e, f in ruleset.secret_fields.items()}
    )
    components = struct_components(events, prefix(ruleset) if ruleset else "")
    names = event_names(ruleset)
    for event in events:
        optional(components[names[event.type]], secrets.get(event, ()))
    return components


def game_components(ruleset: Ruleset[Any]) -> dict[str, Schema]:
    """Everything one ruleset contributes: its moves and their union, its options, its decisions, its
    view (`<Ruleset>Game`, with its `state` and `you`) and its event payloads."""
    p = prefix(ruleset)
    components = struct_components([*ruleset.moves, ruleset.state_view, ruleset.you_view], p)
    for name, schema in payload_components(ruleset).items():
        if components.get(name, schema) != schema:
            raise ValueError(f"{name} is both an event and part of a view, with different schemas")
        components[name] = schema
    for move in ruleset.moves:
        tag_described(components[p + move.__name__], move)
    table = table_view()
    merge(
        components,
        {
            f"{p}Move": {
                "title": f"{p}Move",
                "description": f"A move of {ruleset.name}: `type` says which.",
                **one_of({tag(m): p + m.__name__ for m in ruleset.moves}, "type"),
            },
            f"{p}Options": options_schema(ruleset),
            f"{p}Awaiting": awaiting_schema(ruleset, table["AwaitingView"]),
            f"{p}You": you_schema(ruleset, components.pop(p + ruleset.you_view.__name__)),
            f"{p}Game": game_schema(ruleset, table["GameView"]),
        },
    )
    return components


def awaiting_schema(ruleset: Ruleset[Any], awaiting: Schema) -> Schema:
    """The table's AwaitingView, its `decision` one of the ruleset's."""
    awaiting["title"] = f"{prefix(ruleset)}Awaiting"
    decision = awaiting["properties"]["decision"]
    awaiting["properties"]["decision"] = {**decision, "type": "string", "enum": list(ruleset.decisions)}
    return awaiting


def you_schema(ruleset: Ruleset[Any], own: Schema) -> Schema:
    """What the table shows a seat under `you`: its number, the game's `you_view`, and its legal moves."""
    p = prefix(ruleset)
    before_start = " The fields of the seat's own are absent until the game starts."
    return {
        **own,
        "title": f"{p}You",
        "description": own.get("description", "") + before_start,
        "properties": {
            "seat": {"type": "integer", "description": "the caller's seat"},
            **own["properties"],
            "legal_moves": {
                "type": "array",
                "items": ref(f"{p}Move"),
                "description": "every move the seat may make now",
            },
        },
        "required": ["seat", "legal_moves"],
    }


def game_schema(ruleset: Ruleset[Any], game: Schema) -> Schema:
    """The table's GameView with the ruleset's own parts: `ruleset` itself, `options`, `awaiting`, `state`, `you`."""
    p = prefix(ruleset)
    properties = game["properties"]
    properties["ruleset"] = {**properties["ruleset"], "type": "string", "enum": [ruleset.id]}
    properties["options"] = {**ref(f"{p}Options"), "description": properties["options"]["description"]}
    properties["awaiting"] = {**properties["awaiting"], "items": ref(f"{p}Awaiting")}
    properties["state"] = {**properties["state"], "anyOf": [ref(p + ruleset.state_view.__name__), {"type": "null"}]}
    properties["you"] = {**ref(f"{p}You"), "description": properties["you"]["description"]}
    return {**game, "title": f"{p}Game", "description": f"A {ruleset.name} game as the caller may see it."}


def table_view() -> dict[str, Schema]:
    """The table's `GameView` and the types it uses, before any ruleset types its game's parts."""
    return struct_components([GameView])


def table_components(rulesets: Iterable[Ruleset[Any]]) -> dict[str, Schema]:
    """What every game shares: the table's event payloads, the seat of a view and the game's status. A game's
    ruleset is one of these rulesets', a bot's kind one of theirs."""
    rulesets = list(rulesets)
    components = payload_components(None)
    view = table_view()
    merge(components, {"SeatView": view["SeatView"], "Status": view["Status"]})
    bots = sorted(set().union(*(bot_kinds(r) for r in rulesets)))
    for seat in (components["Seat"], components["SeatView"]):
        seat["properties"]["bot"] = with_strings(seat["properties"]["bot"], bots, "a bot seat's kind")
    seated = components["BotsSeated"]["properties"]
    seated["bot"] = with_strings(seated["bot"], bots, "the kind of bot that took them")
    for name in ("Seat", "SeatView"):
        unions = seat_union(name, components.pop(name))
        merge(components, unions)
    created = components["GameCreated"]["properties"]
    created["ruleset"] = with_strings(created["ruleset"], [r.id for r in rulesets], "the game's ruleset")
    return components


SEAT_SHAPES = {
    "Human": ("name", ("seat", "name", "player", "open", "resigned", "auto_pass")),
    "Bot": ("bot", ("seat", "bot", "open", "resigned")),
    "Open": ("open", ("seat", "open", "invited")),
}
"""A seat's three shapes (games/table.py `Seat`): the field each is told by, and every field it may have."""


def seat_union(name: str, schema: Schema) -> dict[str, Schema]:
    """A seat schema of optional fields (a human's `name`, a `bot`, `open`...) as the union of its shapes: a
    human seat, a bot seat, an open seat, each closed (`Human<name>`, `Bot<name>`, `Open<name>`), and `<name>` their
    `oneOf`. Where it has `open`, an open seat says it (true) and the others too (false); where it has none (a seat
    as created), an open seat has neither a name nor a bot."""
    properties = schema["properties"]
    components: dict[str, Schema] = {}
    for kind, (told_by, fields) in SEAT_SHAPES.items():
        shape = {field: properties[field] for field in fields if field in properties}
        if "open" in shape:
            shape["open"] = {**shape["open"], "const": kind == "Open"}
        required = [field for field in schema.get("required", []) if field in shape]
        if told_by in shape and told_by not in required:
            required.append(told_by)
        component = f"{kind}{name}"
        components[component] = {
            "title": component,
            "description": SEAT_KINDS[kind],
            "type": "object",
            "properties": shape,
            "required": required,
            "additionalProperties": False,
        }
    components[name] = {
        "title": name,
        "description": schema.get("description", "A seat: a human's, a bot's, or open."),
        "oneOf": [ref(component) for component in components],
    }
    return components


SEAT_KINDS = {"Human": "A human's seat.", "Bot": "A bot's seat.", "Open": "An open seat, for someone to join."}


def with_strings(schema: Schema, values: list[str], description: str) -> Schema:
    """A string property (or a nullable one) made one of these values, described if it was not."""
    enum: Schema = {"type": "string", "enum": values}
    if "anyOf" in schema:
        options = [enum if option.get("type") == "string" else option for option in schema["anyOf"]]
        schema = {**schema, "anyOf": options}
    else:
        schema = {**{k: v for k, v in schema.items() if k != "type"}, **enum}
    return {"description": description, **schema}


def catalogue_components(rulesets: Iterable[Ruleset[Any]]) -> dict[str, Schema]:
    """`CatalogueCard`, a card of any game's catalogue: the fields every card has, and the fields each game's card
    Struct adds (any game's card may have them), with the types they use, named `Catalogue<Name>`. ValueError if
    two games declare a field or a type of one name differently."""
    fields: dict[str, Schema] = {}
    used: dict[str, Schema] = {}
    for ruleset in rulesets:
        for card in dict.fromkeys(type(c) for c in ruleset.catalogue.cards):
            found = struct_components([card], "Catalogue")
            for name, schema in found.pop("Catalogue" + card.__name__)["properties"].items():
                if fields.setdefault(name, schema) != schema:
                    raise ValueError(f"two games declare the card field {name!r} differently")
            for name, schema in found.items():
                if used.setdefault(name, schema) != schema:
                    raise ValueError(f"two games declare the card's {name!r} differently")
    required = [f.encode_name for f in msgspec.structs.fields(CatalogueCard)]
    any_card = {"type": "object", "properties": fields, "required": required, "additionalProperties": False}
    return {"CatalogueCard": any_card, **used}


def build(rulesets: Iterable[Ruleset[Any]]) -> dict[str, Schema]:
    """Every component of these rulesets, with `Move` (a move of any of them), `Game` (a game of any) and
    `CatalogueCard` (a card of any). ValueError if two rulesets take a move of the same `type` or claim the same
    component name."""
    rulesets = list(rulesets)
    components = table_components(rulesets)
    for ruleset in rulesets:
        merge(components, game_components(ruleset))
    merge(components, catalogue_components(rulesets))
    moves: dict[str, str] = {}
    for ruleset in rulesets:
        for move in ruleset.moves:
            if tag(move) in moves:
                raise ValueError(f"two rulesets take a move {tag(move)!r}: a move body must name one move type")
            moves[tag(move)] = prefix(ruleset) + move.__name__
    merge(
        components,
        {
            "Move": {
                "title": "Move",
                "description": "A move: `type` names it, and with it the ruleset it belongs to. `legal_moves` "
                "lists the moves a seat may make now.",
                **one_of(moves, "type"),
            },
            "Game": {
                "title": "Game",
                "description": "A game as the caller may see it: `ruleset` says which game, and so the shape of "
                "its `options`, `awaiting`, `state` and `you` (`you` only for a seat token).",
                **one_of({r.id: f"{prefix(r)}Game" for r in rulesets}, "ruleset"),
            },
        },
    )
    return components


@functools.cache
def _built() -> dict[str, Schema]:
    return build(RULESETS.values())


def components() -> dict[str, Schema]:
    """Every component of the games the service offers, by name: a fresh copy the caller may change."""
    return copy.deepcopy(_built())


def commands() -> dict[str, Schema]:
    """Each command as a log records it (games/commands.py `Command.stored`), as `<Name>Command`, and `Command`,
    their union told apart by `name`. A field at its default None is left out of the log, so it is never null
    there; a move is kept as its body was sent, a `Move`."""
    types = get_args(AnyCommand)
    found = struct_components(types)
    names = {tag(command): f"{tag(command).capitalize()}Command" for command in types}
    components: dict[str, Schema] = {}
    for command in types:
        schema = found[command.__name__]
        del schema["title"]  # named by its component alone, as the document always has
        properties = schema["properties"]
        for field in msgspec.structs.fields(command):
            if field.name in command.unstored:
                del properties[field.encode_name]
            elif field.default is None:
                properties[field.encode_name] = never_null(properties[field.encode_name])
        components[names[tag(command)]] = schema
    components["MoveCommand"]["properties"]["move"] = ref("Move")
    components["Command"] = {"description": "The command that caused a batch of events.", **one_of(names, "name")}
    return components


def never_null(schema: Schema) -> Schema:
    """A field's schema without the null (and the default) of `X | None = None`."""
    kept = [option for option in schema["anyOf"] if option != {"type": "null"}]
    rest = {key: value for key, value in schema.items() if key not in ("anyOf", "default")}
    return {**rest, **kept[0]} if len(kept) == 1 else {**rest, "anyOf": kept}
