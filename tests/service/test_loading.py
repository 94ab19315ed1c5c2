import redis

from events import keys
from tests.client import ApiClient


def test_a_game_whose_snapshot_is_lost_loads_from_its_log_alone(api: ApiClient, redis_client: redis.Redis) -> None:
    table = api.create(players=3, options={"first_boss": 1})
    for seat, card in ((0, 5), (1, 7), (2, 9), (0, 3)):
        assert api.play(table, seat, card).status_code == 200
    before = {seat: api.game(table, seat) for seat in (None, 0, 1, 2)}
    redis_client.delete(keys.snapshot(table.id))
    assert {seat: api.game(table, seat) for seat in (None, 0, 1, 2)} == before
    assert api.play(table, 1, 2).status_code == 200
    assert api.game(table)["version"] == before[None]["version"] + 1
