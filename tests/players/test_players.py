"""Registered players: unique names, tokens shown once and stored hashed, rotated and revoked; a player token
acts for the seat its player holds, in every game, while seat tokens keep working for anonymous seats."""

from __future__ import annotations

import hashlib
import threading

import msgspec
import redis
from click.testing import CliRunner
from flask import Flask

from events import keys
from events.player_store import CLAIM_PENDING_S, Claim, RedisPlayerStore
from players.state import fold
from service.application.audit import audit_player
from service.config import Config
from service.http.app import create_app
from service.ops import cli
from tests.client import ApiClient, assert_problem
from tests.players.helpers import bearer, create, join, play_first_legal, player_id
from tests.players.test_player_domain import LOG


def test_a_player_registers_once_per_name_whatever_its_case(api: ApiClient) -> None:
    answer = api.http.post("/v1/players", json={"name": "Ann"})
    assert answer.status_code == 201
    assert answer.headers["Location"].endswith(f"/v1/players/{answer.json['player_id']}")
    assert answer.json["token"].startswith(answer.json["player_id"] + ".")
    assert_problem(api.http.post("/v1/players", json={"name": "aNN"}), 409, "name_taken")
    assert_problem(api.http.post("/v1/players", json={"name": "bot:smart"}), 422, "invalid_request")


def test_names_that_unicode_writes_two_ways_are_one_name(api: ApiClient) -> None:
    # A precomposed letter and its decomposed spelling look the same, as do a fullwidth or ligatured spelling
    # and the plain one: the second of each pair would pass for the first on the leaderboard.
    for first, second in (("\u00c1ngel", "A\u0301ngel"), ("Ann", "\uff21nn"), ("fine", "\ufb01ne")):
        assert api.http.post("/v1/players", json={"name": first}).status_code == 201
        assert_problem(api.http.post("/v1/players", json={"name": second}), 409, "name_taken")
    # Nor does a spelling of `bot:` pass for a human's name.
    assert_problem(api.http.post("/v1/players", json={"name": "\uff42ot:smart"}), 422, "invalid_request")


LOOKALIKES = {
    # Cyrillic A, Greek Alpha, a Cyrillic a last, Greek capitals, Cyrillic A and a around Latin n's
    "Anna": ["\u0410nna", "\u0391nna", "Ann\u0430", "\u0391\u039d\u039d\u0391", "\u0410nn\u0430"],
    "paypal": ["\u0440\u0430\u0443\u0440\u0430l"],  # Cyrillic er, a and u, a Latin l
    "Bill": ["BiII", "Bi11"],  # capital I and 1 for l: the name as written, not casefolded, is compared
    "Olga": ["0lga"],
}


def test_a_name_that_looks_like_a_name_held_is_refused_with_its_own_code(
    api: ApiClient, redis_client: redis.Redis
) -> None:
    for name, lookalikes in LOOKALIKES.items():
        held = api.http.post("/v1/players", json={"name": name})
        assert held.status_code == 201
        claims = [redis_client.hgetall(key) for key in (keys.player_names(), keys.player_skeletons())]
        for lookalike in lookalikes:
            body = assert_problem(api.http.post("/v1/players", json={"name": lookalike}), 409, "name_confusable")
            assert lookalike in body["detail"] and name not in body["detail"]  # it names no one else's
            assert held.json["player_id"] not in body["detail"]
        assert [redis_client.hgetall(key) for key in (keys.player_names(), keys.player_skeletons())] == claims
    # A name that merely looks different is free: another letter, an accent, another script's other letter.
    for other in ("Anne", "Ana", "\u00c4nna", "Hanna", "\u0410\u043d\u043d\u0430", "Bell", "Olga Z", "paypals"):
        assert api.http.post("/v1/players", json={"name": other}).status_code == 201, other


def test_racing_registrations_of_lookalike_names_make_one_player(app: Flask) -> None:
    answers: list[int] = []
    spellings = ["Zed", "\u0396ed", "Z\u0435d", "\u0396\u0435d", "\uff3aed"]  # Greek Zeta, Cyrillic ie, fullwidth Z

    def register(name: str) -> None:
        answers.append(app.test_client().post("/v1/players", json={"name": name}).status_code)

    threads = [threading.Thread(target=register, args=(name,)) for name in spellings * 2]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201] + [409] * (len(threads) - 1)


def test_players_registered_before_lookalikes_were_refused_are_protected(
    api: ApiClient, config: Config, redis_client: redis.Redis
) -> None:
    olga = api.register("Olga")
    # A store written before skeletons were claimed: the names alone.
    redis_client.delete(keys.player_skeletons(), keys.skeletons_claimed())
    upgraded = ApiClient(create_app(config, TESTING=True).test_client())  # a process of the new code
    assert_problem(upgraded.http.post("/v1/players", json={"name": "0lga"}), 409, "name_confusable")
    assert redis_client.hget(keys.player_skeletons(), "olga") == player_id(api, olga).encode()
    # A rebuild claims them too.
    redis_client.delete(keys.player_skeletons(), keys.skeletons_claimed())
    assert CliRunner(env={"REDIS_URL": _url(redis_client)}).invoke(cli.main, ["projections", "rebuild"]).exit_code == 0
    assert redis_client.hget(keys.player_skeletons(), "olga") == player_id(api, olga).encode()


def test_racing_registrations_of_one_name_make_one_player(app: Flask) -> None:
    answers: list[int] = []

    def register() -> None:
        answers.append(app.test_client().post("/v1/players", json={"name": "Zed"}).status_code)

    threads = [threading.Thread(target=register) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201] + [409] * 7


def test_a_name_claimed_by_a_registration_that_died_is_free_once_its_time_has_run_out(
    api: ApiClient, redis_client: redis.Redis
) -> None:
    # A registration claims its name, then writes its player: one that dies in between holds the name.
    assert RedisPlayerStore(redis_client).claim_name("Zoe", "0123456789abcdef") is Claim.MADE
    assert_problem(api.http.post("/v1/players", json={"name": "zoe"}), 409, "name_taken")  # it may still write
    assert_problem(api.http.post("/v1/players", json={"name": "\u0396oe"}), 409, "name_confusable")  # Greek Zeta
    pending = keys.name_claim_pending("0123456789abcdef")
    assert 0 < redis_client.ttl(pending) <= CLAIM_PENDING_S  # the claim lapses by itself
    redis_client.delete(pending)  # its CLAIM_PENDING_S have passed
    answer = api.http.post("/v1/players", json={"name": "zoe"})
    assert answer.status_code == 201
    assert redis_client.hget(keys.player_names(), "zoe") == answer.json["player_id"].encode()
    assert redis_client.hget(keys.player_skeletons(), "zoe") == answer.json["player_id"].encode()


def test_a_lookalike_takes_over_the_claims_of_a_registration_that_died(
    api: ApiClient, redis_client: redis.Redis
) -> None:
    assert RedisPlayerStore(redis_client).claim_name("Zoe", "0123456789abcdef") is Claim.MADE
    redis_client.delete(keys.name_claim_pending("0123456789abcdef"))  # it died, and its time has run out
    answer = api.http.post("/v1/players", json={"name": "\u0396oe"})
    assert answer.status_code == 201
    assert redis_client.hget(keys.player_skeletons(), "zoe") == answer.json["player_id"].encode()
    assert_problem(api.http.post("/v1/players", json={"name": "Zoe"}), 409, "name_confusable")


def test_a_token_is_stored_only_as_a_hash(api: ApiClient, redis_client: redis.Redis) -> None:
    token = api.register("Ann")
    pid = player_id(api, token)
    stored = redis_client.get(keys.player_state(pid)) + b"".join(
        fields[b"e"] for _, fields in redis_client.xrange(keys.player_events(pid))
    )
    assert token.encode() not in stored and token.rsplit(".", 1)[1].encode() not in stored
    assert hashlib.sha256(token.encode()).hexdigest().encode() in stored  # the whole token's digest, only


def test_tokens_rotate_a_new_one_works_and_a_revoked_one_opens_nothing(api: ApiClient) -> None:
    old = api.register("Ann")
    issued = api.http.post("/v1/players/me/tokens", headers=bearer(old))
    assert issued.status_code == 201
    new = issued.json["token"]
    me = api.http.get("/v1/players/me", headers=bearer(new)).json
    old_id = next(t["token_id"] for t in me["tokens"] if t["token_id"] != issued.json["token_id"])
    assert len(me["tokens"]) == 2 and all("digest" not in t and "token" not in t for t in me["tokens"])
    assert api.http.delete(f"/v1/players/me/tokens/{old_id}", headers=bearer(new)).status_code == 204
    assert_problem(api.http.get("/v1/players/me", headers=bearer(old)), 401, "invalid_token")
    assert_problem(api.http.delete(f"/v1/players/me/tokens/{old_id}", headers=bearer(new)), 404, "token_not_found")
    assert [t["token_id"] for t in api.http.get("/v1/players/me", headers=bearer(new)).json["tokens"]] == [
        issued.json["token_id"]
    ]


def test_a_forged_or_malformed_player_token_is_refused(api: ApiClient) -> None:
    token = api.register("Ann")
    pid, token_id, _ = token.split(".")
    for forged in (f"{pid}.{token_id}.nope", f"{'0' * 16}.{token_id}.x", "a.b.c", f"{pid}.zzzz.{token}"):
        assert_problem(api.http.get("/v1/players/me", headers=bearer(forged)), 401, "invalid_token")
    assert_problem(api.http.get("/v1/players/me"), 401, "invalid_token")


def test_a_player_creates_joins_and_plays_with_its_own_token(api: ApiClient) -> None:
    ann, bob = api.register("Ann"), api.register("Bob")
    table = create(api, ann, [{"player": "me"}, {"open": True}, {"name": "Cat"}])
    assert list(table.tokens) == [2]  # only the anonymous seat gets a seat token
    assert table.body["seats"][0] == {"seat": 0, "name": "Ann", "player": player_id(api, ann), "open": False}
    # A player sits under its own name: a name sent besides is refused, not silently dropped.
    named = api.http.post(f"/v1/games/{table.id}/join", json={"name": "Robert"}, headers=bearer(bob))
    assert_problem(named, 422, "invalid_request")
    assert api.game(table)["seats"][1]["open"]
    assert join(api, table, bob) == 1
    assert_problem(
        api.http.post(f"/v1/games/{table.id}/join", json={}, headers=bearer(bob)), 409, "game_already_started"
    )
    assert play_first_legal(api, table, ann) and play_first_legal(api, table, bob)
    assert api.play(table, 2, 5).status_code == 200  # the anonymous seat's own token still works
    assert api.http.get(f"/v1/games/{table.id}", headers=bearer(bob)).json["you"]["seat"] == 1
    assert api.http.get(f"/v1/games/{table.id}/audit").json["ok"]


def test_a_player_token_acts_only_where_its_player_sits(api: ApiClient) -> None:
    ann, eve = api.register("Ann"), api.register("Eve")
    table = create(api, ann, [{"player": "me"}, {"name": "Bob"}, {"name": "Cat"}])
    move = api.http.post(f"/v1/games/{table.id}/moves", json={"type": "play", "card": 1}, headers=bearer(eve))
    assert_problem(move, 401, "invalid_token")
    assert_problem(api.http.get(f"/v1/games/{table.id}", headers=bearer(eve)), 401, "invalid_token")


def test_a_player_seat_needs_a_player_token_and_is_taken_once(api: ApiClient) -> None:
    ann = api.register("Ann")
    body = {"ruleset": "twelve-gangsters", "seats": [{"player": "me"}, {"name": "B"}, {"name": "C"}]}
    assert_problem(api.http.post("/v1/games", json=body), 401, "invalid_token")
    twice = {**body, "seats": [{"player": "me"}, {"player": "me"}, {"name": "C"}]}
    assert_problem(api.http.post("/v1/games", json=twice, headers=bearer(ann)), 422, "invalid_seats")
    table = create(api, ann, [{"player": "me"}, {"open": True}, {"open": True}])
    assert_problem(api.http.post(f"/v1/games/{table.id}/join", json={}, headers=bearer(ann)), 409, "already_seated")


def test_creating_or_joining_with_a_token_that_is_no_live_player_token_is_401(api: ApiClient) -> None:
    # A wrong token is an error, never ignored: the caller meant to act as someone.
    anonymous = {"ruleset": "twelve-gangsters", "seats": [{"name": "A"}, {"open": True}, {"name": "C"}]}
    other = api.create(players=3)
    waiting = api.create(seats=[{"name": "A"}, {"open": True}, {"open": True}])
    for wrong in ("bogus", "a.b.c", other.tokens[0]):  # nonsense, a forged player token, another game's seat token
        assert_problem(api.http.post("/v1/games", json=anonymous, headers=bearer(wrong)), 401, "invalid_token")
        joined = api.http.post(f"/v1/games/{waiting.id}/join", json={"name": "B"}, headers=bearer(wrong))
        assert_problem(joined, 401, "invalid_token")
    assert api.game(waiting)["version"] == waiting.body["version"]  # nothing changed


def test_my_games_lists_the_players_games_by_status(api: ApiClient) -> None:
    ann = api.register("Ann")
    waiting = create(api, ann, [{"player": "me"}, {"open": True}, {"open": True}])
    playing = create(api, ann, [{"player": "me"}, {"name": "B"}, {"name": "C"}])
    create(api, api.register("Bob"), [{"player": "me"}, {"name": "B"}, {"name": "C"}])  # not Ann's
    mine = api.http.get("/v1/players/me/games", headers=bearer(ann))
    assert [g["game_id"] for g in mine.json] == [playing.id, waiting.id]
    assert '"total": 2' in mine.headers["X-Pagination"]
    waiting_only = api.http.get("/v1/players/me/games?status=waiting", headers=bearer(ann)).json
    assert [g["game_id"] for g in waiting_only] == [waiting.id]
    profile = api.http.get(f"/v1/players/{player_id(api, ann)}").json
    assert profile["name"] == "Ann" and [g["game_id"] for g in profile["recent_games"]] == [playing.id, waiting.id]
    assert "tokens" not in profile
    assert_problem(api.http.get("/v1/players/0123456789abcdef"), 404, "player_not_found")


def test_a_players_log_is_audited_against_its_stored_state(api: ApiClient, redis_client: redis.Redis) -> None:
    token = api.register("Ann")
    api.http.post("/v1/players/me/tokens", headers=bearer(token))
    pid = player_id(api, token)
    runner = CliRunner(env={"REDIS_URL": _url(redis_client)})
    ok = runner.invoke(cli.main, ["audit", "--player", pid])
    assert ok.exit_code == 0 and '"ok": true' in ok.output
    redis_client.set(keys.player_state(pid), redis_client.get(keys.player_state(pid)).replace(b'"Ann"', b'"Eve"'))
    tampered = runner.invoke(cli.main, ["audit", "--player", pid])
    assert tampered.exit_code == 1 and '"check": "state"' in tampered.output


def test_a_players_log_must_start_with_its_registration_and_count_from_one() -> None:
    assert audit_player("0123456789abcdef", LOG, fold(LOG)).ok
    unregistered = audit_player("0123456789abcdef", [msgspec.structs.replace(LOG[1], version=1)], None)
    assert [problem["check"] for problem in unregistered.problems] == ["log"]
    gapped = audit_player("0123456789abcdef", [LOG[0], *LOG[2:]], fold([LOG[0], *LOG[2:]]))
    assert [(problem["check"], problem["version"]) for problem in gapped.problems] == [("versions", 3), ("versions", 4)]


def _url(client: redis.Redis) -> str:
    kwargs = client.connection_pool.connection_kwargs
    return f"redis://{kwargs['host']}:{kwargs['port']}/{kwargs.get('db', 0)}"
