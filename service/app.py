"""The Flask app factory: the API over the services service/bootstrap.py builds."""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask_limiter import Limiter

from service import docs
from service.api import BLUEPRINTS, context, hygiene, parsing
from service.api.openapi import ProblemResponses, document_games
from service.api.problems import ProblemApi
from service.bootstrap import bootstrap
from service.config import Config
from service.services import Services

API_SETTINGS = {
    "API_TITLE": "Syndicate",
    "API_VERSION": "1.0",
    "OPENAPI_VERSION": "3.1.0",  # not 3.0.3: its schemas are the JSON Schema msgspec writes (service/api/openapi.py)
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "docs",
    **docs.SETTINGS,
    "API_SPEC_OPTIONS": {
        "info": {"description": "Gangster card games over HTTP: every move an event, every game auditable by replay."},
        "components": {
            "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer"}},
        },
    },
}


def caller_key() -> str:
    """Rate limits count per client address, across every route: a client cannot dodge them by
    sending made-up tokens, and seat tokens never reach the limiter's keys."""
    return request.remote_addr or "anonymous"


def create_app(config: Config | None = None, services: Services | None = None, **overrides: Any) -> Flask:
    config = config or Config()
    app = Flask("syndicate")
    app.config.update(API_SETTINGS, RATELIMIT_STORAGE_URI=config.redis_url, **overrides)
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)  # fail open: an outage is a 503, not a 500
    context.attach(app, services or bootstrap(config))
    limiter = Limiter(caller_key, app=app, application_limits=[config.rate_limit], key_prefix="syndicate:rate")
    api = ProblemApi(app, spec_kwargs={"extra_plugins": [ProblemResponses()]})
    parsing.install(app, api)
    app.extensions[context.API] = api
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
    document_games(api)
    app.register_blueprint(docs.assets)
    for view in ("health.Health", "health.Live", "health.Ready"):
        limiter.exempt(app.view_functions[view])
    hygiene.rate_limit_headers(app, limiter)
    hygiene.allow_origins(app, config.cors_origins)
    return app
