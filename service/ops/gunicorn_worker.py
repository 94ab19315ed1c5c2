"""gunicorn's gevent worker, answering what gunicorn itself refuses as the app answers every refusal:
`application/problem+json` with a stable `code`, instead of gunicorn's HTML page.

gunicorn refuses a request before the app sees it when its request line or headers are over gunicorn's limits
or are not HTTP (raw non-ASCII bytes in a query, a header line without a colon). gunicorn still decides the
status and logs the refusal; only the answer's body changes.
"""

from __future__ import annotations

import json
import uuid
from http import HTTPStatus
from typing import Any

from gunicorn import util
from gunicorn.http.errors import (
    ExpectationFailed,
    InvalidHeader,
    LimitRequestHeaders,
    LimitRequestLine,
    UnsupportedTransferCoding,
)
from gunicorn.workers.ggevent import GeventWorker

from service.http.errors import (
    EXPECTATION_FAILED,
    HEADER_TOO_LARGE,
    INTERNAL_ERROR,
    URI_TOO_LONG,
    MalformedRequestError,
    UnsupportedTransferCodingError,
)

CODES = {
    LimitRequestLine: URI_TOO_LONG.code,
    LimitRequestHeaders: HEADER_TOO_LARGE.code,
    UnsupportedTransferCoding: UnsupportedTransferCodingError.code,
    ExpectationFailed: EXPECTATION_FAILED.code,
}
"""The `code` of each refusal of gunicorn's that has one of its own (service/http/errors.py declares them); any
other is `malformed_request` (a 4xx) or `internal_error` (a 5xx: a fault of the service)."""

TITLES = {code.code: code.title for code in (URI_TOO_LONG, HEADER_TOO_LARGE, EXPECTATION_FAILED, INTERNAL_ERROR)} | {
    error.code: error.title for error in (UnsupportedTransferCodingError, MalformedRequestError)
}
"""The title of each of those codes, as service/http/errors.py declares it (the registry's, service/http/codes.py,
which gunicorn's master does not load)."""

MAX_DETAIL = 200
"""gunicorn's message may quote the request line or a header: a refusal never echoes more than this of it."""


class StatusLine:
    """Stands in for the client's socket while gunicorn's own handle_error writes its HTML answer: it keeps the
    status gunicorn chose, and sends nothing."""

    def __init__(self) -> None:
        self.written = b""

    def gettimeout(self) -> float:
        return 0.0  # non-blocking already: gunicorn's write_nonblock writes at once

    def sendall(self, data: bytes) -> None:
        self.written += data

    def status(self) -> int:
        return int(self.written.split(b" ", 2)[1])


def code_of(error: BaseException, status: int) -> str:
    for kind, code in CODES.items():
        if isinstance(error, kind):
            return code
    return INTERNAL_ERROR.code if status >= 500 else MalformedRequestError.code


def problem_answer(status: int, reason: str, code: str, detail: str) -> bytes:
    """The answer: `reason` on the status line, the code's own title in the body."""
    title = TITLES.get(code, reason)
    body = json.dumps({"type": "about:blank", "title": title, "status": status, "detail": detail, "code": code})
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
        f"Content-Length: {len(body)}\r\nX-Request-ID: {uuid.uuid4().hex}\r\n\r\n"
    )
    return (head + body).encode("latin-1")


def unsupported(exc: BaseException) -> BaseException:
    """gunicorn answers 400 to a transfer coding it knows of (gzip, deflate, compress, identity) that chunked
    does not follow, 501 to one it does not know; the service decodes none but chunked: 501 for both, as the
    app answers one that gunicorn lets through (`gzip, chunked`)."""
    from service.http.parsing import unread_codings  # in the worker, as the app is: not in gunicorn's master

    request = getattr(exc, "req", None)
    if isinstance(exc, InvalidHeader) and exc.hdr == "TRANSFER-ENCODING" and request is not None:
        value = ", ".join(v for name, v in request.headers if name == "TRANSFER-ENCODING")
        if unread_codings(value):
            refused: BaseException = UnsupportedTransferCoding(value)
            return refused
    return exc


class ProblemWorker(GeventWorker):
    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        exc = unsupported(exc)
        chosen = StatusLine()
        super().handle_error(req, chosen, addr, exc)  # gunicorn logs the refusal and picks its status
        status = chosen.status()
        reason = HTTPStatus(status).phrase  # gunicorn's own calls a 501 "Bad Request"
        code = code_of(exc, status)
        detail = (str(exc) or reason)[:MAX_DETAIL] if status < 500 else "the server failed to handle the request"
        from service.observability import (
            metrics,  # here, in the worker: not in gunicorn's master, which loads this class
        )

        metrics.REFUSALS.labels(code).inc()
        try:
            util.write_nonblock(client, problem_answer(status, reason, code, detail))
        except Exception:  # the client is gone: nothing to tell it
            self.log.debug("Failed to send error message.")
