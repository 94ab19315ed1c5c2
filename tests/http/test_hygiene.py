"""HTTP manners: CORS for configured origins only, 304 for an unchanged view or page, and a 429 that says when
to come back and which limit it hit."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
import yaml
from flask import Flask
from werkzeug.test import TestResponse

from service.config import DEFAULT_RATE_LIMIT, Config
from service.http.app import create_app
from tests.client import ApiClient, assert_problem

ORIGIN = "https://tables.example"


@pytest.fixture
def browser_app(config: Config) -> Flask:
    return create_app(dataclasses.replace(config, cors_origins=(ORIGIN,)), TESTING=True)


def test_a_configured_origin_may_call_the_api_and_read_its_headers(browser_app: Flask) -> None:
    http = browser_app.test_client()
    response = http.get("/v1/rulesets", headers={"Origin": ORIGIN})
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    exposed = {h.strip() for h in response.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "Retry-After", "RateLimit-Reset", "X-Pagination", "Location"} <= exposed


def test_a_preflight_for_a_move_allows_its_headers(browser_app: Flask) -> None:
    response = browser_app.test_client().options(
        "/v1/games/0123456789abcdef/moves",
        headers={
            "Origin": ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, if-match, idempotency-key",
        },
    )
    assert response.status_code == 200
    assert response.headers["Access-Control-Allow-Origin"] == ORIGIN
    allowed = response.headers["Access-Control-Allow-Headers"].lower()
    assert all(h in allowed for h in ("authorization", "content-type", "if-match", "idempotency-key"))


def test_a_request_without_an_origin_gets_no_cors_headers(browser_app: Flask) -> None:
    response = browser_app.test_client().get("/v1/rulesets")
    assert response.status_code == 200
    assert not [name for name, _ in response.headers if name.startswith("Access-Control-")]
    # The answer depends on Origin, so a cache must not hand this one to a browser's cross-origin call.
    assert "Origin" in varies_by(response)
    from_origin = browser_app.test_client().get("/v1/rulesets", headers={"Origin": ORIGIN})
    assert "Origin" in varies_by(from_origin) and from_origin.headers["Access-Control-Allow-Origin"] == ORIGIN
    table = ApiClient(browser_app.test_client()).create()
    log = browser_app.test_client().get(f"/v1/games/{table.id}/events", headers={"Origin": ORIGIN})
    assert varies_by(log) == {"Origin", "Authorization", "Accept"} and len(log.headers.getlist("Vary")) == 1


def test_a_preflight_allows_only_the_methods_the_api_takes(browser_app: Flask) -> None:
    response = browser_app.test_client().options(
        "/v1/players/me/tokens/0123", headers={"Origin": ORIGIN, "Access-Control-Request-Method": "DELETE"}
    )
    allowed = {m.strip() for m in response.headers["Access-Control-Allow-Methods"].split(",")}
    assert allowed == {"GET", "HEAD", "POST", "DELETE", "OPTIONS"}
    taken = {m for rule in browser_app.url_map.iter_rules() for m in rule.methods or ()}
    assert taken == allowed


def test_another_origin_and_the_default_app_get_no_cors_headers(browser_app: Flask, app: Flask) -> None:
    other = browser_app.test_client().get("/v1/rulesets", headers={"Origin": "https://elsewhere.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    default = app.test_client().get("/v1/rulesets", headers={"Origin": ORIGIN})
    assert "Access-Control-Allow-Origin" not in default.headers


def test_cors_origins_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SYNDICATE_CORS_ORIGINS", f" {ORIGIN}, http://localhost:5173 ,")
    assert Config().cors_origins == (ORIGIN, "http://localhost:5173")
    monkeypatch.delenv("SYNDICATE_CORS_ORIGINS")
    assert Config().cors_origins == ()


def test_an_unchanged_view_is_304_until_the_game_moves(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    url, seat0 = f"/v1/games/{table.id}", api.auth(table, 0)
    first = api.http.get(url, headers=seat0)
    tag = first.headers["ETag"]
    assert first.headers["Vary"] == "Authorization"
    again = api.http.get(url, headers={**seat0, "If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag
    assert api.http.get(url, headers={**seat0, "If-None-Match": f"W/{tag}"}).status_code == 304
    assert api.play(table, 1, 4).status_code == 200
    moved = api.http.get(url, headers={**seat0, "If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag


@pytest.mark.parametrize("path", ["", "/events"])
def test_each_viewer_has_its_own_etag_so_no_cache_serves_one_viewers_answer_to_another(
    api: ApiClient, path: str
) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    url, seat0 = f"/v1/games/{table.id}{path}", api.auth(table, 0)
    tags = {who: api.http.get(url, headers=headers).headers["ETag"]
            for who, headers in (("spectator", {}), ("seat 0", seat0), ("seat 1", api.auth(table, 1)))}  # fmt: skip
    assert len(set(tags.values())) == 3, tags
    # A cache holding the spectator's answer may revalidate it for seat 0 (RFC 9111 4.3.1; Chromium does when
    # Authorization differs): seat 0 must get its own answer in full, not a 304 that serves it the spectator's.
    revalidated = api.http.get(url, headers={**seat0, "If-None-Match": tags["spectator"]})
    assert revalidated.status_code == 200 and revalidated.headers["ETag"] == tags["seat 0"]
    # Offered every tag it holds, the 304 names the answer that is seat 0's own.
    offered = api.http.get(url, headers={**seat0, "If-None-Match": f"{tags['spectator']}, {tags['seat 0']}"})
    assert offered.status_code == 304 and offered.headers["ETag"] == tags["seat 0"]
    # A seat's tag names the version as a move's If-Match, as a spectator's does.
    assert api.play(table, 0, 6, headers={"If-Match": tags["seat 0"]}).status_code == 200


def test_a_past_state_is_304_until_the_game_moves_and_then_shows_what_the_end_revealed(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    assert api.play(table, 0, 5).status_code == 200  # version 4: seat 0's gangster, face down
    url = f"/v1/games/{table.id}/states/4"
    first = api.http.get(url)
    tag = first.headers["ETag"]
    assert api.http.get(url, headers={"If-None-Match": tag}).status_code == 304
    assert api.http.get(url, headers={**api.auth(table, 0), "If-None-Match": tag}).status_code == 200  # its own
    for card in [5, *(c for c in range(1, 13) if c != 5)]:
        for seat in range(3):
            if (card, seat) != (5, 0):
                assert api.play(table, seat, card).status_code == 200
    later = api.http.get(url, headers={"If-None-Match": tag})
    assert later.status_code == 200 and later.headers["ETag"] != tag
    assert later.json != first.json  # the game is over: the past shows what was face down


def test_an_unchanged_event_page_and_result_are_304(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    page = api.http.get(f"/v1/games/{table.id}/events")
    unchanged = api.http.get(f"/v1/games/{table.id}/events", headers={"If-None-Match": page.headers["ETag"]})
    assert unchanged.status_code == 304
    for card in range(1, 13):
        for seat in range(3):
            api.play(table, seat, card)
    result = api.result(table)
    again = api.http.get(f"/v1/games/{table.id}/result", headers={"If-None-Match": result.headers["ETag"]})
    assert again.status_code == 304


def varies_by(response: TestResponse) -> set[str]:
    return {name.strip() for name in response.headers.get("Vary", "").split(",") if name.strip()}


@pytest.mark.parametrize("accept", ["application/json", "application/x-ndjson"])
def test_the_log_varies_by_accept_in_both_its_representations(api: ApiClient, accept: str) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    url, seat0 = f"/v1/games/{table.id}/events", api.auth(table, 0)
    answer = api.http.get(url, headers={**seat0, "Accept": accept})
    assert answer.mimetype == accept and varies_by(answer) >= {"Accept", "Authorization"}
    tag = api.http.get(url, headers=seat0).headers["ETag"]
    unchanged = api.http.get(url, headers={**seat0, "If-None-Match": tag})
    assert unchanged.status_code == 304 and varies_by(unchanged) >= {"Accept", "Authorization"}


@pytest.fixture
def limited(config: Config) -> Flask:
    return create_app(dataclasses.replace(config, rate_limit="2 per minute"), TESTING=True)


def test_a_429_says_when_to_come_back_and_which_limit_it_hit(limited: Flask) -> None:
    http = limited.test_client()
    for _ in range(2):
        ok = http.get("/v1/rulesets")
        assert ok.status_code == 200 and ok.headers["RateLimit-Limit"] == "2"
    refused = http.get("/v1/rulesets")
    assert_problem(refused, 429, "rate_limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.headers["RateLimit-Limit"] == "2"
    assert refused.headers["RateLimit-Remaining"] == "0"
    assert 1 <= int(refused.headers["RateLimit-Reset"]) <= 60
    assert refused.headers["RateLimit-Policy"] == "2;w=60"


def test_the_document_tells_a_429_as_the_service_sends_it(config: Config) -> None:
    """Its headers, and its example's detail but for the wait: those of the default limit's refusal."""
    default = create_app(dataclasses.replace(config, rate_limit=DEFAULT_RATE_LIMIT), TESTING=True).test_client()
    amount = int(DEFAULT_RATE_LIMIT.split()[0])
    assert {default.get("/v1/games/none").status_code for _ in range(amount)} == {404}  # a quick answer each
    refused = default.get("/v1/games/none")
    body = assert_problem(refused, 429, "rate_limited")
    document = yaml.safe_load((Path(__file__).parents[2] / "api_spec" / "openapi.yaml").read_text())
    documented = document["components"]["responses"]["TooManyRequests"]
    example = documented["content"]["application/problem+json"]["examples"]["rate_limited"]["value"]
    wait = re.compile(r"in \d+ s$")
    assert wait.sub("in N s", example["detail"]) == wait.sub("in N s", body["detail"])
    assert {k: v for k, v in example.items() if k != "detail"} == {k: v for k, v in body.items() if k != "detail"}
    sent = {h for h, _ in refused.headers if h.startswith("RateLimit-") or h in ("Retry-After", "X-Request-ID")}
    assert set(documented["headers"]) == sent


def test_every_answer_that_depends_on_the_caller_varies_by_authorization(api: ApiClient) -> None:
    token = api.register("Vera")
    table = api.create(players=3, options={"first_boss": 0})
    api.play(table, 0, 7)
    seat, player = api.auth(table, 0), {"Authorization": f"Bearer {token}"}
    for path, headers in [
        (f"/v1/games/{table.id}/states/4", seat),
        ("/v1/players/me", player),
        ("/v1/players/me/games", player),
        (f"/v1/games/{table.id}", seat),
    ]:
        answer = api.http.get(path, headers=headers)
        assert answer.status_code == 200 and "Authorization" in answer.vary, path


def test_an_answer_with_no_body_claims_no_content_type(api: ApiClient) -> None:
    table = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    version = api.game(table)["version"]
    not_modified = api.http.get(f"/v1/games/{table.id}", headers={"If-None-Match": f'"{version}"'})
    assert api.http.post(f"/v1/games/{table.id}/abort", headers=api.auth(table, 0)).status_code == 200
    with api.http.get(f"/v1/games/{table.id}/events/stream", headers={"Last-Event-ID": "99"}) as ended:
        assert ended.status_code == 204
        assert "Content-Type" not in ended.headers
    assert not_modified.status_code == 304 and "Content-Type" not in not_modified.headers
