"""The flood: one client creates 250 all-bot games as fast as it can while a person plays a game against bots,
and a real `syndicate worker` plays them all.

It used to stall every game on the server: bot jobs were keyed by version, so each move in a simultaneous round
left the other seats' jobs stale behind fresh ones, the sweep queued more under new ids, and no-ops crowded out
real moves. Now each game has one turn of the house pending, people's games are served first, all-bot games are
paced, and creations wait (503) while the house is behind. The test holds what must hold on any machine, however
slow: the person's game never waits behind the burst (each of its rounds is answered while the burst is still
queued), the queues stay bounded by one job per game, and everything drains by itself once the burst is over.
How fast, in seconds, is the benchmark's to say (`make bench`: benchmarks/flood.py)."""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from typing import Any

import redis
from rq import Queue

from events import keys
from service.bootstrap import bootstrap
from service.config import Config
from service.http.app import create_app
from service.worker.scheduler import BOT_QUEUE, QUEUE
from tests.client import ApiClient
from tests.waiting import wait_for

BURST = 250
BOTS = [{"bot": "random"}] * 3


def depths(client: redis.Redis) -> tuple[int, int]:
    """The jobs waiting for people's games, and for all-bot games (queued or held back for their pace), read at one
    moment: read one after the other, a game's turn could be counted queued, then played and its next turn counted
    held back."""
    with client.pipeline(transaction=True) as moment:
        moment.llen(Queue(QUEUE, connection=client).key)
        moment.llen(Queue(BOT_QUEUE, connection=client).key)
        moment.zcard(keys.paced_turns())
        people, queued, paced = moment.execute()
    return int(people), int(queued) + int(paced)


def test_a_burst_of_all_bot_games_stalls_neither_a_persons_game_nor_the_house(
    config: Config, redis_client: redis.Redis, start_worker: Callable[..., Any]
) -> None:
    # One address's limit lifted, as if the burst came from many (the limit itself: tests/service/test_admission.py).
    flooded = dataclasses.replace(config, bot_pace_s=0.5)
    api = ApiClient(create_app(flooded, bootstrap(flooded), TESTING=True).test_client())
    start_worker(environ={"SYNDICATE_BOT_PACE_S": "0.5"})
    canary = api.create(seats=[{"name": "Ann"}, {"bot": "smart"}, {"bot": "smart"}], options={"first_boss": 0})

    answers = [api.http.post("/v1/games", json={"ruleset": "twelve-gangsters", "seats": BOTS}) for _ in range(BURST)]
    admitted = [a.json["game_id"] for a in answers if a.status_code == 201]
    refused = [a for a in answers if a.status_code != 201]
    assert all(a.status_code == 503 and a.json["code"] == "overloaded" and a.headers["Retry-After"] for a in refused)

    most = (0, 0)
    burst_waiting = []
    for card in range(1, 13):
        assert api.play(canary, 0, card).status_code == 200
        # The bots' answer: the round is revealed and the next one begins, or the game ends.
        wait_for(
            lambda: api.game(canary, 0)["you"]["legal_moves"] or api.game(canary)["status"] == "finished",
            what=f"the canary's bots in round {card}",
        )
        sampled = depths(redis_client)
        most = (max(most[0], sampled[0]), max(most[1], sampled[1]))
        burst_waiting.append(sampled[1])
    assert api.game(canary)["status"] == "finished"
    assert any(burst_waiting), "the burst was still waiting while the canary's rounds were answered"
    assert most[0] <= 3, f"people's queue reached {most[0]}: the canary waited behind others"
    assert most[1] <= len(admitted), f"{most[1]} all-bot jobs waited for {len(admitted)} games: one each at most"

    # Recovery: once the burst is played out, nothing is left waiting and new games are admitted again.
    def played_out() -> bool:
        under_way = json.loads(api.http.get("/v1/games?status=in_progress").headers["X-Pagination"])["total"]
        return under_way == 0 and depths(redis_client) == (0, 0)

    started = time.monotonic()
    wait_for(played_out, timeout_s=180, what="the burst to be played out")
    drained_s = time.monotonic() - started
    again = api.http.post("/v1/games", json={"ruleset": "twelve-gangsters", "seats": BOTS})
    assert again.status_code == 201, again.json
    print(  # what `pytest -s` shows; the seconds are this machine's
        f"\n{len(admitted)} of {BURST} all-bot games admitted, {len(refused)} asked to wait; all-bot jobs waiting "
        f"during the canary's rounds: {burst_waiting}; the rest played out {drained_s:.0f} s after the canary's end"
    )
