"""/docs works offline: the page and every file it loads come from the app, and none of them fetches anything
from another host. (tests/test_docs_browser.py checks the same in a real browser.)"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from flask.testing import FlaskClient

from service.http.docs import SWAGGER_UI_CONFIG
from tests.client import ApiClient

NAMED_NOT_FETCHED = {
    "www.w3.org": "XML namespaces (SVG, XHTML, XLink, MathML): names, never loaded",
    "json-schema.org": "JSON Schema dialect ids, compared as strings",
    "spec.openapis.org": "OpenAPI dialect and schema ids, compared as strings",
    "datatracker.ietf.org": "RFC references in messages",
    "www.rfc-editor.org": "RFC references in messages",
    "github.com": "links in deprecation and licence messages",
    "reactjs.org": "a link in React's error messages",
    "redux.js.org": "a link in Redux's error messages",
    "fb.me": "a link in a prop-types error message",
    "spdx.org": "the link shown for a document's licence identifier (ours has none): an <a>, not a load",
    "example.com": "example values Swagger UI shows for `format: uri` fields",
    "실례.com": "an example value Swagger UI shows for `format: iri` fields",
    "instagram.com": "the highlighter's link for an @mention",
    "soundcloud.com": "the highlighter's link for an @mention",
    "www.tiktok.com": "the highlighter's link for an @mention or a tag",
    "twitter.com": "the highlighter's link for an @mention or a tag",
    "www.facebook.com": "the highlighter's link for a tag",
    "vladimirgorej.com": "a dummy base for `new URL(relative, base)`, to test whether a URL is relative",
    "swagger.io": "swagger-client's base for resolving references of a document with no URL; ours has one, "
    "and only internal references",
}
"""Hosts that Swagger UI's scripts name without fetching anything from them, each with the reason it is safe.
A host not listed (say, after upgrading the pinned package) fails the test until someone reads the code."""

VALIDATOR = "validator.swagger.io"
"""The one host Swagger UI would fetch from (a validity badge), unless `validatorUrl` is set: /docs sets null."""

DUMMY_BASE = re.compile(r"^base\$\{")
"""`https://base${random}`: a throwaway base for `new URL`, built inside a template literal."""

URL = re.compile(r"""https?://[^\s"'`)<>\\]+""")
LICENCE_COMMENT = re.compile(r"/\*!.*?\*/", re.S)
"""webpack's licence banner, `/*! For license information please see ... */`."""
SOURCE_MAP = re.compile(r"^//# sourceMappingURL=.*$", re.M)
CSS_URL = re.compile(r"""url\(\s*(?:"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)'|([^'")\s]+))\s*\)""")


class Loads(HTMLParser):
    """Every URL an HTML page loads or links to (src, href), and the text of its inline scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls += [value for name, value in attrs if name in ("src", "href", "srcset", "poster") and value]
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.scripts.append(data)


def docs_page(http: FlaskClient) -> Loads:
    response = http.get("/docs")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    page = Loads()
    page.feed(response.get_data(as_text=True))
    return page


def is_local(url: str) -> bool:
    """A URL the browser resolves against the page's own origin."""
    parts = urlsplit(url)
    return not parts.scheme and not parts.netloc


def fetched_hosts(script: str) -> set[str]:
    """The hosts of the absolute URLs in a script, outside licence comments and the source-map comment."""
    code = SOURCE_MAP.sub("", LICENCE_COMMENT.sub("", script))
    hosts = set()
    for url in URL.findall(code):
        rest = url.split("://", 1)[1]
        if not DUMMY_BASE.match(rest):
            hosts.add(urlsplit(url).hostname or rest)
    return hosts


def test_the_docs_page_loads_only_files_the_app_serves(api: ApiClient) -> None:
    page = docs_page(api.http)

    assert len(page.urls) >= 3, "the stylesheet and two scripts"
    for url in page.urls:
        assert is_local(url), f"/docs loads {url} from another host"
        asset = api.http.get(urljoin("/docs", url))
        assert asset.status_code == 200, url
        assert asset.data, url
    assert page.scripts and not any(URL.search(script) for script in page.scripts), "an inline script names a host"


def test_no_script_or_stylesheet_the_docs_load_fetches_from_another_host(api: ApiClient) -> None:
    for url in docs_page(api.http).urls:
        asset = api.http.get(urljoin("/docs", url)).get_data(as_text=True)
        if url.endswith(".css"):
            assert "@import" not in asset, url
            for quoted, single, bare in CSS_URL.findall(asset):
                target = quoted or single or bare
                assert target.startswith("data:") or is_local(target), f"{url} loads {target[:80]}"
        elif url.endswith(".js"):
            unknown = fetched_hosts(asset) - set(NAMED_NOT_FETCHED) - {VALIDATOR}
            assert not unknown, f"{url} names hosts nobody has checked: {sorted(unknown)}"


def test_swagger_ui_fetches_no_validator_badge_and_keeps_the_seat_token(api: ApiClient) -> None:
    assert SWAGGER_UI_CONFIG["validatorUrl"] is None
    assert SWAGGER_UI_CONFIG["persistAuthorization"] is True
    page = "".join(docs_page(api.http).scripts)
    assert '"validatorUrl": null' in page
    assert '"persistAuthorization": true' in page


def test_the_document_offers_the_seat_token_to_authorize_with(api: ApiClient) -> None:
    schemes = json.loads(api.http.get("/openapi.json").data)["components"]["securitySchemes"]
    for scheme in ("seatToken", "playerToken"):
        assert {k: schemes[scheme][k] for k in ("type", "scheme")} == {"type": "http", "scheme": "bearer"}
        assert schemes[scheme]["description"]
