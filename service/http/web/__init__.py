"""The web client at /play: one page and its ES modules, served as they are.

No build step: the browser loads the modules under static/ directly, so there is no toolchain to install, nothing
generated to commit, and the page works offline. It speaks only the public HTTP API, as any third-party client
does. /play is an HTML page, not an operation of the JSON API: it is registered on the Flask app, not on the
flask-smorest Api, so the OpenAPI document does not list it.
"""

from __future__ import annotations

from flask import Blueprint, Response, render_template

blueprint = Blueprint(
    "web", __name__, static_folder="static", static_url_path="/play/static", template_folder="templates"
)

CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'"
"""The page may load and ask nothing of another host: the browser itself refuses."""


@blueprint.get("/play")
def play() -> Response:
    """The client's single page; the lobby, tables and replays are drawn by its modules."""
    response = Response(render_template("play.html"))
    response.headers["Content-Security-Policy"] = CSP
    return response
