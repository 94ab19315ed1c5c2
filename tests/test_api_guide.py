"""The client developers' guide (docs/api.md) keeps up with the code: every route, move type, event type and
error code the service can answer is in it, each code with its status and title as the registry declares them
(service/http/codes.py), each game's rules as the catalogue serves them, and each game's examples as its example
game played them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
from flask import Flask

from games.registry import RULESETS
from games.table import TABLE_EVENTS
from service.application.house import House
from service.http.codes import RULES, SERVICE, TITLES
from service.http.openapi.played import examples
from tests.client import ApiClient
from tests.service.read_models import play_shared_victory

ROOT = Path(__file__).parents[1]
GUIDE = (ROOT / "docs" / "api.md").read_text()

REQUEST_AND_SERVICE = "**Request and service codes**"


def error_tables() -> dict[str, list[list[str]]]:
    """The tables of the guide's section "Errors", each by the line that leads it, as rows of cells (the header and
    its rule left out)."""
    section = GUIDE.split("\n## Errors\n", 1)[1].split("\n## ", 1)[0]
    tables: dict[str, list[list[str]]] = {}
    lead = ""
    for line in section.splitlines():
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if cells[0] not in ("status", "code") and not set(cells[0]) <= {"-"}:
                tables.setdefault(lead, []).append(cells)
        elif line.strip():
            lead = line.strip()
    return tables


def codes_in(cell: str) -> set[str]:
    return set(re.findall(r"`([a-z_]+)`", cell))


def test_the_guide_tells_every_request_and_service_code_with_its_status() -> None:
    told = {(code, int(row[0])) for row in error_tables()[REQUEST_AND_SERVICE] for code in codes_in(row[1])}
    declared = {(str(code.code), code.status) for code in SERVICE}
    assert sorted(declared - told) == [], "docs/api.md does not tell these codes (or not with this status)"
    assert sorted(told - declared) == [], "docs/api.md tells codes (or statuses) the service does not answer"


def test_the_guide_tells_every_refusal_of_the_rules_under_whose_rules_they_are() -> None:
    tables = error_tables()
    for whose, codes in RULES.items():
        leads = [lead for lead in tables if lead.lower().endswith(f"{whose.lower()}:")]
        assert len(leads) == 1, f"docs/api.md has no table of the refusals of {whose}"
        told = {code for row in tables[leads[0]] for code in codes_in(row[0])}
        declared = {str(code.code) for code in codes}
        assert sorted(told ^ declared) == [], f"docs/api.md's table of the refusals of {whose} is not theirs"
    assert {code.status for codes in RULES.values() for code in codes} == {409}  # as the guide's heading says
    assert len(tables) == 1 + len(RULES), "docs/api.md has an error table the registry does not know of"


def test_the_guide_names_every_event_type_and_move_type() -> None:
    events = [e.type for e in TABLE_EVENTS] + [e.type for r in RULESETS.values() for e in r.events]
    moves = [m.__struct_config__.tag for r in RULESETS.values() for m in r.moves]
    missing = [name for name in [*events, *moves, "game_finished"] if f"`{name}" not in GUIDE]
    assert not missing, f"docs/api.md does not describe {missing}"


def test_the_guide_names_every_route(app: Flask) -> None:
    routes = {
        re.sub(r"<(?:\w+:)?(\w+)>", lambda m: "{" + ("id" if m.group(1).endswith("_id") else m.group(1)) + "}", r.rule)
        for r in app.url_map.iter_rules()
        if r.rule.startswith("/v1/") or r.rule in ("/livez", "/readyz", "/healthz", "/metrics")
    }
    missing = sorted(route for route in routes if route not in GUIDE)
    assert not missing, f"docs/api.md does not mention {missing}"


def test_the_guide_titles_every_code_as_every_answer_of_it_is_titled() -> None:
    rows = error_tables()[REQUEST_AND_SERVICE]
    told = {code: row[2] for row in rows for code in codes_in(row[1])}
    assert {code: title for code, title in told.items() if title != TITLES[code]} == {}
    shared = {str(code.code) for code in SERVICE}  # titled as the table above says
    rule_titles = {TITLES[str(code.code)] for codes in RULES.values() for code in codes if code.code not in shared}
    assert rule_titles == set(re.findall(r"\*\*Rule codes \(409\)[^*]*\*\* Each is titled “([^”]+)”", GUIDE))


def test_the_guide_gives_each_game_the_rules_the_catalogue_serves(api: ApiClient) -> None:
    section = GUIDE.split("\n## The rules of each game\n", 1)[1].split("\n## ", 1)[0]
    served = api.http.get("/v1/rulesets").json
    assert len(served) == len(RULESETS)
    for ruleset in served:
        heading = f"\n### {ruleset['name']} (`{ruleset['id']}`)\n\n"
        assert heading in section, f"docs/api.md has no rules of {ruleset['id']}"
        told = section.split(heading, 1)[1].split("\n### ", 1)[0].strip()
        assert told == ruleset["rules"], f"docs/api.md's rules of {ruleset['id']} are not the ones served"
        assert ruleset["rules"].startswith(ruleset["description"])


def test_the_guide_shows_each_game_as_its_example_game_played_it() -> None:
    """Each ruleset's examples in the guide are those of the OpenAPI document's example games, to the byte of
    their JSON: a view's `awaiting` and `you`, a move, its answer's `version` and `events`, a result."""
    section = GUIDE.split("\n## Examples of each game\n", 1)[1].split("\n## ", 1)[0]
    games = examples().games
    for ruleset in RULESETS.values():
        heading = f"\n### {ruleset.name} (`{ruleset.id}`)\n"
        assert heading in section, f"docs/api.md shows no example of {ruleset.id}"
        told = section.split(heading, 1)[1].split("\n### ", 1)[0]
        blocks = [json.loads(block) for block in re.findall(r"```json\n(.*?)\n```", told, re.DOTALL)]
        game = games[ruleset.id]
        view = {"awaiting": game.view["awaiting"], "you": game.view["you"]}
        answer = {"version": game.moved["version"], "events": game.moved["events"]}
        assert blocks == [view, game.move, answer, game.result], f"docs/api.md's examples of {ruleset.id} are stale"


def test_the_guides_feed_reader_reads_a_game_to_its_end_and_stops(app: Flask, api: ApiClient, house: House) -> None:
    """The guide's Python reader of a live feed, run against the service: every event of a tallied game, the end
    announced, then the 204 that stops it."""
    section = GUIDE.split("\n## Reading a feed from a program\n", 1)[1].split("\n## ", 1)[0]
    code = re.findall(r"```python\n(.*?)```", section, re.DOTALL)[0]
    reader, _, usage = code.partition("\n\nwith httpx.Client(")
    assert usage, "the guide's reader lost its example of use"
    namespace: dict[str, Any] = {}
    exec(reader, namespace)  # the guide's own code
    namespace["time"] = SimpleNamespace(sleep=lambda seconds: None)
    table = play_shared_victory(api)
    house.tally(table.id)
    with httpx.Client(transport=httpx.WSGITransport(app=app), base_url="http://test") as client:
        received = list(namespace["follow"](client, table.id))
    log = [(event["type"], event["version"]) for event in api.events(table)]
    read = [(event, data["version"]) for event, data in received if event not in ("game_finished", "view")]
    assert read == log
    assert [event for event, _ in received].count("game_finished") == 1
