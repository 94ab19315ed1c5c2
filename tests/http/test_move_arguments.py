"""A move's headers and body are read without marshmallow where they fit its schemas (`Blueprint.arguments`'s
`read`): what is read must be what the schema loads, and a request the reader does not vouch for must be one the
schema refuses, so that every refusal is still the schema's own 422."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st
from werkzeug.exceptions import HTTPException

from service.http import schemas
from service.http.parsing import Blueprint, StrictJSONProvider

app = Flask(__name__)
app.json = StrictJSONProvider(app)
PARSER = Blueprint.ARGUMENTS_PARSER

values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
bodies = st.one_of(
    values,
    st.fixed_dictionaries({"type": values}, optional={"card": values, "target": values}),
    st.dictionaries(st.sampled_from(["type", "card", "Type", "seat"]), values, max_size=4),
)
header_text = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=120)
headers = st.fixed_dictionaries({}, optional={"If-Match": header_text, "Idempotency-Key": header_text})


def loaded(schema: Any, location: str) -> Any:
    """What the schema loads from the request in hand, or None if it refuses it."""
    try:
        return PARSER.parse(schema, location=location)
    except HTTPException as refused:
        assert refused.code == 422
        return None


@settings(max_examples=400, deadline=None)
@given(body=bodies, sent=headers)
def test_what_is_read_is_what_the_schemas_load_and_the_rest_is_theirs_to_refuse(
    body: Any, sent: dict[str, str]
) -> None:
    with app.test_request_context(method="POST", data=json.dumps(body), content_type="application/json", headers=sent):
        assert schemas.move_read() == loaded(schemas.MoveSchema(), "json")
        assert schemas.move_headers_read() == loaded(schemas.MoveHeadersSchema(), "headers")


def test_a_move_without_a_body_is_the_schema_s_to_refuse() -> None:
    with app.test_request_context(method="POST"):
        assert schemas.move_read() is None and loaded(schemas.MoveSchema(), "json") is None


def test_an_idempotency_key_at_either_bound() -> None:
    for key, fits in (("", False), ("k", True), ("k" * 100, True), ("k" * 101, False)):
        with app.test_request_context(method="POST", headers={"Idempotency-Key": key}):
            assert (schemas.move_headers_read() is not None) is fits
            assert schemas.move_headers_read() == loaded(schemas.MoveHeadersSchema(), "headers")
