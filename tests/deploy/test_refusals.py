"""What gunicorn refuses before the app sees it (a request line or headers over its limits, bytes that are not
HTTP) is answered as every other refusal: application/problem+json with a stable `code`; and a body sent
chunked is held to the size limit of one with a Content-Length. Sent on raw sockets, since an HTTP client would
not send such requests."""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pytest

from service.http.parsing import MAX_BODY_BYTES
from service.ops.redis_server import RedisServer
from tests.deploy.conftest import Served, start_serving
from tests.http.test_documented_answers import document
from tests.test_openapi import operations

DIGITS = "9" * 4301


@pytest.fixture(scope="module")
def served(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = start_serving(redis_server.url, tmp_path_factory.mktemp("serve"))
    yield served
    served.stop()


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def problem(self) -> dict[str, Any]:
        assert self.headers["content-type"] == "application/problem+json", self
        assert int(self.headers["content-length"]) == len(self.body)
        assert re.fullmatch(r"[0-9a-f]{32}", self.headers["x-request-id"]), self  # as every answer has one
        problem = json.loads(self.body)
        assert problem["status"] == self.status and problem["title"] and problem["detail"], problem
        return problem


def declared_everywhere(status: int) -> bool:
    """Whether the committed document declares the status on every operation, as what gunicorn refuses comes
    before any route."""
    return all(str(status) in operation["responses"] for _, _, operation in operations(document()))


def send(served: Served, request: bytes) -> Answer:
    """What the server answers to these bytes, read until it closes the connection."""
    address = urlsplit(served.url)
    with socket.create_connection((address.hostname, address.port), timeout=10) as connection:
        connection.sendall(request)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return Answer(int(status_line.split()[1]), headers, body)


def get(target: str, *header_lines: str) -> bytes:
    lines = [f"GET {target} HTTP/1.1", "Host: localhost", *header_lines, "Connection: close", "", ""]
    return "\r\n".join(lines).encode("latin-1")


@pytest.mark.parametrize("target", [f"/v1/games?page={DIGITS}", f"/v1/games/x/states/{DIGITS}"])
def test_a_request_line_over_the_limit_is_414_uri_too_long(served: Served, target: str) -> None:
    answer = send(served, get(target))
    assert answer.problem()["code"] == "uri_too_long" and declared_everywhere(answer.status)


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET /v1/games?status=\xff\xfe HTTP/1.1\r\nHost: localhost\r\n\r\n",  # raw bytes, not percent-encoded
        get("/v1/rulesets", "No colon here"),
        get("/v1/rulesets", "Bad Name: x"),
        b"GET /v1/rulesets NOT-HTTP\r\n\r\n",
    ],
)
def test_a_request_that_is_not_http_is_400_malformed_request(served: Served, request_bytes: bytes) -> None:
    answer = send(served, request_bytes)
    assert answer.status == 400 and answer.problem()["code"] == "malformed_request"
    assert declared_everywhere(400)


@pytest.mark.parametrize(
    "header_lines", [[f"X-Long: {'x' * 9000}"], [f"X-Many-{n}: x" for n in range(120)]], ids=["long", "many"]
)
def test_headers_over_the_limits_are_refused_as_header_too_large(served: Served, header_lines: list[str]) -> None:
    answer = send(served, get("/v1/rulesets", *header_lines))
    assert answer.status == 431 and answer.problem()["code"] == "header_too_large"
    assert declared_everywhere(431)


def test_an_expectation_gunicorn_does_not_meet_has_a_code_of_its_own(served: Served) -> None:
    answer = send(served, get("/v1/rulesets", "Expect: 200-ok"))
    assert answer.status == 417 and answer.problem()["code"] == "expectation_failed"
    assert declared_everywhere(417)


CODINGS = ["bogus", "gzip", "deflate", "compress", "identity", "gzip, chunked"]


@pytest.mark.parametrize(
    ("method", "coding"), [*(("POST", coding) for coding in CODINGS), ("GET", "gzip"), ("GET", "gzip, chunked")]
)
def test_a_transfer_coding_other_than_chunked_is_501_unsupported_transfer_coding(
    served: Served, method: str, coding: str
) -> None:
    # gunicorn itself answers 400 to a coding it knows of but does not decode, and lets one through before
    # chunked: the app would read the body still encoded.
    body = b'{"ruleset": "twelve-gangsters", "seats": [{"bot": "random"}, {"bot": "random"}, {"bot": "random"}]}'
    framed = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body) if coding.endswith("chunked") else body
    head = f"{method} /v1/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
    head += f"Transfer-Encoding: {coding}\r\nConnection: close\r\n\r\n"
    answer = send(served, head.encode() + framed)
    assert answer.status == 501 and answer.problem()["code"] == "unsupported_transfer_coding", answer
    assert answer.problem()["title"] == "Not Implemented" and declared_everywhere(501)
    assert json.loads(send(served, get("/v1/games")).body) == []  # nothing was created


def test_the_refusals_count_among_the_metrics(served: Served) -> None:
    send(served, get(f"/v1/games?page={DIGITS}"))
    metrics = send(served, get("/metrics")).body.decode()
    assert 'syndicate_refusals_total{code="uri_too_long"}' in metrics


def chunked_post(path: str, body: bytes, chunk: int = 8192) -> bytes:
    head = f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
    head += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    chunks = [body[i : i + chunk] for i in range(0, len(body), chunk)]
    return head.encode() + b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"


def test_a_chunked_body_over_the_size_limit_is_413_as_one_with_a_length(served: Served) -> None:
    seats = [{"name": "x" * MAX_BODY_BYTES}, {"name": "Bob"}, {"name": "Cat"}]
    body = json.dumps({"ruleset": "twelve-gangsters", "seats": seats}).encode()
    answer = send(served, chunked_post("/v1/games", body))
    assert answer.status == 413 and answer.problem()["code"] == "payload_too_large"


def test_a_chunked_body_within_the_limit_is_read_whole(served: Served) -> None:
    body = json.dumps({"ruleset": "twelve-gangsters", "seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}]})
    answer = send(served, chunked_post("/v1/games", body.encode(), chunk=7))
    assert answer.status == 201, answer


@pytest.mark.parametrize("content_type", ["Content-Type: application/json\r\n", ""])
@pytest.mark.parametrize("chunks", [b"zz\r\n", b"2\r\n{}\r\nzz\r\n", b"3\r\nabcdef\r\n0\r\n\r\n"])
def test_a_broken_chunked_body_is_400_malformed_request(served: Served, content_type: str, chunks: bytes) -> None:
    head = f"POST /v1/players HTTP/1.1\r\nHost: localhost\r\n{content_type}Transfer-Encoding: chunked\r\n"
    answer = send(served, head.encode() + b"Connection: close\r\n\r\n" + chunks)
    assert answer.status == 400 and answer.problem()["code"] == "malformed_request", answer
