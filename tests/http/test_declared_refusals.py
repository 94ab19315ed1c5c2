"""Every refusal of every operation is declared in the committed document. A table of requests that are refused,
for every operation: a missing, wrong or malformed token, unknown ids, a broken, foreign, oversized or unfit body,
a transfer coding the service does not read, junk in each query parameter and header the operation reads, a
method its path does not take, and the refusals of its own (a taken name, a finished game, ...). Each answer's
status is one its operation declares, and a refusal is a problem that fits. (What gunicorn refuses before the app
sees a request, tests/deploy/test_refusals.py holds to the document; 429 and 503, tests/test_openapi.py.)"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from werkzeug.test import TestResponse

from tests.client import ApiClient
from tests.http.test_documented_answers import document, fits
from tests.players.helpers import bearer, create, player_id

Ask = tuple[str, str, dict[str, Any]]
"""A request: its method, its URL and what else the test client sends."""

UNKNOWN = {"game_id": "0123456789abcdef", "version": "999", "token_id": "ffff0000", "player_id": "0123456789abcdef"}
UNKNOWN |= {"ruleset_id": "chess"}
JUNK = {"Last-Event-ID": "x", "If-Match": "x", "Idempotency-Key": "", "If-None-Match": "x", "X-Request-ID": "two words"}


def fill(path: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: values[m[1]], path)


def parameters(path: str, method: str) -> Iterator[dict[str, Any]]:
    """The query and header parameters an operation declares, its path's included."""
    doc = document()
    item = doc["paths"][path]
    for parameter in [*item.get("parameters", []), *item[method].get("parameters", [])]:
        if "$ref" in parameter:
            parameter = doc["components"]["parameters"][parameter["$ref"].rsplit("/", 1)[-1]]
        if parameter["in"] in ("query", "header"):
            yield parameter


def every_operation_asks(path: str, method: str, values: dict[str, str], tokens: dict[str, str]) -> Iterator[Ask]:
    url = fill(path, values)
    yield method, url, {}
    for token in ("wrong", *tokens.values()):
        yield method, url, {"headers": bearer(token)}
    yield method, url, {"headers": {"Authorization": "Token x"}}
    yield method, url, {"headers": {"Transfer-Encoding": "gzip"}}
    yield method, fill(path, UNKNOWN), {"headers": bearer(tokens["player"])}
    for data, content_type in (("{", "application/json"), ("x", "text/plain"), ("x" * 70_000, "application/json")):
        yield method, url, {"data": data, "content_type": content_type}
    yield method, url, {"json": {"unknown": 1}, "headers": bearer(tokens["player"])}
    for parameter in parameters(path, method):
        if parameter["in"] == "query":
            yield method, f"{url}?{parameter['name']}=x", {}
        else:
            yield method, url, {"headers": {parameter["name"]: JUNK[parameter["name"]]}}
    yield "put", url, {}  # no path takes PUT


def own_asks(game: str, done: str, waiting: str, tokens: dict[str, str], seat: dict[str, str]) -> dict[str, list[Ask]]:
    """What each operation refuses of its own, by operationId."""
    player = bearer(tokens["player"])
    seats = [{"name": "A"}, {"name": "B"}, {"name": "C"}]
    return {
        "createGame": [
            ("post", "/v1/games", {"json": {"ruleset": "chess", "seats": seats}}),
            ("post", "/v1/games", {"json": {"ruleset": "twelve-gangsters", "seats": seats, "options": {"x": 1}}}),
            ("post", "/v1/games", {"json": {"ruleset": "twelve-gangsters", "seats": [{"player": "me"}] * 3}}),
            ("post", "/v1/games", {"json": {"ruleset": "twelve-gangsters", "seats": seats, "seed": 2**53}}),
        ],
        "joinGame": [
            ("post", f"{game}/join", {"json": {"name": "Late"}}),
            ("post", f"{waiting}/join", {"json": {"name": "Pat"}, "headers": player}),
        ],
        "makeMove": [
            ("post", f"{game}/moves", {"json": {"type": "play", "card": 5}, "headers": seat}),
            ("post", f"{game}/moves", {"json": {"type": "play", "card": 7}, "headers": {**seat, "If-Match": '"1"'}}),
            ("post", f"{game}/moves", {"json": {"type": "play", "card": 7.0}, "headers": seat}),
            ("post", f"{game}/moves", {"json": {"type": "play", "card": 7, "x": 1}, "headers": seat}),
            ("post", f"{done}/moves", {"json": {"type": "play", "card": 1}, "headers": bearer(tokens["done"])}),
        ],
        "getResult": [("get", f"{game}/result", {})],
        "getReview": [("get", f"{game}/review", {}), ("get", f"{done}/review", {})],
        "getStateAtVersion": [("get", f"{game}/states/0", {}), ("get", f"{game}/states/1000000000000000", {})],
        "streamEvents": [
            ("get", f"{done}/events/stream?ticket=x", {}),
            ("get", f"{game}/events/stream?ticket=x", {"headers": seat}),
        ],
        "leaveGame": [("post", f"{game}/leave", {"headers": seat})],
        "resignGame": [("post", f"{waiting}/resign", {"headers": bearer(tokens["waiting"])})],
        "abortGame": [("post", f"{game}/abort", {"headers": seat})],
        "startWithBots": [
            ("post", f"{game}/start-with-bots", {"headers": seat}),
            ("post", f"{waiting}/start-with-bots", {"headers": player}),
        ],
        "rematchGame": [("post", f"{game}/rematch", {"headers": seat})],
        "createStreamTicket": [("post", f"{game}/stream-tickets", {"headers": bearer(tokens["done"])})],
        "registerPlayer": [
            ("post", "/v1/players", {"json": {"name": "pat"}}),
            ("post", "/v1/players", {"json": {"name": "P\u0430t"}}),  # a Cyrillic a
            ("post", "/v1/players", {"json": {"name": "bot:smart"}}),
        ],
        "issuePlayerToken": [("post", "/v1/players/me/tokens", {"headers": player})] * 20,  # 20 live at most
        "streamMyEvents": [
            ("get", "/v1/players/me/events/stream?after=1-x", {"headers": player}),
            ("get", "/v1/players/me/events/stream?ticket=x", {"headers": player}),
        ],
        "quickMatch": [
            ("post", "/v1/quick-match", {"json": {"ruleset": "twelve-gangsters", "seats": 9}, "headers": player}),
            ("post", "/v1/quick-match", {"json": {"ruleset": "chess", "seats": 3}, "headers": player}),
        ],
        "getLeaderboard": [("get", "/v1/leaderboard?ruleset=chess", {})],
    }


def answer(api: ApiClient, ask: Ask) -> TestResponse:
    method, url, options = ask
    response = getattr(api.http, method)(url, **options)
    if response.status_code < 400:
        response.close()  # a live feed that opened would never end: its body is left unread
    return response


def declares(path: str, method: str, status: int) -> bool:
    """Whether the operation declares the status; for a method the path does not take, each of its operations."""
    item = {m: operation for m, operation in document()["paths"][path].items() if m != "parameters"}
    return all(str(status) in item[m]["responses"] for m in ([method] if method in item else item))


def test_every_refusal_of_every_operation_is_declared(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    assert api.play(table, 0, 5).status_code == 200
    done = api.create(players=3, options={"first_boss": 0})
    for card in range(1, 13):
        for seat in range(3):
            assert api.play(done, seat, card).status_code == 200
    waiting = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    pat = api.register("Pat")
    create(api, pat, [{"player": "me"}, {"open": True}, {"open": True}])
    tokens = {"seat": table.tokens[0], "player": pat, "done": done.tokens[0], "waiting": waiting.tokens[0]}
    values = {"game_id": table.id, "version": "1", "token_id": "0123", "ruleset_id": "mobsters"}
    values["player_id"] = player_id(api, pat)
    games = {key: f"/v1/games/{t.id}" for key, t in (("game", table), ("done", done), ("waiting", waiting))}
    own = own_asks(**games, tokens=tokens, seat=bearer(table.tokens[0]))

    asked: set[str] = set()
    reached: set[int] = set()
    undeclared = []
    for path, item in document()["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            asked.add(operation["operationId"])
            for ask in [*every_operation_asks(path, method, values, tokens), *own.get(operation["operationId"], [])]:
                response = answer(api, ask)
                reached.add(response.status_code)
                if not declares(path, ask[0], response.status_code):
                    undeclared.append(f"{ask[0].upper()} {ask[1][:80]} {ask[2]}: {response.status_code}"[:200])
                elif response.status_code >= 400:
                    fits(response, ask[0], ask[1])
    assert asked >= set(own) and len(asked) == 34
    assert {400, 401, 404, 405, 409, 412, 413, 415, 422, 501} <= reached  # no empty promise
    assert not undeclared, "answers the document does not declare:\n" + "\n".join(undeclared)


PATTERNED = {
    ("/v1/games/{game_id}/events/stream", "Last-Event-ID"): ["0", "12", "9" * 15, "9" * 16, "-1", "1-0", "x"],
    ("/v1/players/me/events/stream", "Last-Event-ID"): ["0", "1-0", "1733050000000-12", "1", "1-", "00", "x"],
    ("/v1/players/me/events/stream", "after"): ["0", "1-0", "1733050000000-12", "1", "1-", "-0", "x"],
}
"""Values around the pattern that each parameter of a live feed declares."""


def test_each_pattern_a_live_feed_declares_is_the_one_it_enforces(api: ApiClient) -> None:
    table = api.create(players=3)
    pat = api.register("Pat")
    values = {"game_id": table.id}
    for (path, name), samples in PATTERNED.items():
        [parameter] = [p for p in parameters(path, "get") if p["name"] == name]
        pattern = parameter["schema"]["pattern"]
        for sample in samples:
            where = {"headers": {name: sample}} if parameter["in"] == "header" else {"query_string": {name: sample}}
            options = {**where, "headers": {**where.get("headers", {}), **bearer(pat)}} if "players" in path else where
            response = answer(api, ("get", fill(path, values), options))
            assert (response.status_code != 422) == bool(re.search(pattern, sample)), f"{path} {name}: {sample!r}"
