"""The Flask app factory: the API over the services service/bootstrap.py builds."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from service.application.services import Services
from service.bootstrap import bootstrap
from service.config import Config
from service.http import auth, context, docs, hygiene, parsing, telemetry, web
from service.http.openapi.document import OPTIONAL_TOKEN, ProblemResponses, complete, document_games
from service.http.problems import ProblemApi
from service.http.ratelimit import RateLimit
from service.http.resources import BLUEPRINTS

API_SETTINGS = {
    "API_TITLE": "Syndicate",
    "API_VERSION": "1.0",
    # not 3.0.3: its schemas are the JSON Schema msgspec writes (service/http/openapi/document.py)
    "OPENAPI_VERSION": "3.1.0",
    "OPENAPI_URL_PREFIX": "/",
    "OPENAPI_JSON_PATH": "openapi.json",
    "OPENAPI_SWAGGER_UI_PATH": "docs",
    **docs.SETTINGS,
    "API_SPEC_OPTIONS": {
        "info": {"description": "Gangster card games over HTTP: every move an event, every game auditable by replay."},
        # Relative: the service that serves the document (`make run`: http://127.0.0.1:8000).
        "servers": [{"url": "/", "description": "the service that serves this document"}],
        "security": OPTIONAL_TOKEN,
        "components": {
            "securitySchemes": {
                "seatToken": {"type": "http", "scheme": "bearer", "description": "a seat token, for its game"},
                "playerToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "a player token (`<player id>.<token id>.<secret>`): acts for the seats the "
                    "player holds, in every game",
                },
            },
        },
    },
}


class App(Flask):
    """Flask, asking once per call whether a view or hook is a coroutine function by its code's flags: Flask's own
    check (`inspect.iscoroutinefunction`, for every hook and every layer of flask-smorest's wrappers, about twenty
    times a request) unwraps and inspects each anew. Only a plain function or method of ours takes the short way."""

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        code = getattr(getattr(func, "__func__", func), "__code__", None)
        if code is not None and not code.co_flags & (inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR):
            return func
        return super().ensure_sync(func)


def create_app(config: Config | None = None, services: Services | None = None, **overrides: Any) -> Flask:
    config = config or Config()
    app = App("syndicate")
    app.config.update(API_SETTINGS, **overrides)
    services = services or bootstrap(config)
    context.attach(app, services)
    if config.trusted_proxies:
        # The client is whom the outermost trusted proxy saw: rate limits and logs key by its address.
        hops = config.trusted_proxies
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
    telemetry.install(app)
    RateLimit(
        config.rate_limit_storage,
        token=config.rate_limit_token,
        address=config.rate_limit_address,
        anonymous_=config.rate_limit,
        open_=config.rate_limit_open,
        # a move's save checks a player's token itself where it can; elsewhere the player is read with the counts
        read_ahead=auth.no_read if services.repository.one_server else auth.player_state,
    ).install(app)
    api = ProblemApi(app, spec_kwargs={"extra_plugins": [ProblemResponses()]}, complete=complete)
    parsing.install(app, api)
    app.extensions[context.API] = api
    for blueprint in BLUEPRINTS:
        api.register_blueprint(blueprint)
    document_games(api)
    app.register_blueprint(docs.assets)
    app.register_blueprint(web.blueprint)
    hygiene.install(app, config.cors_origins)
    return app
