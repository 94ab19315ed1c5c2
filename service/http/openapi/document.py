"""The OpenAPI document beyond what flask-smorest reads off the routes: the typed schemas games/ declares, the
event envelopes, and the problems every operation can answer.

OpenAPI 3.1.0, not 3.0.3: its schemas are JSON Schema 2020-12, which msgspec writes (`{"type": "null"}` in a
union, tuples as `prefixItems`), so games/schema.py needs no translation; openapi-python-client and
openapi-typescript both read 3.1 (the tests generate a client with each).

Each operation declares what only it knows, next to its route: its `operationId`, its answers' examples and
`ETag` header (`VERSION_TAG`), and, if it reads a token, its `security` (`SEAT_OR_SPECTATOR`, `SEAT`, `PLAYER`,
`PLAYER_OR_ANONYMOUS`). `ProblemResponses` derives the rest from the operation itself: a body may be malformed,
too large, of the wrong type or unfit (400, 413, 415, 422), and a POST that takes none still parses one if it is
sent (400, 413, 415); a query or a header may be unfit (422); a game in the path may not exist (404); a token
may be wrong (401); a GET whose answer carries an `ETag` takes `If-None-Match` and answers 304 while it names
the current version; every route is rate limited but the health checks (429), needs Redis but the catalogue
and liveness (503), and answers 405 to a method it does not take; and any request may be refused as it is read,
before its route is known (`FRAMING`: 400 `malformed_request`, 414, 417, 431, 501).
tests/http/test_declared_refusals.py holds the document to what the service answers.

The examples come from games played in memory (service/http/openapi/played.py), which takes seconds: they stand in
the document as `Later` until it is first written out (`complete`), so an app that never serves its document
never plays them, and every worker boots at once.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any, get_args

import msgspec
from apispec import APISpec, BasePlugin
from apispec.ext.marshmallow import resolver
from flask_smorest import Api
from werkzeug.exceptions import NotFound

from games import schema as game_schema
from games.base import IllegalMoveError
from games.registry import RULESETS
from games.schema import REF, Schema, merge, one_of, prefix, ref
from games.table import TABLE_EVENTS
from games.twelve_gangsters.legality import TwelveGangstersRefusal
from projections.notice_types import PlayerNotice
from service.application.errors import (
    GameNotFoundError,
    InvalidRequestError,
    InvalidTokenError,
    NotReplicatedInTimeError,
    OverloadedError,
    StoreUnavailableError,
    VersionMismatchError,
)
from service.config import DEFAULT_RATE_LIMIT
from service.http import schemas, telemetry
from service.http.codes import CODES, RULES, SERVICE, TITLES, code_of, refused
from service.http.errors import (
    EXPECTATION_FAILED,
    HEADER_TOO_LARGE,
    METHOD_NOT_ALLOWED,
    PAYLOAD_TOO_LARGE,
    URI_TOO_LONG,
    Code,
    MalformedJSONError,
    MalformedRequestError,
    RateLimitedError,
    UnsupportedMediaTypeError,
    UnsupportedTransferCodingError,
)
from service.http.openapi.answers import Several, answers
from service.http.openapi.played import examples
from service.http.parsing import INTEGER
from service.http.problems import NOT_REPLICATED_RETRY_AFTER_S, RETRY_AFTER_S
from service.http.ratelimit import anonymous, refusal, spent

SEAT_OR_SPECTATOR: list[dict[str, list[str]]] = [{"seatToken": []}, {"playerToken": []}, {}]
"""A seat's token (or its player's) is optional: with one the caller sees its seat, without one it is a
spectator."""
SEAT: list[dict[str, list[str]]] = [{"seatToken": []}, {"playerToken": []}]
"""A seat token is needed, or the token of the player who holds the seat."""
PLAYER: list[dict[str, list[str]]] = [{"playerToken": []}]
"""A player token is needed."""
PLAYER_OR_ANONYMOUS: list[dict[str, list[str]]] = [{"playerToken": []}, {}]
"""A player token is optional: with one the caller acts as its player (a seat `{"player": "me"}`), without
one anonymously."""
OPTIONAL_TOKEN = SEAT_OR_SPECTATOR
"""The document's own `security`, which every operation whose token is optional inherits: such an operation
declares none of its own, since openapi-python-client types any operation that does as needing a token (it reads
no `{}` among the alternatives). An operation that reads no token declares `security: []`; one that needs a token
declares which."""
PLAYER_ONLY = (
    "A token is optional; if one is sent, it must be a player token (a seat token belongs to its own game: 401)."
)
"""What an operation that inherits OPTIONAL_TOKEN but reads only a player token (PLAYER_OR_ANONYMOUS) says."""

BODY_PARSED = frozenset({"post"})
"""The methods whose body the service parses, even on a route that takes none (service/http/parsing.py
`require_json_body`)."""

NOT_RATE_LIMITED = frozenset({"getHealth", "getLiveness", "getReadiness", "getMetrics"})
"""The operations service/http/app.py exempts from the rate limit: probes must never be refused."""
WITHOUT_REDIS = frozenset({"getCardCatalogue", "getLiveness", "getHealth", "getMetrics"})
"""The operations that answer without Redis (/healthz answers its own 503 body, documented on the route)."""

PROBLEM = "application/problem+json"

EVENTS_DOC = "A page of the log as JSON; with `Accept: application/x-ndjson`, every event after `after`, one a line"
REVIEW_DOC = (
    "The review of a finished game: for every move a seat made (its player's, its bot's or the deadline's), the"
    " seat's chance to win before and after it and the move the house's strongest bot would have made, each judged"
    " from the seat's own view then. The same log always gets the same review"
)
RETRY_AFTER = {
    "Retry-After": {
        "description": "seconds to wait before asking again",
        "schema": {"type": "integer", "minimum": 1},
    }
}
LAST_EVENT_ID = {
    "in": "header",
    "name": "Last-Event-ID",
    "required": False,
    "description": "resume after this version (a reconnecting EventSource sends it); wins over `after`",
    "schema": {"type": "string", "pattern": f"^{INTEGER.pattern}$"},
}
"""The header the live feed reads itself (service/http/resources/history.py), so flask-smorest cannot see it."""


RATE_LIMIT_RESET_S = 42
"""The wait the 429's example tells of (any from 1 to the window's length)."""


def example(code: Code, detail: str, **extra: Any) -> dict[str, Any]:
    """An answer of this code, titled as every answer of it is (service/http/codes.py `TITLES`)."""
    body = {"type": "about:blank", "title": TITLES[code.code], "status": code.status, "detail": detail}
    return {**body, "code": code.code, **extra}


def told(codes: Iterable[Code]) -> str:
    """A list of codes, each with its title and when it is given (a code two declare, with both)."""
    whens: dict[str, list[str]] = {}
    for code in codes:
        whens.setdefault(code.code, []).append(code.when)
    return "\n".join(f"- `{code}` (“{TITLES[code]}”): {'; '.join(when)}" for code, when in whens.items())


def described(status: int, lead: str) -> str:
    """A status's description: what it means here, then its codes (service/http/codes.py), the rules' by whose."""
    parts = [lead, told(code for code in SERVICE if code.status == status)]
    for whose, codes in RULES.items():
        theirs = [code for code in codes if code.status == status]
        if theirs:
            parts += [f"Refused by the rules of {whose}:", told(theirs)]
    return "\n\n".join(parts)


PROBLEMS: dict[int, tuple[str, str, dict[str, Any]]] = {
    400: (
        "BadRequest",
        "The body is not JSON (broken, null, not UTF-8, or nested more than 16 deep), also where the operation takes"
        " no body but one is sent; or the request is not HTTP. An empty body is no body.",
        example(code_of(MalformedJSONError), "the request body is not valid JSON"),
    ),
    401: (
        "Unauthorized",
        "The token is missing where one is needed (a move needs one), malformed, unknown or revoked, or holds no"
        " seat in this game; or a live feed's ticket is no good.",
        example(code_of(InvalidTokenError), "this token holds no seat in this game"),
    ),
    404: (
        "NotFound",
        "Nothing at that path; a version that is no number of at most 15 digits matches no route.",
        example(code_of(GameNotFoundError), "no game '0123456789abcdef'"),
    ),
    405: (
        "MethodNotAllowed",
        "The path does not take this method; `Allow` lists the methods it takes.",
        example(METHOD_NOT_ALLOWED, "The method is not allowed for the requested URL."),
    ),
    409: (
        "Conflict",
        "Not possible now, and nothing changed: the request's own refusals, or the rules refuse the move (or the"
        " join, the leave...) as the game stands.",
        example(
            refused(TwelveGangstersRefusal.ALREADY_PLAYED, IllegalMoveError),
            "you have already chosen your gangster for this round",
        ),
    ),
    412: (
        "PreconditionFailed",
        "`If-Match` names another version than the game's; nothing changed.",
        example(code_of(VersionMismatchError), "If-Match names version 4; the game is at version 6"),
    ),
    413: (
        "PayloadTooLarge",
        "The body is longer than 64 KiB, even where the operation takes no body.",
        example(PAYLOAD_TOO_LARGE, "The data value transmitted exceeds the capacity limit."),
    ),
    415: (
        "UnsupportedMediaType",
        "The body is not sent as `application/json`, even where the operation takes no body.",
        example(
            code_of(UnsupportedMediaTypeError), "send the request body as JSON, with Content-Type: application/json"
        ),
    ),
    422: (
        "UnprocessableEntity",
        "The request does not fit, and nothing changed: a field of the wrong type or missing is"
        f" `{InvalidRequestError.code}`, with `errors` (field → messages).",
        example(
            code_of(InvalidRequestError),
            "the request does not fit the schema: seats in the body: Missing data for required field",
            errors={"json": {"seats": ["Missing data for required field."]}},
        ),
    ),
    414: (
        "UriTooLong",
        "The request line (method, path and query) is too long.",
        example(URI_TOO_LONG, "Request Line is too large (5000 > 4094)"),
    ),
    417: (
        "ExpectationFailed",
        "An expectation the server does not meet.",
        example(EXPECTATION_FAILED, "Unable to comply with expectation: '200-ok'"),
    ),
    431: (
        "HeaderFieldsTooLarge",
        "The headers are too large or too many.",
        example(HEADER_TOO_LARGE, "limit request headers fields"),
    ),
    429: (
        "TooManyRequests",
        "Over the rate limit; nothing changed.",
        example(code_of(RateLimitedError), refusal(spent(anonymous(DEFAULT_RATE_LIMIT), RATE_LIMIT_RESET_S))[0]),
    ),
    503: (
        "ServiceUnavailable",
        "Not possible for some seconds: retry after `Retry-After` seconds. A move answered 503 either never landed or"
        " landed whole: retried with its `Idempotency-Key`, it gets its first answer.",
        example(code_of(StoreUnavailableError), "the game store is not answering; try again in 3 seconds"),
    ),
    501: (
        "NotImplemented",
        "The body is sent with a transfer coding the service does not read; nothing changed.",
        example(
            code_of(UnsupportedTransferCodingError),
            "the body is read only as sent chunked or with a Content-Length, not gzip",
        ),
    ),
}
"""Each problem status: its response component's name, what it means here (its codes follow), and an example."""

MALFORMED_REQUEST = (
    "MalformedRequest",
    "The request is not HTTP.",
    example(code_of(MalformedRequestError), "Invalid HTTP Header: 'Bad Name'"),
)
"""The 400 of an operation that reads no body: only the request itself can be malformed."""

FRAMING = frozenset({400, 414, 417, 431, 501})
"""What the server may refuse of any request as it reads it, whatever its route (gunicorn, and the app for a
transfer coding: service/ops/gunicorn_worker.py)."""


GIVEN_ID = f"^{telemetry.GIVEN_ID.pattern}$"
REQUEST_ID_PARAMETER = {
    "name": "X-Request-ID",
    "required": False,
    "description": f"an id of the client's for the request: used as sent if it fits `{GIVEN_ID}` (1 to 128 "
    "letters, digits, `.`, `_`, `:` or `-`), else replaced by one the service makes, never refused; the answer "
    "carries the id used",
    "schema": {"type": "string"},
}
REQUEST_ID = {
    "description": "the request's id: the client's `X-Request-ID` if it fits the pattern, else one made for it; "
    "the service's log line for the request carries it too",
    "schema": {"type": "string", "pattern": GIVEN_ID},
}
"""service/http/telemetry.py: a header of every request (optional) and of every answer."""
REQUEST_ID_HEADER = {"X-Request-ID": "RequestId"}
"""A response header, by its component's name (apispec makes it a reference)."""
RATE_LIMITS = {
    "RateLimit-Limit": ("RateLimitLimit", "integer", "requests the budget nearest its end allows per window"),
    "RateLimit-Remaining": ("RateLimitRemaining", "integer", "requests left in that budget's window"),
    "RateLimit-Reset": ("RateLimitReset", "integer", "seconds until that budget's window resets (rounded up)"),
    "RateLimit-Policy": ("RateLimitPolicy", "string", "that budget and its window in seconds, e.g. `3000;w=60`"),
}
"""The IETF RateLimit header fields every answer counted against a budget carries (service/http/ratelimit.py)."""
RATE_LIMIT_FIELDS = {header: name for header, (name, _, _) in RATE_LIMITS.items()}

ETAG = {
    "description": 'the version of the game the answer shows, quoted (`"12"`), and for a seat\'s own view the seat '
    '(`"12-0"`): each viewer\'s answer has a tag of its own. Send it back as `If-None-Match` to read again only if '
    "the game has moved, or as a move's `If-Match`",
    "schema": {"type": "string", "pattern": '^"[0-9]{1,15}(-[0-9]{1,3})?"$'},
}
VERSION_TAG = {"ETag": "ETag"}
"""The `headers` of an answer that carries its game's version as an `ETag` (service/http/hygiene.py)."""
IF_NONE_MATCH = {
    "description": "the `ETag` of an earlier answer (or several, comma-separated): while one is the tag of the "
    "answer the caller would get now (the current version, the caller's own view), the answer is 304 with no body "
    "and that tag",
    "schema": {"type": "string"},
}
NOT_MODIFIED = {
    "description": "Not modified: `If-None-Match` names this caller's answer at the current version; no body.",
    "headers": {**VERSION_TAG, **REQUEST_ID_HEADER},
}


DETAILS = {
    "concurrent_modification": "the player changed meanwhile; try again",
    "game_moved_on": "the game moved on before this move landed; look again",
    "invalid_ticket": "this ticket is unknown, used or expired; ask for a new one",
    "invalid_header": "Last-Event-ID must be a whole number of at most 15 digits",
    "not_found": NotFound.description,
    "not_replicated": "the write is not yet held by the replicas it must be (0 of 1 replicas confirmed the write in"
    f" time); it may or may not stand: retry with the same Idempotency-Key in {NOT_REPLICATED_RETRY_AFTER_S} s to"
    " learn its answer",
    "overloaded": "the house is 9 s behind with the games under way; create this one in 4 s",
    "too_many_games": "a player may hold 20 unfinished games at most: finish, resign or abort one first",
}
"""The detail of each code the example games do not meet (service/http/openapi/played.py), as the service words it;
a code in neither is shown with what it means."""


class Later(dict[str, Any]):
    """A part of the document drawn from the example games: filled in when the document is written out, and
    until then an empty mapping to whatever reads the spec (apispec looks into a response's examples)."""

    def __init__(self, fill: Callable[[], Any]) -> None:
        super().__init__()
        self.fill = fill


def filled(node: Any) -> Any:
    """A copy of a part of the document with every `Later` in it filled in."""
    if isinstance(node, Later):
        return filled(node.fill())
    if isinstance(node, dict):
        return {key: filled(value) for key, value in node.items()}
    if isinstance(node, list | tuple):
        return [filled(value) for value in node]
    return node


def complete(spec: dict[str, Any]) -> dict[str, Any]:
    """The document as served and committed: `spec` (APISpec.to_dict()) with the example games' answers shown."""
    document: dict[str, Any] = filled(spec)
    for item in document.get("paths", {}).values():
        for operation in item.values():
            if isinstance(operation, dict) and "operationId" in operation:
                add_examples(operation["responses"], answers().get(operation["operationId"], {}))
    return document


def problem_examples(codes: Iterable[Code], shown: dict[str, Any]) -> dict[str, Any]:
    """An example answer of each code, `shown` first: with the detail the example games met, else as worded here."""
    met = examples().refusals
    found = {shown["code"]: {"summary": f"`{shown['code']}`", "value": shown}}
    for code in codes:
        if code.code not in found:
            detail = met.get(code.code) or DETAILS.get(code.code) or code.when
            found[code.code] = {"summary": f"`{code.code}`", "value": example(code, detail)}
    return found


def problem_response(status: int, bodiless: bool = False) -> dict[str, Any]:
    """A status's problem response, with an example of each of its codes; `bodiless`: the 400 of an operation that
    reads no body."""
    _, lead, shown = MALFORMED_REQUEST if bodiless else PROBLEMS[status]
    description = f"{lead}\n\n{told([code_of(MalformedRequestError)])}" if bodiless else described(status, lead)
    codes = [] if bodiless else [code for code in CODES if code.status == status]
    response: dict[str, Any] = {
        "description": description,
        "content": {PROBLEM: {"schema": ref("Problem"), "examples": Later(lambda: problem_examples(codes, shown))}},
        "headers": dict(REQUEST_ID_HEADER),
    }
    if status == 429:
        response["headers"]["Retry-After"] = {
            "description": "seconds until the caller may send again (rounded up)",
            "schema": {"type": "integer", "minimum": 1},
        }
    response["headers"].update(RATE_LIMIT_FIELDS)
    if status == 405:
        response["headers"]["Allow"] = {
            "description": "the methods the path takes, e.g. `GET, HEAD, OPTIONS`",
            "schema": {"type": "string"},
        }
    if status == 503:
        response["headers"]["Retry-After"] = {
            "description": (
                f"seconds to wait before trying again ({RETRY_AFTER_S}; {NOT_REPLICATED_RETRY_AFTER_S} for"
                f" `{NotReplicatedInTimeError.code}`; for `{OverloadedError.code}`, the seconds the house is behind"
                " beyond what it admits)"
            ),
            "schema": {"type": "integer"},
        }
    return response


def problems_of(path: str, method: str, operation: dict[str, Any]) -> set[int]:
    """The problems an operation can answer, from what it takes: see the module's docstring."""
    operation_id = operation["operationId"]
    parameters = [p for p in operation.get("parameters", []) if isinstance(p, dict)]
    statuses = {405, *FRAMING}
    if method.lower() in BODY_PARSED:
        statuses |= {400, 413, 415}
    if "requestBody" in operation:
        statuses |= {400, 413, 415, 422}
    if any(p.get("in") in ("query", "header") for p in parameters):
        statuses.add(422)
    if "{" in path:
        statuses.add(404)
    if any({"seatToken", "playerToken"} & set(requirement) for requirement in operation.get("security", [])):
        statuses.add(401)
    if operation_id not in NOT_RATE_LIMITED:
        statuses.add(429)
    if operation_id not in WITHOUT_REDIS:
        statuses.add(503)
    return statuses


class ProblemResponses(BasePlugin):
    """Documents every problem each operation can answer, as `application/problem+json`, and checks that each
    operation has an operationId of its own."""

    def init_spec(self, spec: APISpec) -> None:
        self.spec = spec
        self.operation_ids: set[str] = set()
        for status, (name, *_) in PROBLEMS.items():
            spec.components.response(name, problem_response(status))
        spec.components.response(MALFORMED_REQUEST[0], problem_response(400, bodiless=True))
        spec.components.parameter("RequestId", "header", REQUEST_ID_PARAMETER)
        spec.components.header("RequestId", REQUEST_ID)
        spec.components.header("ETag", ETAG)
        for name, kind, description in RATE_LIMITS.values():
            spec.components.header(name, {"description": description, "schema": {"type": kind}})
        if_none_match = {"name": "If-None-Match", "required": False, **IF_NONE_MATCH}
        spec.components.parameter("IfNoneMatch", "header", if_none_match)
        spec.components.response("NotModified", NOT_MODIFIED)

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None, **_: Any) -> None:
        for method, operation in (operations or {}).items():
            operation_id = operation.get("operationId")
            if not operation_id:
                raise ValueError(f"{method.upper()} {path} has no operationId: add @blp.doc(operationId=...)")
            if operation_id in self.operation_ids:
                raise ValueError(f"two operations are called {operation_id!r}")
            self.operation_ids.add(operation_id)
            responses = operation.setdefault("responses", {})
            for key, documented in list(responses.items()):
                if isinstance(documented, str) and str(key).isdigit() and int(key) in PROBLEMS:
                    responses[key] = PROBLEMS[int(key)][0]  # declared on the route, e.g. 409: told in full here
            for status in problems_of(path or "", method, operation):
                if not any(str(key) == str(status) for key in responses):  # /healthz documents its own 503
                    bodiless = status == 400 and method.lower() not in BODY_PARSED
                    responses[status] = MALFORMED_REQUEST[0] if bodiless else PROBLEMS[status][0]
            declare_security(operation)
            parameters = operation.setdefault("parameters", [])
            if method.lower() == "get" and tags_its_version(responses):
                parameters.append("IfNoneMatch")
                responses[304] = "NotModified"
            parameters.append("RequestId")
            counted = {} if operation_id in NOT_RATE_LIMITED else RATE_LIMIT_FIELDS
            for response in responses.values():
                if isinstance(response, dict):  # a problem's is a component, which has them
                    response.setdefault("headers", {}).update({**REQUEST_ID_HEADER, **counted})


def declare_security(operation: dict[str, Any]) -> None:
    """An operation's `security` as generators read it (see OPTIONAL_TOKEN): none where it inherits the
    document's optional token, `[]` where it reads no token."""
    security = operation.get("security")
    if security is None:
        operation["security"] = []
    elif {} in security:
        del operation["security"]
        if security != OPTIONAL_TOKEN:
            if security != PLAYER_OR_ANONYMOUS:
                raise ValueError(f"{operation['operationId']}: no way to say a token is optional as {security}")
            operation["description"] = "\n\n".join(filter(None, [operation.get("description"), PLAYER_ONLY]))


def add_examples(responses: dict[Any, Any], examples: dict[int, dict[str, Any]]) -> None:
    """Show each example answer (answers.py) with its operation's answer of that status and type."""
    for status, by_media in examples.items():
        for media, example in by_media.items():
            # flask-smorest keys a response by its status as a number, or as text when the route wrote it out
            keyed = (responses.get(status), responses.get(str(status)))
            found = [r for r in keyed if r is not None and media in r.get("content", {})]
            if not found:
                raise ValueError(f"an example of a {status} {media} answer that the operation does not give")
            shown = found[0]["content"][media]
            if isinstance(example, Several):
                shown["examples"] = dict(example)
            else:
                shown["example"] = example


def tags_its_version(responses: dict[Any, Any]) -> bool:
    """Whether an operation's answer carries its game's version as an `ETag` (so a GET of it is conditional)."""
    return any(
        isinstance(response, dict) and "ETag" in response.get("headers", {})
        for status, response in responses.items()
        if str(status).startswith("2")
    )


def event_item(event_type: str, payload: str, doc: str) -> Schema:
    """One event of the log as a caller may see it (service/application/redaction.py `feed_item`), with an example
    from the example games, as anyone sees it once its game is over."""
    optional_string: Schema = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    return {
        "title": f"{payload}Event",
        "description": f"A `{event_type}` event: {doc}",
        "examples": Later(lambda: [examples().events[event_type]]),
        "type": "object",
        "properties": {
            "game_id": {"type": "string", "description": "the game's id"},
            "version": {"type": "integer", "minimum": 1, "description": "the event's place in the log, from 1"},
            "type": {"type": "string", "enum": [event_type], "description": "the event's type: the shape of `payload`"},
            "schema_version": {"type": "integer", "minimum": 1, "description": "the version of its payload's schema"},
            "seat": {
                "anyOf": [{"type": "integer"}, {"type": "null"}],
                "description": "the seat whose command caused it; null for the house's",
            },
            "at": {"type": "string", "format": "date-time", "description": "when it was stored (ISO 8601, UTC)"},
            "payload": {**ref(payload), "description": "what happened: the event's own fields"},
            "prev_hash": {"type": "string", "description": "the hash of the event before (64 zeros for the first)"},
            "hash": {"type": "string", "description": "sha256 of the event's canonical JSON without `hash`"},
            "nonce": {
                "type": "string",
                "description": "the event's secret, covered by its hash; shown only to those who see the whole event "
                "(payload and command), and to everyone once the game is over",
            },
            "command_id": {
                **optional_string,
                "description": "shown to the command's author, and to all once finished",
            },
            "command": {
                **ref("Command"),
                "description": "on a command's first event: shown to its author, and to all once finished",
            },
        },
        "required": ["game_id", "version", "type", "schema_version", "seat", "at", "payload", "prev_hash", "hash"],
        "additionalProperties": False,
    }


def service_components(typed: dict[str, Schema]) -> dict[str, Schema]:
    """What the service adds around the games' own schemas: the envelope of each event type with `Event`,
    the union of them all, the commands, and a new game's answer with its seat tokens (`CreatedGame`)."""
    components = game_schema.commands()
    events: dict[str, str] = {}
    sources = [(None, TABLE_EVENTS), *((r, r.events) for r in RULESETS.values())]
    for ruleset, event_types in sources:
        names = game_schema.event_names(ruleset)
        for event in event_types:
            payload = names[event.type]
            components[f"{payload}Event"] = event_item(event.type, payload, typed[payload].get("description", ""))
            events[event.type] = f"{payload}Event"
    components["Event"] = {
        "description": "One event of a game's log as the caller may see it: `type` says which, and so the shape "
        "of its `payload` (a seat's secret is left out for the others until the game is over).",
        **one_of(events, "type"),
    }
    created: dict[str, str] = {}
    for ruleset in RULESETS.values():
        game = dict(typed[f"{prefix(ruleset)}Game"])
        name = f"{prefix(ruleset)}CreatedGame"
        tokens = {"type": "array", "items": ref("SeatToken"), "description": "each human seat's token, handed out once"}
        components[name] = {
            **game,
            "title": name,
            "description": f"A new {ruleset.name} game as a spectator sees it, and its seat tokens.",
            "properties": {**game["properties"], "tokens": tokens},
            "required": [*game["required"], "tokens"],
        }
        created[ruleset.id] = name
    components["CreatedGame"] = {
        "description": "A new game as a spectator sees it, with the token of each human seat.",
        **one_of(created, "ruleset"),
    }
    return components


GAME_FINISHED: Schema = {
    "description": "The `data` of the live feed's `game_finished` message: said on the feed only, "
    "never stored, right after the event that ends the game, with that event's version, and the result as of "
    "that event (its `tallied` false: the tally follows as `game_tallied`), the same whenever the feed is read.",
    "type": "object",
    "properties": {
        "game_id": {"type": "string"},
        "version": {"type": "integer", "minimum": 1, "description": "the version of the event that ended the game"},
        "result": ref("GameResult"),
    },
    "required": ["game_id", "version", "result"],
    "additionalProperties": False,
}

NOTICES = frozenset(t.__name__ for t in get_args(PlayerNotice))


def feed_messages(event_types: list[str]) -> dict[str, Schema]:
    """The messages of the live feeds, as an SSE client hands them over (`id`, `event`, `data` parsed as JSON): a
    game's (`FeedMessage`) and a player's (`PlayerFeedMessage`), each notice a type of its own (`PlayerNotice`)."""

    def message(event: Schema, data: Schema, doc: str, id_doc: str) -> Schema:
        properties = {"id": {"type": "string", "description": id_doc}, "event": event, "data": data}
        return {"description": doc, "type": "object", "properties": properties, "required": ["id", "event", "data"]}

    version_id = "the version the message is at: send the last one seen as `Last-Event-ID` to resume"
    # `Move` (the notices' `legal_moves`) and `Status` are the document's own: every ruleset's moves, a game's status.
    _, found = msgspec.json.schema_components([PlayerNotice], ref_template=REF + "{name}")
    notices = {schema["properties"]["type"]["enum"][0]: name for name, schema in found.items() if name in NOTICES}
    components: dict[str, Schema] = {name: found[name] for name in notices.values()}
    for schema in components.values():
        schema["properties"]["ruleset"]["enum"] = list(RULESETS)
        schema["properties"]["type"] = {"type": "string", **schema["properties"]["type"], "description": "which notice"}
    components["PlayerNotice"] = {
        "description": "A notice of a player's live feed: `type` says which, and so its fields.",
        **one_of(notices, "type"),
    }
    components["FeedMessage"] = {
        "description": "A message of a game's live feed: an event of the log (`event` its type), the end of the "
        "game (`game_finished`), or the game as the feed's viewer sees it after each batch of events (`view`).",
        "oneOf": [
            message(
                {"type": "string", "enum": sorted(event_types)},
                ref("Event"),
                "An event of the log, as `GET …/events` shows it to the caller.",
                "the event's version: send the last one seen as `Last-Event-ID` to resume",
            ),
            message(
                {"type": "string", "const": "game_finished"},
                ref("GameFinished"),
                "The end of the game, right after the event that ends it (never stored).",
                version_id,
            ),
            message(
                {"type": "string", "const": "view"},
                ref("Game"),
                "The game as the feed's viewer sees it (`GET /v1/games/{id}`), after the backlog and after each batch "
                "of events (never stored): a seat's carries its `you.legal_moves`.",
                version_id,
            ),
        ],
    }
    components["PlayerFeedMessage"] = message(
        {"type": "string", "enum": sorted(notices)},
        ref("PlayerNotice"),
        "A message of a player's live feed: `event` is its notice's `type`.",
        "the notice's id in the player's feed: send the last one seen as `Last-Event-ID` to resume",
    )
    return components


SSE_DOC = (
    "Server-Sent Events (`text/event-stream`, UTF-8): messages separated by a blank line, each of `field: value` "
    "lines. One message per event of the log: `id:` its version, `event:` its type, `data:` the event as the "
    "caller may see it, one line of JSON (an `Event`, as in `GET …/events`). The first message also has `retry:` "
    "(milliseconds to wait before reconnecting). Right after the event that ends the game comes a message "
    "`event: game_finished` with that event's `id`, whose `data` is a `GameFinished` (`game_id`, `version`, "
    "`result`); a feed resumed at or after that event starts with it again. After the backlog, and after each batch "
    "of events that lands, comes a message `event: view` (the `id` of the batch's last event) whose `data` is the "
    "game as the caller sees it, exactly as `GET /v1/games/{id}` answers it: a seat plays from the feed alone. "
    "Each message is a `FeedMessage` (the body's `contentSchema`). The feed ends after `game_tallied` "
    "(or `game_aborted`); a `: keep-alive` comment line comes after 15 s of silence. To resume, send the last "
    "`id` seen as `Last-Event-ID` (an EventSource does)."
)
"""The game's live feed (service/http/live.py), as the document tells it."""

SSE = "text/event-stream"


def event_stream(data: Schema | None = None) -> Schema:
    """The schema of a live feed's body: text, Server-Sent Events, whose messages' `data` fits `data` (JSON Schema's
    `contentSchema`, an annotation: generators type the body as a string)."""
    schema: Schema = {"type": "string", "contentMediaType": SSE}
    if data is not None:
        each = "each message, as an SSE client hands it over: its `id`, its `event` and its `data` parsed as JSON"
        schema["contentSchema"] = {"description": each, **data}
    return schema


GAME_FEED = event_stream(ref("FeedMessage"))
"""The game's live feed: each message an event, the `game_finished` that follows the last move, or a `view`."""
PLAYER_FEED = event_stream(ref("PlayerFeedMessage"))
"""A player's live feed: each message a notice."""


SEAT_SPECS = {"name": "NamedSeatSpec", "open": "OpenSeatSpec", "bot": "BotSeatSpec", "player": "PlayerSeatSpec"}
"""The shapes of a seat spec, by the one field each has (service/http/schemas.py `SeatSpecSchema.one_kind`)."""


def seat_specs(documented: Schema) -> dict[str, Schema]:
    """`SeatSpec` as the union it is: the marshmallow schema has four optional fields, of which a seat takes
    exactly one (`open` only as true), so each shape is a component with its one field required."""
    components: dict[str, Schema] = {}
    for field, name in SEAT_SPECS.items():
        schema = dict(documented["properties"][field])
        if field == "open":
            schema["const"] = True
        components[name] = {
            "title": name,
            "description": f"A seat of a new game: {schema['description']}.",
            "type": "object",
            "properties": {field: schema},
            "required": [field],
            "additionalProperties": False,
        }
    components["SeatSpec"] = {
        "title": "SeatSpec",
        "description": "A seat of a new game: a human by name, an open seat, a bot, or the creating player's own.",
        "oneOf": [ref(name) for name in SEAT_SPECS.values()],
    }
    return components


def leaderboard_rows(documented: Schema) -> dict[str, Schema]:
    """`LeaderboardRow` as the union it is: a player's row has `player` and no `bot`, a bot's `bot` and no
    `player` (projections/ratings.py `row`)."""
    components: dict[str, Schema] = {}
    for kind, has, lacks in (("Player", "player", "bot"), ("Bot", "bot", "player")):
        name = f"{kind}LeaderboardRow"
        properties = {field: schema for field, schema in documented["properties"].items() if field != lacks}
        components[name] = copy.deepcopy(
            {
                **documented,
                "title": name,
                "description": f"A {kind.lower()}'s row.",
                "properties": properties,
                "required": [*documented["required"], has],
            }
        )
    components["LeaderboardRow"] = {
        "title": "LeaderboardRow",
        "description": "A row of the leaderboard: a player's (`player`) or a bot's (`bot`).",
        "oneOf": [ref(name) for name in components],
    }
    return components


BY_RULESET = ("CreateGame", "QuickMatch", "LobbyEntry")
"""The bodies that name a ruleset and take or show its options: one shape per ruleset, told apart by `ruleset`."""


def by_ruleset(name: str, documented: Schema) -> dict[str, Schema]:
    """A body with `ruleset` and `options` as the union, keyed by `ruleset`, of one shape per ruleset whose
    `options` are that ruleset's (`<Ruleset>Options`)."""
    components: dict[str, Schema] = {}
    options = documented["properties"]["options"]
    for ruleset in RULESETS.values():
        title = f"{prefix(ruleset)}{name}"
        properties = {
            **documented["properties"],
            "ruleset": {"type": "string", "enum": [ruleset.id]},
            "options": {**ref(f"{prefix(ruleset)}Options"), "description": options["description"]},
        }
        components[title] = copy.deepcopy({**documented, "title": title, "properties": properties})
    components[name] = {
        "title": name,
        "description": "`ruleset` says which game, and so which `options` it takes.",
        **one_of({r.id: f"{prefix(r)}{name}" for r in RULESETS.values()}, "ruleset"),
    }
    return components


def stand_ins() -> set[str]:
    """The component names of the schemas.DeclaredInGames stand-ins."""
    found, todo = set(), [schemas.DeclaredInGames]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        found.add(resolver(cls))
    return found - {resolver(schemas.DeclaredInGames)}


def document_games(api: Api) -> None:
    """Add the typed schemas of games/ and the service's envelopes to the document, each in place of the
    DeclaredInGames stand-in of the same name. Call it once every blueprint is registered."""
    spec = api.spec
    typed = game_schema.components()
    merge(typed, service_components(typed))
    replaced = stand_ins()
    missing = replaced - set(typed)
    if missing:
        raise ValueError(f"nothing documents the stand-ins {sorted(missing)}")
    spec.components.schema("SeatToken", schema=schemas.SeatTokenSchema)
    spec.components.schema("GameFinished", component=GAME_FINISHED)
    event_types = [e.type for e in TABLE_EVENTS] + [e.type for r in RULESETS.values() for e in r.events]
    for name, schema in feed_messages(event_types).items():
        spec.components.schema(name, component=schema)
    for name, schema in typed.items():
        if name in replaced:
            spec.components.schemas[name] = schema
        else:
            spec.components.schema(name, component=schema)  # refuses a name the marshmallow schemas took
    unions = seat_specs(spec.components.schemas["SeatSpec"])
    merge(unions, game_schema.seat_union("SeatSummary", spec.components.schemas["SeatSummary"]))
    merge(unions, leaderboard_rows(spec.components.schemas["LeaderboardRow"]))
    for name in BY_RULESET:
        merge(unions, by_ruleset(name, spec.components.schemas[name]))
    for name, schema in unions.items():
        if name in spec.components.schemas and name not in ("SeatSpec", "SeatSummary", "LeaderboardRow", *BY_RULESET):
            raise ValueError(f"two schemas are named {name!r}: rename one")
        spec.components.schemas[name] = schema
