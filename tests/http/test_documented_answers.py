"""Every answer of whole games fits the committed OpenAPI document: the schema of its operation, status and
content type. Two players (one joins late) and bots play a game of every ruleset; each view (as a seat and as
a spectator), move answer, page of the log (JSON and NDJSON), past state, result, audit and problem is checked."""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import yaml
from werkzeug.test import TestResponse

from games.registry import RULESETS
from tests.client import ApiClient, Table

SPEC = Path(__file__).parents[2] / "api_spec" / "openapi.yaml"
MAX_LOOKS = 5000


@functools.cache
def document() -> dict[str, Any]:
    return yaml.safe_load(SPEC.read_text())


def documented(path: str, method: str, status: int) -> dict[str, Any]:
    """What the document says of an operation's answer of this status."""
    doc = document()
    item = doc["paths"][path]
    if method not in item:  # a method the path does not take: each of its operations documents that 405
        method = next(m for m in item if m != "parameters")
    responses = item[method]["responses"]
    assert str(status) in responses, f"{method.upper()} {path}: {status} is not documented"
    response = responses[str(status)]
    if "$ref" in response:
        response = doc["components"]["responses"][response["$ref"].rsplit("/", 1)[-1]]
    return response


@functools.cache
def validator(path: str, method: str, status: int, media: str) -> jsonschema_rs.Validator:
    schema = documented(path, method, status)["content"][media]["schema"]
    return jsonschema_rs.validator_for({**schema, "components": document()["components"]})


def template(url: str) -> str:
    """The document's path for a URL: `/v1/games/abc/states/3` → `/v1/games/{game_id}/states/{version}`."""
    path = url.split("?", 1)[0]
    for candidate in document()["paths"]:
        pattern = re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", re.escape(candidate))
        if re.fullmatch(pattern, path):
            return candidate
    raise AssertionError(f"{path} is not in the document")


def fits(response: TestResponse, method: str, url: str) -> Any:
    """The answer fits what the document says of it (its body, and its `ETag` if it has one); its body."""
    said = documented(template(url), method, response.status_code)
    if "ETag" in response.headers:
        assert "ETag" in said.get("headers", {}), f"{method.upper()} {url} {response.status_code}: ETag undeclared"
    if not response.data:
        assert "content" not in said, f"{method.upper()} {url} {response.status_code}: a body is documented"
        return None
    media = response.mimetype
    check = validator(template(url), method, response.status_code, media)
    bodies = (
        [json.loads(line) for line in response.get_data(as_text=True).splitlines()]
        if "ndjson" in media
        else [response.json]
    )
    for body in bodies:
        errors = [f"{e.instance_path}: {e.message}" for e in check.iter_errors(body)]
        assert not errors, f"{method.upper()} {url} {response.status_code}: {errors[:3]}"
    return bodies if "ndjson" in media else bodies[0]


class Checked:
    """The API client, checking every answer against the document."""

    def __init__(self, api: ApiClient) -> None:
        self.http = api.http

    def call(self, method: str, url: str, token: str | None = None, **kwargs: Any) -> tuple[int, Any]:
        headers = {**kwargs.pop("headers", {}), **({"Authorization": f"Bearer {token}"} if token else {})}
        response = getattr(self.http, method)(url, headers=headers, **kwargs)
        return response.status_code, fits(response, method, url)


LAYOUTS = {
    "twelve-gangsters": [{"name": "Ann"}, {"open": True}, {"bot": "smart"}],
    "cash-n-guns": [{"name": "Ann"}, {"open": True}, {"bot": "smart"}, {"bot": "random"}],
    "mobsters": [{"name": "Ann"}, {"open": True}],
}


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_every_answer_of_a_whole_game_fits_the_document(
    ruleset_id: str, api: ApiClient, drain: Callable[[], None]
) -> None:
    http = Checked(api)
    rng = random.Random(ruleset_id)
    status, created = http.call("post", "/v1/games", json={"ruleset": ruleset_id, "seats": LAYOUTS[ruleset_id]})
    assert status == 201
    game = f"/v1/games/{created['game_id']}"
    tokens = {t["seat"]: t["token"] for t in created["tokens"]}
    status, joined = http.call("post", f"{game}/join", json={"name": "Bob"})
    assert status == 201
    tokens[joined["seat"]] = joined["token"]
    table = Table(created["game_id"], tokens)

    for _ in range(MAX_LOOKS):
        drain()
        _, spectator = http.call("get", game)
        if spectator["status"] == "finished":
            break
        for token in tokens.values():
            _, view = http.call("get", game, token)
            if view["you"]["legal_moves"]:
                status, _ = http.call("post", f"{game}/moves", token, json=rng.choice(view["you"]["legal_moves"]))
                assert status in (200, 409), status  # 409: a bot or the other player moved first
    else:
        pytest.fail(f"no end after {MAX_LOOKS} looks")
    drain()

    for token in (None, *tokens.values()):
        _, page = http.call("get", f"{game}/events?limit=1000", token)
        assert page["events"]
        http.call("get", f"{game}/events", token, headers={"Accept": "application/x-ndjson"})
        versions = page["version"]
        for version in sorted({1, 2, versions // 2, versions}):
            http.call("get", f"{game}/states/{version}", token)
    assert http.call("get", f"{game}/result")[0] == 200
    assert http.call("get", f"{game}/audit")[1]["ok"]
    assert http.call("get", f"/v1/leaderboard?ruleset={ruleset_id}")[0] == 200
    assert http.call("get", "/v1/games?status=finished")[0] == 200
    assert http.call("get", "/v1/rulesets")[0] == 200
    assert table.id


def test_problems_fit_the_document(api: ApiClient) -> None:
    http = Checked(api)
    table = api.create(players=3, options={"first_boss": 0})
    game = f"/v1/games/{table.id}"
    token = table.tokens[0]
    assert http.call("get", "/v1/games/0123456789abcdef")[0] == 404
    assert http.call("get", game, "not-a-token")[0] == 401
    assert http.call("post", f"{game}/moves", token, json={"type": "play", "card": 1, "extra": 1})[0] == 422
    assert http.call("post", f"{game}/moves", token, json={"type": "play", "card": 1})[0] == 200
    assert http.call("post", f"{game}/moves", token, json={"type": "play", "card": 2})[0] == 409
    assert http.call("post", f"{game}/moves", token, json={"type": "play", "card": 2}, headers={"If-Match": '"1"'})[
        0
    ] in (409, 412)
    assert http.call("post", f"{game}/moves", token, data="{", content_type="application/json")[0] == 400
    assert http.call("post", f"{game}/moves", token, data="x", content_type="text/plain")[0] == 415
    assert http.call("post", "/v1/games", json={"ruleset": "twelve-gangsters"})[0] == 422
    assert http.call("put", game)[0] == 405
    assert http.call("get", f"{game}/result")[0] == 409


def test_a_seats_requests_and_conditional_reads_fit_the_document(api: ApiClient, drain: Callable[[], None]) -> None:
    """Join, leave, abort, resign and rematch, as a seat and as a player; then each conditional read of a
    game that has not moved is the 304 its operation documents."""
    http = Checked(api)
    player = api.register("Pat")
    seats = [{"name": "Ann"}, {"open": True}, {"open": True}]
    status, waiting = http.call("post", "/v1/games", json={"ruleset": "twelve-gangsters", "seats": seats})
    assert status == 201
    game, ann = f"/v1/games/{waiting['game_id']}", waiting["tokens"][0]["token"]
    status, joined = http.call("post", f"{game}/join", json={"name": "Bob"})
    assert status == 201 and "token" in joined
    assert http.call("post", f"{game}/leave", joined["token"])[0] == 200
    status, joined = http.call("post", f"{game}/join", player, json={})
    assert status == 201 and "token" not in joined  # the player's own token acts for the seat
    assert http.call("post", f"{game}/abort", ann)[0] == 200

    seats = [{"player": "me"}, {"bot": "random"}, {"bot": "random"}]
    status, created = http.call("post", "/v1/games", player, json={"ruleset": "twelve-gangsters", "seats": seats})
    assert status == 201 and created["tokens"] == []
    game = f"/v1/games/{created['game_id']}"
    assert http.call("post", f"{game}/resign", player)[0] == 200
    drain()  # the bots play the game out
    assert http.call("post", f"{game}/rematch", player)[0] == 201

    for url in (game, f"{game}/events", f"{game}/result"):
        tag = api.http.get(url).headers["ETag"]
        assert http.call("get", url, headers={"If-None-Match": tag})[0] == 304


BAD_BODIES = {400: ("{", "application/json"), 415: ("x", "text/plain"), 413: ("x" * 70_000, "application/json")}


def test_a_bad_body_is_refused_as_documented_by_every_operation_that_parses_one(api: ApiClient) -> None:
    """Every POST parses a body if one is sent, even one that takes none; no other method reads one."""
    table = api.create(players=3, options={"first_boss": 0})
    player = {"Authorization": f"Bearer {api.register('Pat')}"}
    values = {"game_id": table.id, "version": "1", "token_id": "0123", "player_id": "0123", "ruleset_id": "mobsters"}
    for path, item in document()["paths"].items():
        for method in item:
            if method == "parameters" or path.endswith("/stream"):  # a live feed that opens would never end
                continue
            url = re.sub(r"\{(\w+)\}", lambda m: values[m[1]], path)
            for status, (data, content_type) in BAD_BODIES.items():
                response = getattr(api.http, method)(url, data=data, content_type=content_type, headers=player)
                refused = response.status_code == status
                assert refused == (method == "post"), f"{method} {path}: {response.status_code}"
                if refused:
                    fits(response, method, url)  # as the operation declares
