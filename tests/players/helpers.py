"""Players in tests: register, seat, and play with a player token."""

from __future__ import annotations

from typing import Any

from tests.client import ApiClient, Table


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def player_id(api: ApiClient, token: str) -> str:
    return api.http.get("/v1/players/me", headers=bearer(token)).json["player_id"]


def create(
    api: ApiClient, token: str, seats: list[dict[str, Any]], ruleset: str = "twelve-gangsters", **body: Any
) -> Table:
    response = api.http.post("/v1/games", json={"ruleset": ruleset, "seats": seats, **body}, headers=bearer(token))
    assert response.status_code == 201, response.json
    created = response.json
    return Table(created["game_id"], {t["seat"]: t["token"] for t in created["tokens"]}, created)


def join(api: ApiClient, table: Table, token: str) -> int:
    response = api.http.post(f"/v1/games/{table.id}/join", json={}, headers=bearer(token))
    assert response.status_code == 201, response.json
    assert "token" not in response.json  # the player's own token acts for the seat
    return response.json["seat"]


def play_first_legal(api: ApiClient, table: Table, token: str) -> bool:
    """The player's seat plays its first legal move, if it is awaited."""
    view = api.http.get(f"/v1/games/{table.id}", headers=bearer(token)).json
    if not view["you"]["legal_moves"]:
        return False
    response = api.http.post(f"/v1/games/{table.id}/moves", json=view["you"]["legal_moves"][0], headers=bearer(token))
    assert response.status_code == 200, response.json
    return True
