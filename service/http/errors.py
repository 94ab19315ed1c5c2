"""HTTP's own errors: what is wrong with a request as HTTP sends it (its framing, its body's type and syntax, a
header, its rate), each answered with a status of its own; and the codes of what werkzeug and gunicorn refuse
themselves. The application's errors are service/application/errors.py; service/http/codes.py lists them all.

Light on purpose: gunicorn's master loads the worker class (service/ops/gunicorn_worker.py), which names these."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import ClassVar

from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed, NotFound, RequestEntityTooLarge


@dataclass(frozen=True)
class Code:
    """An error code as the API declares it: the status it is answered with, its title (for people) and when it is
    given."""

    code: str
    status: int
    title: str
    when: str


class HttpError(Exception):
    """A request the HTTP layer refuses as sent, with a status of its own and the headers that tell more."""

    status: ClassVar[int]
    code: ClassVar[str]
    title: ClassVar[str]
    when: ClassVar[str]

    def __init__(self, detail: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.headers = dict(headers or {})


class MalformedJSONError(HttpError):
    status, code, title = 400, "malformed_json", "The request body is not valid JSON"
    when = "the body is not valid JSON, not UTF-8, holds a lone surrogate, or nests too deeply"


class MalformedRequestError(HttpError):
    status, code, title = 400, "malformed_request", "The request is not HTTP"
    when = (
        "the request is not HTTP as the server reads it: a request line or a header line it cannot parse, raw bytes "
        "that are not ASCII in the path or query, a broken chunked body"
    )


class UnsupportedMediaTypeError(HttpError):
    status, code, title = 415, "unsupported_media_type", "The request body is not JSON"
    when = "the body is not sent as `application/json`"


class InvalidHeaderError(HttpError):
    status, code, title = 422, "invalid_header", "Invalid header"
    when = "a `Last-Event-ID` that is no version (of a game's feed) or no notice's id (of a player's)"


class RateLimitedError(HttpError):
    status, code, title = 429, "rate_limited", "Too many requests"
    when = "over the rate limit, counted per client address"


class UnsupportedTransferCodingError(HttpError):
    status, code, title = 501, "unsupported_transfer_coding", "Not Implemented"
    when = "a `Transfer-Encoding` other than `chunked`: a body is read only chunked or by its `Content-Length`"


def _werkzeug(error: type[HTTPException], code: str, when: str) -> Code:
    """The code of an error werkzeug raises itself, answered with its status and its name as the title."""
    answered = error()
    assert answered.code is not None
    return Code(code, answered.code, answered.name, when)


ROUTE_NOT_FOUND = _werkzeug(NotFound, "not_found", "no such route")
METHOD_NOT_ALLOWED = _werkzeug(
    MethodNotAllowed,
    "method_not_allowed",
    "the route does not take that method; the `Allow` header lists those it takes",
)
PAYLOAD_TOO_LARGE = _werkzeug(RequestEntityTooLarge, "payload_too_large", "the body is over 64 KiB")
INTERNAL_ERROR = _werkzeug(
    InternalServerError,
    "internal_error",
    "a fault of the service (a bug): a move may not have landed, so retry it with the same `Idempotency-Key`",
)


def _gunicorn(status: HTTPStatus, code: str, when: str) -> Code:
    """The code of what gunicorn refuses before the app sees the request, titled with its status's phrase."""
    return Code(code, int(status), status.phrase, when)


URI_TOO_LONG = _gunicorn(HTTPStatus.REQUEST_URI_TOO_LONG, "uri_too_long", "the request line is over 4094 bytes")
HEADER_TOO_LARGE = _gunicorn(
    HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "header_too_large", "a header over 8190 bytes, or over 100 headers"
)
EXPECTATION_FAILED = _gunicorn(
    HTTPStatus.EXPECTATION_FAILED, "expectation_failed", "an `Expect` header other than `100-continue`"
)
