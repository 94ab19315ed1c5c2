"""What a request works with: the services the app was built on, kept on the app once."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, current_app

from service.application.feeds import always
from service.application.services import Services

SERVICES = "syndicate"
API = "syndicate.api"
SERVING = "syndicate.serving"


def attach(app: Flask, services: Services) -> None:
    app.extensions[SERVICES] = services


def services() -> Services:
    """The services of the app serving this request."""
    return services_of(current_app)


def services_of(app: Flask) -> Services:
    found: Services = app.extensions[SERVICES]
    return found


def serve_while(app: Flask, serving: Callable[[], bool]) -> None:
    """Say how the app's live feeds know the server still serves: under gunicorn, its worker is alive
    (service/ops/gunicorn_conf.py); on SIGTERM they end, well within the graceful timeout."""
    app.extensions[SERVING] = serving


def serving() -> Callable[[], bool]:
    """Whether the server of this request's app still serves (always, unless its server says otherwise)."""
    found: Callable[[], bool] = current_app.extensions.get(SERVING, always)
    return found
