from pathlib import Path

from service.cli import openapi_yaml
from tests.client import ApiClient

SPEC = Path(__file__).parent.parent / "api_spec" / "openapi.yaml"


def test_committed_openapi_document_matches_the_code() -> None:
    assert SPEC.read_text() == openapi_yaml(), "api_spec/openapi.yaml is stale: run `make spec`"


def test_openapi_document_and_docs_are_served(api: ApiClient) -> None:
    document = api.http.get("/openapi.json")
    assert document.status_code == 200
    assert "/v1/games/{game_id}/moves" in document.json["paths"]
    assert api.http.get("/docs").status_code == 200
