"""The committed OpenAPI document: equal to what the code generates, valid, and complete: an operationId, a
summary, every problem it can answer, its security, typed bodies and examples that fit their schemas."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import openapi_spec_validator
import yaml

from games import commands
from games.registry import RULESETS
from games.schema import components as game_components
from games.schema import prefix, tag
from games.table import TABLE_EVENTS, bot_kinds
from service.config import Config
from service.http.app import create_app
from service.http.codes import CODES, TITLES
from service.http.openapi.document import PROBLEMS
from service.ops.cli import openapi_yaml
from tests.client import ApiClient, Table
from tests.http.test_unavailable import needing_redis

SPEC = Path(__file__).parent.parent / "api_spec" / "openapi.yaml"


def test_committed_openapi_document_matches_the_code() -> None:
    assert SPEC.read_text() == openapi_yaml(), "api_spec/openapi.yaml is stale: run `make spec`"


def test_openapi_document_and_docs_are_served(api: ApiClient) -> None:
    document = api.http.get("/openapi.json")
    assert document.status_code == 200
    # json.loads, not the app's reader of request bodies: the document nests deeper than any request may
    assert "/v1/games/{game_id}/moves" in json.loads(document.data)["paths"]
    assert api.http.get("/docs").status_code == 200


def test_the_served_document_is_the_committed_one(api: ApiClient) -> None:
    assert json.loads(api.http.get("/openapi.json").data) == document()


BUILT = """
import dataclasses
from service.config import Config
from service.http.app import create_app
from service.http.openapi import answers, played

config = dataclasses.replace(Config(), redis_url="redis://127.0.0.1:1/0", redis_cluster=False, min_replicas=0)
app = create_app(config)
print(played.examples.cache_info().misses, answers.answers.cache_info().misses)
with app.test_client() as client:
    assert client.get("/openapi.json").status_code == 200
print(played.examples.cache_info().misses, answers.answers.cache_info().misses)
"""


def test_an_app_plays_its_example_games_when_its_document_is_first_asked_for_not_as_it_boots() -> None:
    ran = subprocess.run([sys.executable, "-c", BUILT], capture_output=True, text=True, check=True, timeout=120)
    assert ran.stdout.split("\n")[:2] == ["0 0", "1 1"]


def document() -> dict[str, Any]:
    return yaml.safe_load(SPEC.read_text())


def operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method != "parameters":
                yield path, method, operation


def test_committed_openapi_document_is_valid() -> None:
    doc = document()
    assert doc["openapi"] == "3.1.0"
    openapi_spec_validator.validate(doc)


def test_every_operation_has_a_readable_unique_operation_id_and_a_summary() -> None:
    ids = [operation.get("operationId") for _, _, operation in operations(document())]
    assert all(isinstance(i, str) and re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", i) for i in ids), ids
    assert len(set(ids)) == len(ids)
    assert all(operation.get("summary") for _, _, operation in operations(document()))


PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}


def test_every_problem_is_problem_json_and_every_operation_answers_405() -> None:
    doc = document()
    for path, method, operation in operations(doc):
        responses = operation["responses"]
        assert "405" in responses, f"{method} {path}"
        for status, response in responses.items():
            if status == "default" or int(status) < 400 or path == "/healthz":
                continue
            name = response["$ref"].rsplit("/", 1)[-1]
            content = doc["components"]["responses"][name]["content"]
            assert content["application/problem+json"]["schema"] == PROBLEM_REF, f"{method} {path} {status}"
    assert "Allow" in doc["components"]["responses"]["MethodNotAllowed"]["headers"]


def test_503_is_documented_exactly_where_redis_is_needed() -> None:
    """The routes tests/http/test_unavailable.py finds answering 503 without Redis, and no other."""
    rules = set(needing_redis(Table("0123456789abcdef", {0: "t"}))) | {("/healthz", "GET")}
    documented = {
        (re.sub(r"\{(\w+)\}", lambda m: "<version:version>" if m[1] == "version" else f"<{m[1]}>", path), m.upper())
        for path, m, operation in operations(document())
        if "503" in operation["responses"]
    }
    assert documented == rules


def test_429_is_documented_on_every_rate_limited_route(config: Config) -> None:
    limited = create_app(dataclasses.replace(config, rate_limit="1 per minute"), TESTING=True).test_client()
    for path, method, operation in operations(document()):
        if method != "get" or "{" in path:
            continue
        answers = {limited.get(path).status_code for _ in range(2)}
        assert (429 in answers) == ("429" in operation["responses"]), f"{method} {path}: {answers}"


def test_seat_token_operations_declare_their_security() -> None:
    """Where a token is optional, the operation inherits the document's `security` (`{}` among its alternatives)
    and declares none, as openapi-python-client needs to let a client without a token call it; an operation that
    reads no token declares `[]`."""
    doc = document()
    optional = [{"seatToken": []}, {"playerToken": []}, {}]
    assert doc["security"] == optional
    declared = {o["operationId"]: o.get("security") for _, _, o in operations(doc)}
    for needed in ("makeMove", "leaveGame", "resignGame", "abortGame", "startWithBots", "rematchGame"):
        assert declared[needed] == [{"seatToken": []}, {"playerToken": []}]
    for inherits in ("getGame", "listEvents", "streamEvents", "getStateAtVersion", "createGame", "joinGame"):
        assert declared[inherits] is None, inherits
    for anyone in ("createGame", "joinGame"):  # a player token seats its player; a seat token is 401
        [operation] = [o for _, _, o in operations(doc) if o["operationId"] == anyone]
        assert "must be a player token" in operation["description"] and "401" in operation["responses"]
    for player in ("getMe", "issuePlayerToken", "revokePlayerToken", "listMyGames", "streamMyEvents", "quickMatch"):
        assert declared[player] == [{"playerToken": []}]
    for public in ("listRulesets", "getCardCatalogue", "getResult", "listGames", "registerPlayer", "getLiveness"):
        assert declared[public] == [], public
    for scheme in ("seatToken", "playerToken"):
        found = doc["components"]["securitySchemes"][scheme]
        assert (found["type"], found["scheme"]) == ("http", "bearer")


def test_the_conditional_reads_take_if_none_match_and_may_answer_304_with_their_etag() -> None:
    doc = document()
    conditional = set()
    for path, method, operation in operations(doc):
        takes = {"$ref": "#/components/parameters/IfNoneMatch"} in operation["parameters"]
        assert takes == ("304" in operation["responses"]), f"{method} {path}"
        if takes:
            conditional.add(operation["operationId"])
            assert "ETag" in operation["responses"]["200"]["headers"]
            assert operation["responses"]["304"] == {"$ref": "#/components/responses/NotModified"}
    assert conditional == {"getGame", "listEvents", "getResult", "getStateAtVersion"}
    not_modified = doc["components"]["responses"]["NotModified"]
    assert "content" not in not_modified and "ETag" in not_modified["headers"]


def test_the_live_feeds_declare_their_query_and_last_event_id() -> None:
    for path in ("/v1/games/{game_id}/events/stream", "/v1/players/me/events/stream"):
        item = document()["paths"][path]
        names = {p["name"] for p in item.get("parameters", []) + item["get"]["parameters"] if "name" in p}
        assert {"after", "ticket", "Last-Event-ID"} <= names, path


def test_each_problem_status_tells_every_code_it_is_answered_with() -> None:
    responses = document()["components"]["responses"]
    for status, (name, *_) in PROBLEMS.items():
        told = set(re.findall(r"^- `([a-z_]+)` \(“[^”]+”\): ", responses[name]["description"], re.MULTILINE))
        assert told == {code.code for code in CODES if code.status == status}, status


def test_every_post_may_refuse_a_body_it_does_not_take_and_no_other_method_does() -> None:
    for path, method, operation in operations(document()):
        for status in ("413", "415"):
            assert (status in operation["responses"]) == (method == "post"), f"{method} {path} {status}"
        # Any request may be malformed as HTTP; only a POST's body is read, and may be broken JSON.
        malformed = "BadRequest" if method == "post" else "MalformedRequest"
        assert operation["responses"]["400"] == {"$ref": f"#/components/responses/{malformed}"}, f"{method} {path}"


def test_every_operation_declares_what_the_server_refuses_of_any_request_as_it_reads_it() -> None:
    framing = {"400", "414", "417", "431", "501"}  # service/ops/gunicorn_worker.py; the app's 501 for a transfer coding
    for path, method, operation in operations(document()):
        assert framing <= set(operation["responses"]), f"{method} {path}"


def test_the_request_id_a_client_sends_is_never_refused_and_the_one_answered_fits(api: ApiClient) -> None:
    """The document declares no pattern the service would not enforce: an `X-Request-ID` that does not fit is
    replaced, as its description says; the answer's always fits the response header's pattern."""
    doc = document()
    parameter = doc["components"]["parameters"]["RequestId"]
    assert parameter["schema"] == {"type": "string"} and "else replaced" in parameter["description"]
    pattern = doc["components"]["headers"]["RequestId"]["schema"]["pattern"]
    assert pattern in parameter["description"]
    kept = api.http.get("/v1/rulesets", headers={"X-Request-ID": "client-7f3a.1:x"}).headers["X-Request-ID"]
    replaced = api.http.get("/v1/rulesets", headers={"X-Request-ID": "two words"}).headers["X-Request-ID"]
    long = api.http.get("/v1/rulesets", headers={"X-Request-ID": "x" * 129}).headers["X-Request-ID"]
    assert kept == "client-7f3a.1:x" and replaced != "two words" and long != "x" * 129
    assert all(re.fullmatch(pattern.strip("^$"), given) for given in (kept, replaced, long))


COMMANDS = [
    commands.CreateGame(),
    commands.JoinGame(player="Ann"),
    commands.JoinGame(player="Pat", player_id="3c9f0e1d2b4a5867"),
    commands.MakeMove(seat=1, move={"type": "play", "card": 7}),
    commands.MakeMove(seat=2, move={"type": "play", "card": 3}, by="bot"),
    commands.CloseWait(wait_since=12),
    commands.TallyGame(),
    commands.LeaveGame(seat=1),
    commands.ResignGame(seat=0),
    commands.AbortGame(seat=0),
    commands.AbortGame(player_id="3c9f0e1d2b4a5867"),
    commands.CreateRematch(seat=0, game_id="9b1e4d7a2c3f8e60"),
    commands.StartWithBots(seat=1),
    commands.StartWithBots(player_id="3c9f0e1d2b4a5867"),
    commands.StartWithBots(wait_since=4),
    commands.SetAutoPass(seat=0, decisions=("hit", "crime")),
]


def test_every_command_a_log_records_fits_the_documented_command() -> None:
    doc = document()
    assert {type(c) for c in COMMANDS} == set(typing.get_args(commands.AnyCommand))
    validator = jsonschema_rs.validator_for({"components": doc["components"], "$ref": "#/components/schemas/Command"})
    for command in COMMANDS:
        assert validator.is_valid(command.stored()), command


def test_the_move_body_is_a_discriminated_union_of_every_rulesets_moves() -> None:
    doc = document()
    body = doc["paths"]["/v1/games/{game_id}/moves"]["post"]["requestBody"]["content"]["application/json"]
    move = doc["components"]["schemas"][body["schema"]["$ref"].rsplit("/", 1)[-1]]
    tags = {tag(m): f"#/components/schemas/{prefix(r)}{m.__name__}" for r in RULESETS.values() for m in r.moves}
    assert move["discriminator"] == {"propertyName": "type", "mapping": tags}
    assert [o["$ref"] for o in move["oneOf"]] == list(tags.values())


def test_the_events_page_is_typed_as_json_and_as_ndjson() -> None:
    doc = document()
    content = doc["paths"]["/v1/games/{game_id}/events"]["get"]["responses"]["200"]["content"]
    assert content["application/json"]["schema"] == {"$ref": "#/components/schemas/EventPage"}
    assert content["application/x-ndjson"]["schema"] == {"$ref": "#/components/schemas/Event"}
    stream = doc["paths"]["/v1/games/{game_id}/events/stream"]["get"]["responses"]["200"]
    schema = stream["content"]["text/event-stream"]["schema"]
    assert (schema["type"], schema["contentMediaType"]) == ("string", "text/event-stream")
    assert schema["contentSchema"]["$ref"] == "#/components/schemas/FeedMessage"
    assert stream["description"]
    player = doc["paths"]["/v1/players/me/events/stream"]["get"]["responses"]["200"]
    player_schema = player["content"]["text/event-stream"]["schema"]
    assert player_schema["contentMediaType"] == "text/event-stream"
    assert player_schema["contentSchema"]["$ref"] == "#/components/schemas/PlayerFeedMessage"


def test_every_example_fits_its_schema() -> None:
    doc = document()
    root = {"components": doc["components"]}
    checked = 0
    for path, method, operation in operations(doc):
        for media in operation.get("requestBody", {}).get("content", {}).values():
            validator = jsonschema_rs.validator_for({**root, **media["schema"]})
            for name, example in media.get("examples", {}).items():
                assert validator.is_valid(example["value"]), f"{method} {path}: example {name}"
                checked += 1
    for response in doc["components"]["responses"].values():
        for media in response.get("content", {}).values():
            for shown in shown_in(media):
                assert jsonschema_rs.validator_for({**root, **media["schema"]}).is_valid(shown)
                checked += 1
    for path, method, operation in operations(doc):
        for status, response in operation["responses"].items():
            for name, media in response.get("content", {}).items():
                where = f"{method} {path} {status} {name}"
                assert shown_in(media) or not status.startswith("2"), f"{where}: no example"
                for shown in shown_in(media):
                    errors = jsonschema_rs.validator_for({**root, **media["schema"]}).iter_errors(shown)
                    assert not [f"{e.instance_path}: {e.message}" for e in errors], where
                    checked += 1
    for name, schema in doc["components"]["schemas"].items():
        for shown in schema.get("examples", []):
            errors = jsonschema_rs.validator_for({**root, "$ref": f"#/components/schemas/{name}"}).iter_errors(shown)
            assert not [f"{e.instance_path}: {e.message}" for e in errors], name
            checked += 1
    assert checked >= len(RULESETS) * 2 + 30


def shown_in(media: dict[str, Any]) -> list[Any]:
    """A media type's example answers: its `example`, or each of its `examples`."""
    return [media["example"]] if "example" in media else [e["value"] for e in media.get("examples", {}).values()]


EVERY_EVENT_TYPE = [e.type for e in TABLE_EVENTS] + [e.type for r in RULESETS.values() for e in r.events]


def test_every_event_type_has_an_example_in_its_schema() -> None:
    schemas = document()["components"]["schemas"]
    mapping = schemas["Event"]["discriminator"]["mapping"]
    assert sorted(mapping) == sorted(EVERY_EVENT_TYPE)
    for event_type in EVERY_EVENT_TYPE:
        schema = schemas[mapping[event_type].rsplit("/", 1)[1]]
        assert [shown["type"] for shown in schema.get("examples", [])] == [event_type], f"no example of {event_type}"


def test_every_error_code_has_an_example_on_the_responses_that_can_carry_it() -> None:
    doc = document()
    responses = doc["components"]["responses"]
    for code in CODES:
        carrying = {name for status, (name, *_) in PROBLEMS.items() if status == code.status}
        if code.status == 500:
            carrying = {"DEFAULT_ERROR"}
        assert carrying, f"no response carries {code.code}'s status {code.status}"
        for name in carrying:
            media = responses[name]["content"]["application/problem+json"]
            shown = [e for e in shown_in(media) if e["code"] == code.code]
            assert shown, f"{name} has no example of {code.code}"
            assert all(e["title"] == TITLES[code.code] and e["status"] == code.status for e in shown), code.code
            assert all(e["detail"] and '\\"' not in e["detail"] for e in shown), code.code


def test_every_ruleset_has_an_example_new_game_view_move_page_of_events_and_result() -> None:
    doc = document()
    for path, method, operation_id in [
        ("/v1/games", "post", "createGame"),
        ("/v1/games/{game_id}", "get", "getGame"),
        ("/v1/games/{game_id}/moves", "post", "makeMove"),
        ("/v1/games/{game_id}/events", "get", "listEvents"),
        ("/v1/games/{game_id}/result", "get", "getResult"),
    ]:
        status = "201" if operation_id == "createGame" else "200"
        media = doc["paths"][path][method]["responses"][status]["content"]["application/json"]
        assert set(media["examples"]) == set(RULESETS), operation_id
        for ruleset_id, shown in media["examples"].items():
            value = shown["value"]
            game = value.get("game", value) if operation_id != "listEvents" else value["events"][0]["payload"]
            assert game["ruleset"] == ruleset_id, operation_id


def test_the_live_feeds_example_messages_fit_their_schemas() -> None:
    """Each message of the game feed's example: an `Event` as `GET …/events` shows it, or a `GameFinished`."""
    doc = document()
    root = {"components": doc["components"]}
    feed = doc["paths"]["/v1/games/{game_id}/events/stream"]["get"]["responses"]["200"]
    kinds = set()
    for message in feed["content"]["text/event-stream"]["example"].strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in message.splitlines())
        kinds.add(fields["event"])
        schema = {"game_finished": "GameFinished", "view": "Game"}.get(fields["event"], "Event")
        validator = jsonschema_rs.validator_for({**root, "$ref": f"#/components/schemas/{schema}"})
        assert validator.is_valid(json.loads(fields["data"])), message
        whole = jsonschema_rs.validator_for({**root, "$ref": "#/components/schemas/FeedMessage"})
        assert whole.is_valid({**fields, "data": json.loads(fields["data"])}), message
    assert {"game_finished", "game_tallied", "view"} <= kinds


def test_the_players_feed_example_messages_fit_their_schemas() -> None:
    doc = document()
    root = {"components": doc["components"]}
    feed = doc["paths"]["/v1/players/me/events/stream"]["get"]["responses"]["200"]["content"]["text/event-stream"]
    validator = jsonschema_rs.validator_for({**root, "$ref": "#/components/schemas/PlayerFeedMessage"})
    for message in feed["example"].strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in message.splitlines() if not line.startswith("retry"))
        assert validator.is_valid({**fields, "data": json.loads(fields["data"])}), message


def test_every_live_feed_example_is_messages_each_with_an_event_and_retry_on_the_first() -> None:
    doc = document()
    for path in ("/v1/games/{game_id}/events/stream", "/v1/players/me/events/stream"):
        example = doc["paths"][path]["get"]["responses"]["200"]["content"]["text/event-stream"]["example"]
        messages = [dict(line.split(": ", 1) for line in m.splitlines()) for m in example.strip().split("\n\n")]
        assert all({"id", "event", "data"} <= set(fields) for fields in messages), path  # no bare `retry:` block
        assert "retry" in messages[0] and not any("retry" in fields for fields in messages[1:]), path


TIMESTAMP = re.compile(r"(?:^|_)at$|deadline|_since$")
"""A property named as a moment is: `at`, `created_at`, `deadline_at`, `waiting_since`..."""


def string_branches(schema: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The schema itself if it is a string, and each string among its alternatives."""
    if schema.get("type") == "string":
        yield schema
    for key in ("anyOf", "oneOf"):
        for option in schema.get(key, []):
            yield from string_branches(option)


def properties_of(node: Any, where: str = "") -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every property of every object schema in the document: (where, its name, its schema)."""
    if isinstance(node, dict):
        for name, schema in (node.get("properties") or {}).items():
            if isinstance(schema, dict):
                yield where, name, schema
        for key, value in node.items():
            yield from properties_of(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from properties_of(value, f"{where}/{i}")


def test_every_timestamp_is_a_date_time() -> None:
    """A property named as a moment, if it may be a string, is a `date-time` string (inside the string branch of a
    nullable one); one named so that is no string (`aiming_at`: a seat, `waiting_since`: a version) is not held to
    it."""
    checked = 0
    for where, name, schema in properties_of(document()):
        if TIMESTAMP.search(name):
            for branch in string_branches(schema):
                if branch.get("enum") == [""]:
                    continue  # a game_created of a log from before its moment was recorded
                checked += 1
                assert branch.get("format") == "date-time", f"{where}.{name}"
    assert checked >= 70  # the events' `at`, the games' `created_at`, the deadlines, the players'...


def test_closed_sets_are_typed_enums() -> None:
    """Every `ruleset` is one of the rulesets, every `bot` one of the bots' kinds, and no enum lacks its type."""
    doc = document()
    bots = sorted(set().union(*(bot_kinds(r) for r in RULESETS.values())))
    found = {"ruleset": 0, "bot": 0}
    for where, name, schema in properties_of(doc):
        if name in found:
            for branch in string_branches(schema):
                assert set(branch.get("enum", ())) <= set(RULESETS if name == "ruleset" else bots), f"{where}.{name}"
                assert branch.get("enum"), f"{where}.{name}"
                found[name] += 1
    assert found["ruleset"] >= 10 and found["bot"] >= 5, found
    for parameter in doc["paths"]["/v1/leaderboard"]["get"]["parameters"]:
        if parameter.get("name") == "ruleset":
            assert parameter["schema"]["enum"] == sorted(RULESETS)

    def untyped(node: Any, where: str) -> Iterator[str]:
        if isinstance(node, dict):
            if "enum" in node and "type" not in node:
                yield where
            for key, value in node.items():
                yield from untyped(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from untyped(value, f"{where}/{i}")

    assert not list(untyped(doc["components"], "")), "an enum without its type"


def test_every_field_of_every_move_view_and_event_is_described() -> None:
    """Every property of what the games declare (moves, views, event payloads, their parts) and of each event's
    envelope has a description."""
    schemas = document()["components"]["schemas"]
    names = set(game_components()) | {name for name in schemas if name.endswith("Event")}
    undescribed = [
        f"{name}.{field}"
        for name in sorted(names)
        for field, schema in schemas[name].get("properties", {}).items()
        if not schema.get("description")
    ]
    assert not undescribed
    assert len(names) > 150


def properties_named(node: Any, name: str) -> Iterator[dict[str, Any]]:
    """Every schema the document declares for a property `name`, anywhere."""
    if isinstance(node, dict):
        if isinstance(node.get("properties"), dict) and name in node["properties"]:
            yield node["properties"][name]
        for value in node.values():
            yield from properties_named(value, name)
    elif isinstance(node, list):
        for value in node:
            yield from properties_named(value, name)


def test_a_target_is_a_seat_in_every_move_event_and_view() -> None:
    targets = list(properties_named(document(), "target"))

    def kinds(schema: dict[str, Any]) -> set[str]:
        return set().union(*(kinds(s) for s in schema["anyOf"])) if "anyOf" in schema else {schema["type"]}

    assert len(targets) >= 5  # aim, retarget and charge; aimed and retargeted; the seat view's aim
    assert all(kinds(schema) <= {"integer", "null"} for schema in targets), targets
    assert all("seat" in schema["description"] for schema in targets)
