"""/play is served by the service itself, whole: a page and its modules, nothing from another host, and no
operation of the JSON API."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.client import ApiClient

STATIC = Path(__file__).parent.parent.parent / "service" / "http" / "web" / "static"
SVG_NAMESPACE = "http://www.w3.org/2000/svg"  # a name in the DOM API, never fetched


def test_play_is_a_page_whose_policy_keeps_it_on_this_host(api: ApiClient) -> None:
    page = api.http.get("/play")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    assert '<script type="module" src="/play/static/app.js">' in page.get_data(as_text=True)
    policy = page.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy
    module = api.http.get("/play/static/app.js")
    assert module.status_code == 200
    assert module.mimetype in ("text/javascript", "application/javascript")


def test_play_is_not_an_operation_of_the_api_document(api: ApiClient) -> None:
    paths = json.loads(api.http.get("/openapi.json").data)["paths"]
    assert not [path for path in paths if path.startswith("/play")]


def test_every_module_the_client_imports_is_there_and_none_names_another_host() -> None:
    files = sorted(STATIC.rglob("*.js"))
    assert files
    for file in files:
        text = file.read_text()
        for imported in re.findall(r'^import .* from "(\.[^"]+)";$', text, re.MULTILINE):
            assert (file.parent / imported).resolve().is_file(), f"{file.name} imports {imported}, which is missing"
        hosts = [url for url in re.findall(r"https?://[^\s\"'`]+", text) if url != SVG_NAMESPACE]
        assert hosts == [], f"{file.name} names another host: {hosts}"
    assert not re.findall(r"https?://", (STATIC / "style.css").read_text())
