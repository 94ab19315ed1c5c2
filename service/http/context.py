"""What a request works with: the services the app was built on, kept on the app once."""

from __future__ import annotations

from flask import Flask, current_app

from service.application.services import Services

SERVICES = "syndicate"
API = "syndicate.api"


def attach(app: Flask, services: Services) -> None:
    app.extensions[SERVICES] = services


def services() -> Services:
    """The services of the app serving this request."""
    return services_of(current_app)


def services_of(app: Flask) -> Services:
    found: Services = app.extensions[SERVICES]
    return found
