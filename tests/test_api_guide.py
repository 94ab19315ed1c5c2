"""The client developers' guide (docs/api.md) keeps up with the code: every route, move type, event type and
error code the service can answer is in it."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

from games.mobsters.legality import PHASE_OF
from games.registry import RULESETS
from games.table import TABLE_EVENTS
from service.http.problems import HTTP_CODES
from service.ops import gunicorn_worker

ROOT = Path(__file__).parents[1]
GUIDE = (ROOT / "docs" / "api.md").read_text()

LITERAL_CODE = re.compile(r"""(?:return\s+\(?|Error\(\s*|code=)"([a-z][a-z_]+)",""")
"""How the code names a refusal: `return "code", "detail"`, `SomeError("code", …)`, `…Error(…, code="code")`."""


def codes_in_the_code() -> set[str]:
    found = set(HTTP_CODES.values())
    for path in [*ROOT.joinpath("games").rglob("*.py"), *ROOT.joinpath("service").rglob("*.py")]:
        found |= set(LITERAL_CODE.findall(path.read_text()))
    found |= {f"not_{phase}_phase" for phase in PHASE_OF.values()}  # Mobsters spells these with an f-string
    found |= set(gunicorn_worker.CODES.values())  # what gunicorn refuses
    from service.application import errors
    from service.http import errors as http_errors
    from service.http.errors import HttpError

    found |= {cls.code for cls in vars(errors).values() if isinstance(cls, type) and hasattr(cls, "code")}
    found |= {
        cls.code
        for cls in vars(http_errors).values()
        if isinstance(cls, type) and issubclass(cls, HttpError) and cls is not HttpError
    }
    return found


def test_the_guide_names_every_error_code() -> None:
    missing = sorted(code for code in codes_in_the_code() if f"`{code}`" not in GUIDE)
    assert not missing, f"docs/api.md does not explain {missing}"


def test_the_guide_names_every_event_type_and_move_type() -> None:
    events = [e.type for e in TABLE_EVENTS] + [e.type for r in RULESETS.values() for e in r.events]
    moves = [m.__struct_config__.tag for r in RULESETS.values() for m in r.moves]
    missing = [name for name in [*events, *moves, "game_finished"] if f"`{name}" not in GUIDE]
    assert not missing, f"docs/api.md does not describe {missing}"


def test_the_guide_names_every_route(app: Flask) -> None:
    routes = {
        re.sub(r"<(?:\w+:)?(\w+)>", lambda m: "{" + ("id" if m.group(1).endswith("_id") else m.group(1)) + "}", r.rule)
        for r in app.url_map.iter_rules()
        if r.rule.startswith("/v1/") or r.rule in ("/livez", "/readyz", "/healthz", "/metrics")
    }
    missing = sorted(route for route in routes if route not in GUIDE)
    assert not missing, f"docs/api.md does not mention {missing}"
