"""What comes in: a body parsed once and strictly, and integers bounded before they reach Redis or a clock.

A body is refused (400 `malformed_json`) if it is not JSON, not valid UTF-8, holds a lone surrogate, or
nests deeper than any request needs; a body longer than MAX_BODY_BYTES is refused (413) before it is read (one
sent chunked, once it is read that far); one sent with a transfer coding but chunked, gzip say, is refused (501)
unread. An integer is a JSON integer in a body, ASCII digits in a query, a header or a path.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any, TypeVar

import flask_smorest
import msgspec
from flask import Flask, request
from flask.json.provider import DefaultJSONProvider
from gunicorn.http.errors import NoMoreData, ParseException
from marshmallow import Schema, ValidationError, fields, validate
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.routing import IntegerConverter

from service.http.errors import (
    InvalidHeaderError,
    MalformedJSONError,
    MalformedRequestError,
    UnsupportedMediaTypeError,
    UnsupportedTransferCodingError,
)

F = TypeVar("F", bound=Callable[..., Any])

MAX_BODY_BYTES = 64 * 1024
"""Far more than the largest request (a game of 12 seats with names and options)."""

MAX_DEPTH = 16
"""Nesting a request may have: a move is two deep, a new game three."""

MAX_INT = 2**53 - 1
"""The largest integer every JSON client reads exactly: versions, pages and ids stay far below it."""

INTEGER = re.compile(r"[0-9]{1,15}")
"""An integer in a header: ASCII digits only (not `²`), few enough to stay below MAX_INT."""

DIGITS_MAX = 30
DIGITS = re.compile(rf"[0-9]{{1,{DIGITS_MAX}}}")
"""An integer in a query: ASCII digits only, few enough for int() (a page past the end is empty); its schema
bounds it."""


class StrictInteger(fields.Integer):
    """An integer as JSON writes one, from `minimum` to `maximum`: 7, never 7.0, 7e0, "7", " 7 ", another
    script's digit or true (marshmallow's own Integer reads most of them as 7). Every schema reads its integers
    with it; a query's come to it as numbers, once the parser has read their ASCII digits (`ArgumentsParser`)."""

    def __init__(self, minimum: int = 0, maximum: int = MAX_INT, **kwargs: Any) -> None:
        super().__init__(strict=True, validate=validate.Range(minimum, maximum), **kwargs)


def strict_loads(data: str | bytes) -> Any:
    """The JSON value of a request body; MalformedJSONError for anything a parser could choke on."""
    try:
        value = msgspec.json.decode(data)
    except (ValueError, RecursionError) as error:
        # msgspec refuses invalid UTF-8 and lone surrogates, and stops at its own depth limit.
        detail = "it nests too deeply" if isinstance(error, RecursionError) else str(error)
        raise MalformedJSONError(f"the request body is not valid JSON: {detail}") from None
    text = data if isinstance(data, bytes) else data.encode()
    opened = text.count(b"[") + text.count(b"{")
    if opened > MAX_DEPTH and not nests_within(value, MAX_DEPTH):  # fewer brackets cannot nest deeper
        raise MalformedJSONError(f"the request body nests deeper than {MAX_DEPTH} levels")
    return value


def nests_within(value: Any, limit: int) -> bool:
    """Whether no array or object in `value` lies deeper than `limit` levels (iteratively: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > limit:
            return False
        stack.extend((child, depth + 1) for child in children)
    return True


def header_integer(name: str, value: str) -> int:
    """An integer header such as `Last-Event-ID`; InvalidHeaderError when it is not one."""
    if not INTEGER.fullmatch(value):
        raise InvalidHeaderError(f"{name} must be a whole number of at most 15 digits")
    return int(value)


class StrictJSONProvider(DefaultJSONProvider):
    """Flask's JSON, reading with `strict_loads`: `request.get_json()` parses a body once, strictly."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return strict_loads(s)


class ArgumentsParser(FlaskParser):
    """webargs, reading the body Flask already parsed (instead of parsing it a second time, leniently), and an
    integer in a query as ASCII digits only, handed to its schema as a number: marshmallow's int() also reads
    other scripts' digits (fullwidth, Arabic-Indic), `+1`, `1_0` and ` 1`."""

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req) or not has_body():
            return core.missing  # the schema says what is missing (422)
        return req.get_json()

    def load_querystring(self, req: Any, schema: Schema) -> Any:
        integers = {f.data_key or name for name, f in schema.fields.items() if isinstance(f, fields.Integer)}
        args = MultiDict([(k, query_integer(k, v) if k in integers else v) for k, v in req.args.items(multi=True)])
        return self._makeproxy(args, schema)


def query_integer(key: str, value: str) -> int:
    if not DIGITS.fullmatch(value):
        message = f"an integer in a query is written in ASCII digits, 0 to 9, at most {DIGITS_MAX} of them"
        raise ValidationError({key: [message]})
    return int(value)


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint, with our arguments parser (for pagination too)."""

    ARGUMENTS_PARSER = PAGINATION_ARGUMENTS_PARSER = ArgumentsParser()

    def arguments(self, schema: Any, *args: Any, read: Callable[[], Any] | None = None, **kwargs: Any) -> Any:
        """As flask-smorest's, but a schema given as a class is made once, not once per request (webargs).

        `read`: what the schema would load from this request, read without marshmallow, or None where it cannot
        vouch for that; the schema then loads it, and answers what does not fit as it always does. For a route
        that every move takes (a move's headers and body), where marshmallow cost 3 to 6% of the request's CPU."""
        schema = schema() if isinstance(schema, type) else schema
        decorate = super().arguments(schema, *args, **kwargs)
        if read is None:
            return decorate
        assert not {"as_kwargs", "arg_name"} & kwargs.keys(), "what `read` loads is handed on as webargs hands it"
        documenting = {"content_type", "required", "description", "example", "examples"}  # flask-smorest's alone
        parse = functools.partial(
            self.ARGUMENTS_PARSER.parse, schema, **{k: v for k, v in kwargs.items() if k not in documenting}
        )

        def decorator(func: F) -> F:
            @functools.wraps(func)
            def view(*f_args: Any, **f_kwargs: Any) -> Any:
                loaded = read()
                return func(*f_args, parse() if loaded is None else loaded, **f_kwargs)

            view._apidoc = decorate(func)._apidoc  # type: ignore[attr-defined]
            return view  # type: ignore[return-value]

        return decorator

    def doc(self, **kwargs: Any) -> Any:
        return documenting_only(super().doc(**kwargs))

    def alt_response(self, status_code: Any, *args: Any, **kwargs: Any) -> Any:
        return documenting_only(super().alt_response(status_code, *args, **kwargs))


def documenting_only(decorate: Callable[[F], F]) -> Callable[[F], F]:
    """A flask-smorest decorator that only documents (`doc`, `alt_response`), without the layer it wraps the view in,
    which only calls through to it: a route answers through one layer less for each (a move has seven)."""

    def decorator(func: F) -> F:
        func._apidoc = decorate(func)._apidoc  # type: ignore[attr-defined]
        return func

    return decorator


def refuse_oversized_stream() -> None:
    """A body sent without Content-Length (chunked) is read by Werkzeug up to MAX_BODY_BYTES, where it stops
    without a word: one that fills the limit is looked past, and refused (413) if it goes on. A chunked
    encoding that is broken (gunicorn finds out only as it is read) is a 400 `malformed_request`."""
    try:
        filled = len(request.get_data(cache=True)) >= MAX_BODY_BYTES
        if filled and request.environ["wsgi.input"].read(1):
            raise RequestEntityTooLarge()
    except (ParseException, NoMoreData) as error:
        raise MalformedRequestError(f"the request body is not valid HTTP: {error}"[:200]) from None


def has_body() -> bool:
    """Whether the request carries a body: an empty one is none, whatever its Content-Type says (some clients
    send `Content-Type: application/json` on every request)."""
    if request.content_length is not None:
        return request.content_length > 0
    refuse_oversized_stream()  # sent chunked: known only once read
    return bool(request.get_data(cache=True))


def unread_codings(transfer_encoding: str) -> list[str]:
    """The transfer codings of a `Transfer-Encoding` that the service does not decode: all but `chunked`."""
    codings = [coding.strip(" \t").lower() for coding in transfer_encoding.split(",")]
    return [coding for coding in codings if coding and coding != "chunked"]


def refuse_unread_codings() -> None:
    """A body arrives chunked or with a Content-Length: one sent gzip, say, would reach the JSON parser still
    encoded, so it is 501 (RFC 9112 6.1), as is what gunicorn refuses itself (service/ops/gunicorn_worker.py)."""
    unread = unread_codings(request.headers.get("Transfer-Encoding", ""))
    if unread:
        detail = f"the body is read only as sent chunked or with a Content-Length, not {', '.join(unread)}"
        raise UnsupportedTransferCodingError(detail[:200])


def require_json_body() -> None:
    """A POST's body, if it has one, must be JSON sent as `application/json` (else 415), at most
    MAX_BODY_BYTES long however it is sent (else 413); null or broken is a 400. A POST without a body (a
    ticket, say) needs none; one whose route needs a body is then a 422."""
    if request.method != "POST" or not has_body():
        return
    if not request.is_json:
        raise UnsupportedMediaTypeError("send the request body as JSON, with Content-Type: application/json")
    if request.get_json() is None:
        raise MalformedJSONError("the request body is not valid JSON: it is empty or null")


class VersionConverter(IntegerConverter):
    """A version in a path: ASCII digits, few enough to be a number (a longer one matches no route: 404)."""

    regex = r"[0-9]{1,15}"


def install(app: Flask, api: flask_smorest.Api) -> None:
    """Make the app parse every body strictly, refuse oversized ones and bound versions in paths.
    Call it before registering blueprints: their routes use the converter."""
    app.json = StrictJSONProvider(app)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.before_request(refuse_unread_codings)
    app.before_request(require_json_body)
    app.url_map.converters["version"] = VersionConverter
    api.register_converter(VersionConverter, lambda _: {"type": "integer", "minimum": 1, "maximum": 10**15 - 1})
