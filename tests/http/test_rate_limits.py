"""Budgets that honest play stays within: each token its own, reads without a token their own, and creations,
joins and registrations without a token their own, so no burst of one crowds out another; an address's tokens
together under one ceiling, so made-up tokens buy nothing; a 304 free; and every answer telling where its caller
stands."""

from __future__ import annotations

import dataclasses
import time
import uuid

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.config import Config
from service.http import ratelimit
from service.http.app import create_app
from service.http.ratelimit import token_key
from service.ops.redis_server import RedisServer
from tests.client import ApiClient, Table, assert_problem

UNLIMITED = "100000 per minute"


def limited(config: Config, **budgets: str) -> Flask:
    """The app with every budget unlimited but those given."""
    every = {"rate_limit": UNLIMITED, "rate_limit_token": UNLIMITED, "rate_limit_address": UNLIMITED}
    every |= {"rate_limit_open": UNLIMITED, **budgets}
    return create_app(dataclasses.replace(config, **every), TESTING=True)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seat_token(api: ApiClient, table: Table, seat: int) -> str:
    return api.auth(table, seat)["Authorization"].removeprefix("Bearer ")


def move(http: FlaskClient, table: Table, token: str, card: int) -> int:
    body = {"type": "play", "card": card}
    return http.post(f"/v1/games/{table.id}/moves", json=body, headers=bearer(token)).status_code


def test_every_counted_answer_tells_the_budget_nearest_its_end(config: Config, api: ApiClient) -> None:
    http = limited(config, rate_limit="5 per minute", rate_limit_token="3 per minute").test_client()
    first = http.get("/v1/rulesets")
    assert (first.headers["RateLimit-Limit"], first.headers["RateLimit-Remaining"]) == ("5", "4")
    assert first.headers["RateLimit-Policy"] == "5;w=60" and 1 <= int(first.headers["RateLimit-Reset"]) <= 60
    table = api.create(players=3)
    seated = http.get(f"/v1/games/{table.id}", headers=api.auth(table, 0))
    assert (seated.headers["RateLimit-Limit"], seated.headers["RateLimit-Remaining"]) == ("3", "2")
    assert "Retry-After" not in seated.headers
    assert "RateLimit-Limit" not in http.get("/livez").headers  # probes are never counted


def test_a_304_costs_nothing(config: Config, api: ApiClient) -> None:
    http = limited(config, rate_limit="3 per minute").test_client()
    table = api.create(players=3)
    url = f"/v1/games/{table.id}"
    tag = http.get(url).headers["ETag"]
    for _ in range(10):
        unchanged = http.get(url, headers={"If-None-Match": tag})
        assert unchanged.status_code == 304 and unchanged.headers["RateLimit-Remaining"] == "2"
    assert [http.get(url).status_code for _ in range(3)] == [200, 200, 429]


def test_retry_after_is_rounded_up_so_waiting_it_out_is_enough(config: Config) -> None:
    http = limited(config, rate_limit="2 per 2 seconds").test_client()
    while (refused := http.get("/v1/rulesets")).status_code != 429:
        pass
    wait = int(refused.headers["Retry-After"])
    assert 1 <= wait <= 2 and refused.headers["RateLimit-Reset"] == str(wait)
    time.sleep(wait)
    assert http.get("/v1/rulesets").status_code == 200


def test_a_flood_of_reads_without_a_token_leaves_seated_play_alone(config: Config, api: ApiClient) -> None:
    http = limited(config, rate_limit="3 per minute").test_client()
    table = api.create(players=3, options={"first_boss": 0})
    while http.get(f"/v1/games/{table.id}").status_code != 429:
        pass
    for seat in range(3):
        assert move(http, table, seat_token(api, table, seat), 1) == 200


def test_a_burst_of_creations_and_joins_without_a_token_crowds_out_neither_play_nor_reads(
    config: Config, api: ApiClient
) -> None:
    http = limited(config, rate_limit="5 per minute", rate_limit_open="2 per minute").test_client()
    seats = [{"name": "Ann"}, {"open": True}, {"open": True}]
    created = [http.post("/v1/games", json={"ruleset": "twelve-gangsters", "seats": seats}) for _ in range(2)]
    assert [c.status_code for c in created] == [201, 201]
    refused = http.post("/v1/games", json={"ruleset": "twelve-gangsters", "seats": seats})
    detail = assert_problem(refused, 429, "rate_limited")["detail"]
    assert "creating, joining or registering without a token" in detail
    game_id = created[0].json["game_id"]
    assert_problem(http.post(f"/v1/games/{game_id}/join", json={"name": "Bob"}), 429, "rate_limited")
    assert_problem(http.post("/v1/players", json={"name": "Bob"}), 429, "rate_limited")
    assert http.get(f"/v1/games/{game_id}").status_code == 200  # reads have their own budget
    ann = created[0].json["tokens"][0]["token"]
    assert http.get(f"/v1/games/{game_id}", headers=bearer(ann)).status_code == 200  # and so does each token


def test_each_token_has_a_budget_of_its_own(config: Config, api: ApiClient) -> None:
    http = limited(config, rate_limit_token="4 per minute").test_client()
    table = api.create(players=3, options={"first_boss": 0})
    ann, bob = seat_token(api, table, 0), seat_token(api, table, 1)
    while http.get(f"/v1/games/{table.id}", headers=bearer(ann)).status_code != 429:
        pass
    refused = http.post(f"/v1/games/{table.id}/moves", json={"type": "play", "card": 1}, headers=bearer(ann))
    assert "with this token" in assert_problem(refused, 429, "rate_limited")["detail"]
    assert move(http, table, bob, 1) == 200
    assert api.game(table, 0)["you"]["legal_moves"], "the refused move changed nothing"


def test_made_up_tokens_from_one_address_buy_nothing_past_its_ceiling(config: Config, api: ApiClient) -> None:
    """Each made-up token would have a budget of its own; the address's ceiling over every token counts them all."""
    http = limited(config, rate_limit_address="5 per minute").test_client()
    table = api.create(players=3)
    statuses = [http.get(f"/v1/games/{table.id}", headers=bearer(uuid.uuid4().hex)).status_code for _ in range(7)]
    assert statuses == [401] * 5 + [429] * 2
    refused = http.get(f"/v1/games/{table.id}", headers=bearer(uuid.uuid4().hex))
    assert "with tokens from this address" in assert_problem(refused, 429, "rate_limited")["detail"]
    other = {"REMOTE_ADDR": "10.1.2.3"}
    assert http.get(f"/v1/games/{table.id}", headers=bearer(uuid.uuid4().hex), environ_base=other).status_code == 401


@pytest.mark.parametrize("tokens", [1, 3])
def test_no_token_reaches_the_counters_keys(config: Config, api: ApiClient, redis_client, tokens: int) -> None:
    http = limited(config).test_client()
    table = api.create(players=3)
    sent = [seat_token(api, table, seat) for seat in range(tokens)]
    for token in sent:
        http.get(f"/v1/games/{table.id}", headers=bearer(token))
    keys = [key.decode() for key in redis_client.scan_iter("syndicate:rate:*")]
    assert len([k for k in keys if ":token:" in k]) == tokens
    assert not any(token in key for key in keys for token in sent)


def test_a_count_is_shared_by_every_process_and_never_written_to_disk(
    config: Config, api: ApiClient, redis_server: RedisServer, redis_client: redis.Redis
) -> None:
    # Two apps: two gunicorn workers, or two API processes on one Redis. Their counts add up.
    one, other = (limited(config, rate_limit="4 per minute", rate_limit_token="3 per minute") for _ in range(2))
    http = [one.test_client(), other.test_client()]
    assert [http[i % 2].get("/v1/rulesets").status_code for i in range(5)] == [200, 200, 200, 200, 429]
    table = api.create(players=3)
    token = seat_token(api, table, 0)
    seated = [http[i % 2].get(f"/v1/games/{table.id}", headers=bearer(token)) for i in range(4)]
    assert [r.status_code for r in seated] == [200, 200, 200, 429]
    assert seated[2].headers["RateLimit-Remaining"] == "0"
    # The game is on disk (appendfsync), the token's counter only in memory: a restart forgets its window.
    counter = f"syndicate:rate:token:{{{token_key(token)}}}".encode()
    assert redis_client.get(counter) == b"4"
    logged = b"".join(f.read_bytes() for f in redis_server.data_dir.glob("appendonly*"))
    assert table.id.encode() in logged
    assert counter not in logged


def test_the_web_page_is_never_refused_as_json(config: Config) -> None:
    """A caller past its budget still gets the page (its API calls wait out their 429s): never problem+json."""
    http = limited(config, rate_limit="2 per minute").test_client()
    while http.get("/v1/rulesets").status_code != 429:
        pass
    for _ in range(3):
        page = http.get("/play")
        assert page.status_code == 200 and page.mimetype == "text/html"


def counted(redis_client: redis.Redis, token: str) -> int:
    """What Redis holds of a token's count."""
    return int(redis_client.get(f"syndicate:rate:token:{{{token_key(token)}}}") or 0)


def test_a_large_budget_is_counted_in_memory_between_round_trips(
    config: Config, api: ApiClient, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Far from its end, a budget is counted in the process for up to SYNC_S, and added to Redis's count with the
    next request that asks: the answers tell the whole count all along."""
    http = limited(config, rate_limit_token="1600 per minute").test_client()
    table = api.create(players=3)
    token = seat_token(api, table, 0)
    remaining = [int(http.get(f"/v1/games/{table.id}", headers=bearer(token)).headers["RateLimit-Remaining"])]
    remaining += [int(http.get(f"/v1/games/{table.id}", headers=bearer(token)).headers["RateLimit-Remaining"])]
    assert counted(redis_client, token) == 1, "the second request asked Redis nothing"
    monkeypatch.setattr(ratelimit, "SYNC_S", 0.0)  # the process's count has aged past its limit
    remaining += [int(http.get(f"/v1/games/{table.id}", headers=bearer(token)).headers["RateLimit-Remaining"])]
    assert remaining == [1599, 1598, 1597]
    assert counted(redis_client, token) == 3


def test_processes_counting_in_memory_let_through_at_most_a_share_more(
    config: Config, api: ApiClient, redis_client: redis.Redis
) -> None:
    """Two processes, each counting in memory between round trips: none refuses a request within the budget, and
    together they let through at most a share of it more (each asks again once it let through a SHARE-th of what
    was left)."""
    amount = 320
    apps = [limited(config, rate_limit_token=f"{amount} per minute").test_client() for _ in range(2)]
    table = api.create(players=3)
    token = seat_token(api, table, 0)
    passed = 0
    for i in range(2 * amount):
        if apps[i % 2].get(f"/v1/games/{table.id}", headers=bearer(token)).status_code == 429:
            break
        passed += 1
    assert amount <= passed <= amount + 2 * amount // ratelimit.SHARE
    assert counted(redis_client, token) >= amount


def test_a_process_keeps_counts_of_a_bounded_number_of_keys(
    config: Config, api: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ratelimit, "KEPT", 4)
    app = limited(config)
    http = app.test_client()
    table = api.create(players=3)
    for _ in range(10):
        assert http.get(f"/v1/games/{table.id}", headers=bearer(uuid.uuid4().hex)).status_code == 401
    ledger = next(hook.__self__.ledger for hook in app.before_request_funcs[None] if hasattr(hook, "__self__"))
    assert len(ledger.tallies) <= 4
    # Every window still runs: the older half goes at once, so a flood of new keys costs a pass now and then.
    sizes = []
    for _ in range(6):
        http.get(f"/v1/games/{table.id}", headers=bearer(uuid.uuid4().hex))
        sizes.append(len(ledger.tallies))
    assert max(sizes) <= 4 and min(sizes) < 4, sizes  # not one key dropped for each new one


def test_a_token_this_process_handed_out_is_counted_from_zero_without_asking(
    config: Config, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nobody can have sent a token before it existed: the process that hands one out (a creation's, a join's)
    counts its budget from zero, so its first requests ask Redis nothing for it; the answers tell the whole count,
    and Redis gets it with the next request that asks."""
    http = limited(config, rate_limit_token="1600 per minute").test_client()
    seats = [{"name": "A"}, {"name": "C"}, {"open": True}]
    created = http.post("/v1/games", json={"ruleset": "twelve-gangsters", "seats": seats})
    game, token = created.json["game_id"], created.json["tokens"][0]["token"]
    joined = http.post(f"/v1/games/{game}/join", json={"name": "B"}).json["token"]
    assert http.get(f"/v1/games/{game}", headers=bearer(uuid.uuid4().hex)).status_code == 401  # the address counted
    for handed in (token, joined):
        remaining = [int(http.get(f"/v1/games/{game}", headers=bearer(handed)).headers["RateLimit-Remaining"])]
        remaining += [int(http.get(f"/v1/games/{game}", headers=bearer(handed)).headers["RateLimit-Remaining"])]
        assert remaining == [1599, 1598]
        assert counted(redis_client, handed) == 0, "nothing asked of Redis for the token"
    monkeypatch.setattr(ratelimit, "SYNC_S", 0.0)  # the process's counts have aged past their limit
    assert http.get(f"/v1/games/{game}", headers=bearer(token)).headers["RateLimit-Remaining"] == "1597"
    assert counted(redis_client, token) == 3


def test_a_token_handed_out_elsewhere_is_asked_of_redis(config: Config, api: ApiClient, redis_client) -> None:
    """Another process's token is no new one to this process: its first request asks Redis."""
    http = limited(config, rate_limit_token="1600 per minute").test_client()
    table = api.create(players=3)  # another app: another process
    token = seat_token(api, table, 0)
    assert http.get(f"/v1/games/{table.id}", headers=bearer(token)).status_code == 200
    assert counted(redis_client, token) == 1
