"""Every error leaves as `application/problem+json` (RFC 9457) with a stable `code`."""

from __future__ import annotations

from typing import Any

import redis
from flask import Response, current_app, json
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from events.replication import NotReplicatedError
from events.repository import NoSuchGameError
from games.base import IllegalMoveError, MoveFormatError, RuleError
from games.refusals import SetupError
from service.application.errors import (
    ApplicationError,
    ConflictError,
    GameNotFoundError,
    InvalidRequestError,
    InvalidTokenError,
    NotAuthorisedError,
    NotFoundError,
    NotReplicatedInTimeError,
    StoreUnavailableError,
    UnavailableError,
    VersionMismatchError,
)
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

STATUS: dict[type[Exception], int] = {
    NotFoundError: 404,
    NotAuthorisedError: 401,
    InvalidRequestError: 422,
    ConflictError: 409,
    VersionMismatchError: 412,
    UnavailableError: 503,
    IllegalMoveError: 409,
    MoveFormatError: 422,
    SetupError: 422,
}
"""The status of each kind of the application's errors and the rules' refusals: the one place they get one (HTTP's
own errors carry theirs). An UnavailableError also says when to come back (`Retry-After`)."""


def status_of(error: type[ApplicationError | RuleError]) -> int:
    """The status an error of this type is answered with, by its kind."""
    return next(STATUS[kind] for kind in error.__mro__ if kind in STATUS)


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


def problem(status: int, code: str, title: str, detail: str, counted_as: str = "", **extra: Any) -> Response:
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail, "code": code, **extra}
    metrics.REFUSALS.labels(counted_as or code).inc()
    return Response(json.dumps(body), status=status, mimetype="application/problem+json")


class ProblemApi(Api):
    """flask-smorest's Api, answering (and documenting) every error as problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        default_type: str = Api.DEFAULT_RESPONSE_CONTENT_TYPE
        self.DEFAULT_RESPONSE_CONTENT_TYPE = "application/problem+json"
        try:
            super()._register_responses()
        finally:
            self.DEFAULT_RESPONSE_CONTENT_TYPE = default_type
        # Every refusal has its status declared (service/http/openapi/document.py): what is left is a fault of ours.
        self.spec.components.responses_lazy[self.DEFAULT_ERROR_RESPONSE_NAME]["description"] = (
            f"Not a refusal (every refusal has its own status above): `{INTERNAL_ERROR.code}`, {INTERNAL_ERROR.when}."
        )

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
            detail = "the request does not fit the schema: " + json.dumps(errors, sort_keys=True)
        extra = {"errors": errors} if errors and status == 422 else {}
        response = problem(status, HTTP_CODES.get(status, "http_error"), error.name, detail, **extra)
        # Werkzeug's own headers of the error (a 405's `Allow`, the methods its route takes), not its HTML type.
        response.headers.extend((k, v) for k, v in error.get_headers() if k.lower() != "content-type")
        response.headers.extend(data.get("headers", {}))
        return response

    @staticmethod
    def handle_application_error(error: ApplicationError) -> Response:
        response = problem(status_of(type(error)), error.code, error.title, error.detail)
        if isinstance(error, UnavailableError):
            response.headers["Retry-After"] = str(error.retry_after_s)
        return response

    @staticmethod
    def handle_rule_error(error: RuleError) -> Response:
        # A move's refusal is counted as one kind: a rule's code can tell of a hand (`hand_has_mobster`), and
        # /metrics is public.
        counted_as = "illegal_move" if isinstance(error, IllegalMoveError) else ""
        return problem(status_of(type(error)), error.code, error.title, error.detail, counted_as=counted_as)

    @staticmethod
    def handle_http_error(error: HttpError) -> Response:
        response = problem(error.status, error.code, error.title, error.detail)
        response.headers.update(error.headers)
        return response

    @staticmethod
    def handle_no_such_game(error: NoSuchGameError) -> Response:
        return ProblemApi.handle_application_error(GameNotFoundError(f"no game {str(error)!r}"))

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
