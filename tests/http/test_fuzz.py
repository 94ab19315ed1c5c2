"""Schema-driven fuzzing with schemathesis: every request the OpenAPI document allows, and many it does not,
sent to the live app with a fixed seed and a bounded number of examples. None may get a 5xx, and every answer
is one the document declares: its status, its content type and its schema."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service.config import Config
from tests.client import ApiClient, Table
from tests.judges import JUDGE

EXAMPLES = 40
"""Per operation: enough to hit every parameter's edges, few enough for `make test`."""


@pytest.fixture
def config(config: Config) -> Config:
    """A service that reviews games (one without a judge answers a review 503, as it must)."""
    return dataclasses.replace(config, judge=JUDGE)


@pytest.fixture
def finished(api: ApiClient) -> Table:
    """A finished game, so that generated requests also reach a real game (and its live feed ends)."""
    table = api.create(players=3, options={"first_boss": 0})
    for round_ in range(1, 13):
        for seat in range(3):
            assert api.play(table, seat, round_).status_code == 200
    return table


SEED = 20261201
CONFIG = schemathesis.Config.from_dict(
    {
        "seed": SEED,
        "generation": {"mode": "all"},  # requests that fit the document, and requests that break it
        "phases": {"examples": {"enabled": True}, "coverage": {"enabled": True}, "fuzzing": {"enabled": True}},
    }
)
schema = schemathesis.openapi.from_path(Path(__file__).parents[2] / "api_spec" / "openapi.yaml", config=CONFIG)
"""The committed document, as a client developer gets it (a test keeps it equal to the generated one). The
coverage phase sends every boundary the document defines (huge integers, odd strings, missing parts); the
fuzzing phase adds EXAMPLES random ones per operation."""


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture],
)
def test_no_request_gets_a_server_error(case: schemathesis.Case, app: Flask, finished: Table) -> None:
    path = case.path_parameters or {}
    if "game_id" in path and len(path["game_id"]) % 2 == 0:
        path["game_id"] = finished.id  # about half the time, a game that exists
    checks = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
    if case.path.endswith("/stream"):
        # schemathesis reads a text/event-stream schema as that of each event (OpenAPI 3.2's `itemSchema`); the
        # document, in 3.1, says the stream is a string and describes its events in words.
        checks.remove(response_schema_conformance)
    case.call_and_validate(app=app, checks=checks)
