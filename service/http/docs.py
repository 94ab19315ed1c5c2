"""The browsable docs at /docs, served whole by the service: they work offline and load nothing from elsewhere.

Swagger UI rather than ReDoc: its "Authorize" button takes a seat token for the `seatToken` bearer scheme and
"Try it out" sends requests with it, which is what someone trying the API needs; ReDoc only reads the document.

Its files are swagger-ui-dist as the pinned `flask-swagger-ui` package ships them (Swagger UI is Apache-2.0,
the wrapper MIT). Only the package's `dist` folder is used, not its blueprint: flask-smorest renders /docs and
loads the files from OPENAPI_SWAGGER_UI_URL, which points here. (`swagger-ui-bundle` ships Swagger UI 4, which
cannot render an OpenAPI 3.1 document.)
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from flask import Blueprint

ASSETS_URL = "/docs/assets/"
"""Where Swagger UI's files are served; flask-smorest's page loads `<ASSETS_URL>swagger-ui-bundle.js` etc."""

SWAGGER_UI_DIST = resources.files("flask_swagger_ui") / "dist"

SWAGGER_UI_CONFIG: dict[str, Any] = {
    "persistAuthorization": True,  # a seat token given to "Authorize" survives a reload of the page
    "validatorUrl": None,  # else the page fetches a validity badge from validator.swagger.io
    "deepLinking": True,  # an operation's own link (#/games/...) opens it
}

SETTINGS: dict[str, Any] = {"OPENAPI_SWAGGER_UI_URL": ASSETS_URL, "OPENAPI_SWAGGER_UI_CONFIG": SWAGGER_UI_CONFIG}
"""flask-smorest's settings for /docs."""

assets = Blueprint("docs_assets", __name__, static_folder=str(SWAGGER_UI_DIST), static_url_path=ASSETS_URL.rstrip("/"))
"""Swagger UI's files; a static route, so neither Redis nor the rate limit is touched, and it is not an API
operation of the OpenAPI document."""
