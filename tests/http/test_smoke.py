from tests.client import ApiClient


def test_a_three_player_game_plays_to_its_result(api: ApiClient) -> None:
    table = api.create(players=3, options={"first_boss": 0})
    for _round in range(12):
        for seat in range(3):
            hand = api.game(table, seat)["you"]["legal_moves"]
            response = api.move(table, seat, **hand[0])
            assert response.status_code == 200, response.json
    result = api.result(table)
    assert result.status_code == 200
    assert sum(result.json["scores"]) > 0
