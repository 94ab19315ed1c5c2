"""Every error leaves as `application/problem+json` (RFC 9457) with a stable `code`."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import redis
from flask import Response, current_app, json
from flask_smorest import Api
from werkzeug.exceptions import HTTPException, InternalServerError

from events.replication import NotReplicatedError
from events.repository import NoSuchGameError
from games.base import IllegalMoveError, RuleError
from service.application.errors import (
    ApplicationError,
    GameNotFoundError,
    InvalidRequestError,
    InvalidTokenError,
    NotReplicatedInTimeError,
    StoreUnavailableError,
    UnavailableError,
    VersionMismatchError,
)
from service.http.codes import status_of, title_of
from service.http.errors import (
    INTERNAL_ERROR,
    METHOD_NOT_ALLOWED,
    PAYLOAD_TOO_LARGE,
    ROUTE_NOT_FOUND,
    HttpError,
    MalformedJSONError,
    RateLimitedError,
    UnsupportedMediaTypeError,
)
from service.http.schemas import ProblemSchema
from service.observability import metrics

HTTP_CODES = {
    400: MalformedJSONError.code,
    401: InvalidTokenError.code,
    404: ROUTE_NOT_FOUND.code,
    405: METHOD_NOT_ALLOWED.code,
    412: VersionMismatchError.code,
    413: PAYLOAD_TOO_LARGE.code,
    415: UnsupportedMediaTypeError.code,
    422: InvalidRequestError.code,
    429: RateLimitedError.code,
    500: INTERNAL_ERROR.code,
}
"""The code of each status werkzeug (or flask-smorest) answers itself."""

CLUSTER_UNAVAILABLE = (
    redis.exceptions.ClusterError,  # CLUSTERDOWN, MASTERDOWN
    redis.exceptions.TryAgainError,
    redis.exceptions.AskError,  # MOVED or ASK still, after the client's own retries
    redis.exceptions.SlotNotCoveredError,
)

RETRY_AFTER_S = 3
"""What a client is asked to wait while the game store is not answering: `syndicate run` restarts its Redis within
a second or two."""

NOT_REPLICATED_RETRY_AFTER_S = 1
"""What a client is asked to wait when a write is not replicated in time: a replica that lags catches up, or one
takes over."""


def problem(status: int, code: str, detail: str, counted_as: str = "", title: str = "", **extra: Any) -> Response:
    """A problem answer, titled as the registry titles its code (`title` only for a code of none of ours)."""
    body = {"type": "about:blank", "title": title_of(code, title), "status": status, "detail": detail, "code": code}
    body |= extra
    metrics.REFUSALS.labels(counted_as or code).inc()
    return Response(json.dumps(body), status=status, mimetype="application/problem+json")


LOCATIONS = {"json": "the body", "query": "the query", "headers": "the headers", "path": "the path"}
"""How a 422's `errors` names where each field is (webargs' locations), in its `detail`."""


def fields_of(errors: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Each (field, message) of webargs' nested messages: a field's path in dots (`seats.0.name`), `_schema` left
    out of it (a message about its whole object)."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            name = path if str(key) == "_schema" else f"{path}.{key}" if path else str(key)
            yield from fields_of(value, name)
    elif isinstance(errors, list | tuple):
        for message in errors:
            yield from fields_of(message, path)
    else:
        yield path, str(errors)


def unfit(errors: dict[str, Any]) -> str:
    """A 422's detail in words: where each unfit field is and what is wrong with it, never the messages as JSON
    (they are the problem's `errors`, by location and field)."""
    told = []
    for location, fields in errors.items():
        where = LOCATIONS.get(location, str(location))
        for field, message in fields_of(fields):
            told.append(f"{field + ' in ' if field else ''}{where}: {message.rstrip('.')}")
    return "the request does not fit the schema: " + "; ".join(told)


def game_not_found(error: NoSuchGameError) -> GameNotFoundError:
    """The store's word that a game is not there, as the API answers it."""
    return GameNotFoundError(f"no game {str(error)!r}")


class ProblemApi(Api):
    """flask-smorest's Api, answering (and documenting) every error as problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def __init__(self, *args: Any, complete: Callable[[dict[str, Any]], dict[str, Any]] = dict, **kwargs: Any) -> None:
        self.complete = complete
        self.completed: dict[str, Any] | None = None
        self.completing = threading.Lock()
        super().__init__(*args, **kwargs)

    def document(self) -> dict[str, Any]:
        """The OpenAPI document, completed (`complete`) the first time it is asked for, not as the app is built."""
        with self.completing:
            if self.completed is None:
                self.completed = self.complete(self.spec.to_dict())
        return self.completed

    def _openapi_json(self) -> Response:
        return current_app.response_class(
            json.dumps(self.document(), indent=2, sort_keys=False), mimetype="application/json"
        )

    def _register_responses(self) -> None:
        default_type: str = Api.DEFAULT_RESPONSE_CONTENT_TYPE
        self.DEFAULT_RESPONSE_CONTENT_TYPE = "application/problem+json"
        try:
            super()._register_responses()
        finally:
            self.DEFAULT_RESPONSE_CONTENT_TYPE = default_type
        # Every refusal has its status declared (service/http/openapi/document.py): what is left is a fault of ours.
        default = self.spec.components.responses_lazy[self.DEFAULT_ERROR_RESPONSE_NAME]
        default["description"] = (
            f"Not a refusal (every refusal has its own status above): `{INTERNAL_ERROR.code}`, {INTERNAL_ERROR.when}."
        )
        shown = {"type": "about:blank", "title": title_of(INTERNAL_ERROR.code), "status": INTERNAL_ERROR.status}
        shown |= {"detail": InternalServerError.description, "code": INTERNAL_ERROR.code}
        default["content"]["application/problem+json"]["example"] = shown

    def _register_error_handlers(self) -> None:
        super()._register_error_handlers()
        self._app.register_error_handler(ApplicationError, self.handle_application_error)
        self._app.register_error_handler(RuleError, self.handle_rule_error)
        self._app.register_error_handler(HttpError, self.handle_http_error)
        self._app.register_error_handler(NoSuchGameError, self.handle_no_such_game)
        # Redis unreachable or silent, wherever it is noticed: one 503, never a 500.
        self._app.register_error_handler(redis.ConnectionError, self.handle_unavailable)
        self._app.register_error_handler(redis.TimeoutError, self.handle_unavailable)
        # A Redis Cluster between a master's death and its replica's promotion, as the client still sees it.
        for cluster_error in CLUSTER_UNAVAILABLE:
            self._app.register_error_handler(cluster_error, self.handle_unavailable)
        self._app.register_error_handler(NotReplicatedError, self.handle_not_replicated)

    def handle_http_exception(self, error: HTTPException) -> Response:
        status = error.code or 500
        data = getattr(error, "data", None) or {}
        errors = data.get("errors") or data.get("messages")
        detail = error.description or ""
        if status == 400:
            detail = "the request body is not valid JSON"
        elif status == 422 and errors:
            detail = unfit(errors)
        extra = {"errors": errors} if errors and status == 422 else {}
        response = problem(status, HTTP_CODES.get(status, "http_error"), detail, title=error.name, **extra)
        # Werkzeug's own headers of the error (a 405's `Allow`, the methods its route takes), not its HTML type.
        response.headers.extend((k, v) for k, v in error.get_headers() if k.lower() != "content-type")
        response.headers.extend(data.get("headers", {}))
        return response

    @staticmethod
    def handle_application_error(error: ApplicationError) -> Response:
        response = problem(status_of(type(error)), error.code, error.detail)
        if isinstance(error, UnavailableError):
            response.headers["Retry-After"] = str(error.retry_after_s)
        return response

    @staticmethod
    def handle_rule_error(error: RuleError) -> Response:
        # A move's refusal is counted as one kind: a rule's code can tell of a hand (`hand_has_mobster`), and
        # /metrics is public.
        counted_as = "illegal_move" if isinstance(error, IllegalMoveError) else ""
        return problem(status_of(type(error)), error.code, error.detail, counted_as=counted_as)

    @staticmethod
    def handle_http_error(error: HttpError) -> Response:
        response = problem(error.status, error.code, error.detail)
        response.headers.update(error.headers)
        return response

    @staticmethod
    def handle_no_such_game(error: NoSuchGameError) -> Response:
        return ProblemApi.handle_application_error(game_not_found(error))

    @staticmethod
    def handle_unavailable(error: redis.RedisError) -> Response:
        current_app.logger.warning("Redis unavailable: %s", error)
        detail = f"the game store is not answering; try again in {RETRY_AFTER_S} seconds"
        return ProblemApi.handle_application_error(StoreUnavailableError(detail, RETRY_AFTER_S))

    @staticmethod
    def handle_not_replicated(error: NotReplicatedError) -> Response:
        current_app.logger.warning("write not replicated: %s", error)
        detail = (
            f"the write is not yet held by the replicas it must be ({error}); it may or may not stand: retry with the"
            f" same Idempotency-Key in {NOT_REPLICATED_RETRY_AFTER_S} s to learn its answer"
        )
        return ProblemApi.handle_application_error(NotReplicatedInTimeError(detail, NOT_REPLICATED_RETRY_AFTER_S))
