"""A small API client so HTTP tests read as stories: `api.play(game, seat, card)`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask.testing import FlaskClient
from prometheus_client.parser import text_string_to_metric_families
from werkzeug.test import TestResponse

from service.http.codes import TITLES


@dataclass
class Table:
    """A game as a test knows it: its id and the token of each human seat."""

    id: str
    tokens: dict[int, str] = field(default_factory=dict)
    body: dict[str, Any] = field(default_factory=dict)


class ApiClient:
    def __init__(self, http: FlaskClient) -> None:
        self.http = http

    def create(self, ruleset: str = "twelve-gangsters", players: int = 3, **body: Any) -> Table:
        body.setdefault("seats", [{"name": f"P{i}"} for i in range(players)])
        response = self.http.post("/v1/games", json={"ruleset": ruleset, **body})
        assert response.status_code == 201, response.json
        created = response.json
        return Table(created["game_id"], {t["seat"]: t["token"] for t in created["tokens"]}, created)

    def register(self, name: str) -> str:
        """A new player's token."""
        response = self.http.post("/v1/players", json={"name": name})
        assert response.status_code == 201, response.json
        return response.json["token"]

    def auth(self, table: Table, seat: int | None) -> dict[str, str]:
        return {} if seat is None else {"Authorization": f"Bearer {table.tokens[seat]}"}

    def join(self, table: Table, name: str, accept_public_randomness: bool = False) -> TestResponse:
        """Take a seat; a game created with a seed is joined only by one that accepts it is (its creator may
        compute every hand)."""
        body = {"name": name, **({"accept_public_randomness": True} if accept_public_randomness else {})}
        response = self.http.post(f"/v1/games/{table.id}/join", json=body)
        if response.status_code == 201:
            table.tokens[response.json["seat"]] = response.json["token"]
        return response

    def move(self, table: Table, seat: int, headers: dict[str, str] | None = None, **move: Any) -> TestResponse:
        return self.send(table, seat, move, headers)

    def send(
        self, table: Table, seat: int, move: dict[str, Any], headers: dict[str, str] | None = None
    ) -> TestResponse:
        """POST a move body as it is (a move may have a field named like an argument, e.g. `seat`)."""
        return self.http.post(
            f"/v1/games/{table.id}/moves", json=move, headers={**self.auth(table, seat), **(headers or {})}
        )

    def play(self, table: Table, seat: int, card: int, **kwargs: Any) -> TestResponse:
        return self.move(table, seat, type="play", card=card, **kwargs)

    def game(self, table: Table, seat: int | None = None) -> dict[str, Any]:
        response = self.http.get(f"/v1/games/{table.id}", headers=self.auth(table, seat))
        assert response.status_code == 200, response.json
        return response.json

    def events(self, table: Table, seat: int | None = None, after: int = 0, limit: int = 1000) -> list[dict]:
        response = self.http.get(
            f"/v1/games/{table.id}/events?after={after}&limit={limit}", headers=self.auth(table, seat)
        )
        assert response.status_code == 200, response.json
        return response.json["events"]

    def result(self, table: Table) -> TestResponse:
        return self.http.get(f"/v1/games/{table.id}/result")

    def version(self, table: Table) -> int:
        return self.game(table)["version"]


def assert_problem(response: TestResponse, status: int, code: str) -> dict[str, Any]:
    """The response is an RFC 9457 problem with this status and code; its body."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert body["code"] == code, body
    assert body["status"] == status
    assert isinstance(body["type"], str) and body["type"]
    assert body["title"] == TITLES[code], f"{code} is titled {TITLES[code]!r}, whoever answers it"
    assert isinstance(body["detail"], str) and body["detail"]
    assert '\\"' not in body["detail"] and '{"json"' not in body["detail"], "a detail is words, not escaped JSON"
    return body


def metric_value(text: str, name: str, **labels: str) -> float:
    """A sample's value in Prometheus' text format (0 if it is not there yet)."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    return 0.0
