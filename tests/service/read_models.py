"""Helpers to compare read models: every read-model key of Redis, decoded to plain values."""

from __future__ import annotations

import json
import random
from typing import Any

import redis

import projections
from service.application.queries import version_of  # noqa: F401  (re-exported for tests)
from tests.client import ApiClient, Table

# Everyone plays the same gangster each round, so every non-Boss ties the Boss and the Boss is stopped.
# This order makes each seat's Boss rounds sum to 26: all three finish on 52 with 8 heists, a shared victory.
SHARED_VICTORY_CARDS = (1, 3, 5, 12, 10, 8, 2, 4, 6, 11, 9, 7)


REMADE_WHEN_ASKED = (":review", ":review-progress")
"""A finished game's review and its progress while its steps run: a rebuild drops them, and the next read queues its
first step (tests/http/test_review.py holds it to be the same review again), so a rebuild's read models are compared
without them."""


def read_models(client: redis.Redis) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for pattern in projections.patterns():
        for key in client.scan_iter(match=pattern):
            if key.decode().endswith(REMADE_WHEN_ASKED):
                continue
            kind = client.type(key).decode()
            if kind == "string":
                value: Any = _json_or_text(client.get(key))
            elif kind == "hash":
                value = {k.decode(): _json_or_text(v) for k, v in client.hgetall(key).items()}
            elif kind == "zset":
                value = client.zrange(key, 0, -1, withscores=True)
            else:
                value = sorted(client.smembers(key))
            found[key.decode()] = value
    return found


def _json_or_text(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode()


def play_randomly(api: ApiClient, table: Table, rng: random.Random, moves: int | None = None) -> None:
    """Seats play random legal cards: `moves` of them, or to the end of the game."""
    done = 0
    while moves is None or done < moves:
        awaiting = api.game(table)["awaiting"]
        if not awaiting:
            return
        seat = rng.choice(awaiting)["seat"]
        legal = api.game(table, seat)["you"]["legal_moves"]
        assert api.send(table, seat, rng.choice(legal)).status_code == 200
        done += 1


def play_shared_victory(api: ApiClient) -> Table:
    table = api.create(players=3, seats=[{"name": n} for n in ("Ann", "Bob", "Cat")], options={"first_boss": 0})
    for card in SHARED_VICTORY_CARDS:
        for seat in range(3):
            assert api.play(table, seat, card).status_code == 200
    return table


def play_corpus(api: ApiClient, seed: int = 7) -> list[Table]:
    """Finished 12 Gangsters games of 3 to 6 players (the 5-player variant too), a shared victory, finished
    Ca$h 'n Guns games of 4 and 8, a game in progress and a game still waiting for a player."""
    rng = random.Random(seed)
    tables = []
    for players in (3, 4, 5, 6, 3):
        names = [{"name": rng.choice(["Ann", "Bob", "Cat", "Dan", "Eve"]) + str(i)} for i in range(players)]
        table = api.create(seats=names, seed=rng.randrange(1000))
        play_randomly(api, table, rng)
        tables.append(table)
    tables.append(play_shared_victory(api))
    for players in (4, 8):
        cash = api.create("cash-n-guns", players=players, seed=players, options={"aim_window_s": 3600})
        play_randomly(api, cash, rng)
        tables.append(cash)
    in_progress = api.create(players=4, seed=3)
    play_randomly(api, in_progress, rng, moves=9)
    waiting = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    assert api.join(waiting, "Bob").status_code == 201
    return [*tables, in_progress, waiting]
