"""`GET /v1/rulesets/{id}/cards`: each game's own catalogue, whole, and the ids a seat meets in its view are in it;
an unknown ruleset is a 404 problem."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from games.registry import RULESETS
from tests.client import ApiClient, assert_problem


def cards(api: ApiClient, ruleset: str) -> dict[Any, dict[str, Any]]:
    response = api.http.get(f"/v1/rulesets/{ruleset}/cards")
    assert response.status_code == 200
    return {card["id"]: card for card in response.json["cards"]}


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_catalogue_is_the_games_own_whole(api: ApiClient, ruleset: str) -> None:
    response = api.http.get(f"/v1/rulesets/{ruleset}/cards")

    assert response.status_code == 200
    assert response.mimetype == "application/json"
    body = response.json
    own = RULESETS[ruleset].catalogue
    assert body["ruleset"] == ruleset
    assert body["cards"] == msgspec.to_builtins(list(own.cards)), "no field lost on the way"
    assert body["kinds"] == dict(own.kinds)
    assert body["constants"] == {n: {"value": msgspec.to_builtins(c.value), "description": c.description}
                                 for n, c in own.constants.items()}  # fmt: skip


def test_twelve_gangsters_cards_are_the_hand_a_seat_holds(api: ApiClient) -> None:
    catalogue = cards(api, "twelve-gangsters")
    table = api.create("twelve-gangsters", players=5, options={"first_boss": 0})

    hand = api.game(table, 1)["you"]["hand"]
    assert hand == [n for n, card in catalogue.items() if 5 in card["players"]] == list(range(1, 11))
    assert [catalogue[n]["value"] for n in hand] == hand


def test_cash_n_guns_loot_on_the_table_and_a_seats_bullets_are_in_the_catalogue(api: ApiClient) -> None:
    catalogue = cards(api, "cash-n-guns")
    table = api.create("cash-n-guns", players=4, options={"first_godfather": 0}, seed=11)

    game = api.game(table, 0)
    assert game["state"]["table_loot"] and all(card in catalogue for card in game["state"]["table_loot"])
    loads = {move["card"] for move in game["you"]["legal_moves"] if move["type"] == "load"}
    assert loads == {card for card, entry in catalogue.items() if entry["kind"] == "bullet"}
    assert game["you"]["bang_cards"] == catalogue["bang"]["per_seat"]
    assert game["you"]["click_cards"] == catalogue["click"]["per_seat"]


def test_mobsters_hands_and_moves_name_catalogue_cards(api: ApiClient) -> None:
    catalogue = cards(api, "mobsters")
    table = api.create("mobsters", players=3, options={"first_player": 0}, seed=5)

    for seat in range(3):
        you = api.game(table, seat)["you"]
        assert len(you["hand"]) == 7 and all(card in catalogue for card in you["hand"])
        named = [move[field] for move in you["legal_moves"] for field in ("card", "mobster") if field in move]
        assert all(card in catalogue for card in named)


def test_an_unknown_ruleset_has_no_catalogue(api: ApiClient) -> None:
    body = assert_problem(api.http.get("/v1/rulesets/poker/cards"), 404, "ruleset_not_found")

    assert "poker" in body["detail"]
