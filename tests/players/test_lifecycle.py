"""A seat's life outside its moves: leave before the start, resign during play, the creator's abort, the
rematch, the quick match. Each is an event of the game's log, in its feed and passed by its audit."""

from __future__ import annotations

import threading
from collections.abc import Callable

from flask import Flask

from tests.client import ApiClient, Table, assert_problem
from tests.players.helpers import bearer, create, join, play_first_legal, player_id


def audited(api: ApiClient, table: Table) -> list[str]:
    """The game's event types, once its audit has passed."""
    report = api.http.get(f"/v1/games/{table.id}/audit").json
    assert report["ok"], report["problems"]
    return [e["type"] for e in api.events(table)]


def test_leaving_before_the_start_opens_the_seat_and_voids_its_token(api: ApiClient) -> None:
    table = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    assert api.join(table, "Bob").status_code == 201
    left = api.http.post(f"/v1/games/{table.id}/leave", headers=api.auth(table, 1))
    assert left.status_code == 200 and left.json["seats"][1] == {"seat": 1, "open": True}
    assert_problem(api.http.post(f"/v1/games/{table.id}/leave", headers=api.auth(table, 1)), 401, "invalid_token")
    assert api.join(table, "Cat").json["seat"] == 1
    assert audited(api, table)[-2:] == ["seat_left", "seat_joined"]
    assert_problem(api.http.post(f"/v1/games/{table.id}/leave"), 401, "invalid_token")


def test_a_started_game_cannot_be_left_only_resigned(api: ApiClient) -> None:
    table = api.create(players=3)
    assert_problem(
        api.http.post(f"/v1/games/{table.id}/leave", headers=api.auth(table, 0)), 409, "game_already_started"
    )
    waiting = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    assert_problem(
        api.http.post(f"/v1/games/{waiting.id}/resign", headers=api.auth(waiting, 0)), 409, "game_not_started"
    )


def test_a_resigned_seat_is_played_by_the_random_bot_to_the_end(api: ApiClient, drain: Callable[[], None]) -> None:
    table = api.create(seats=[{"name": "Ann"}, {"name": "Bob"}, {"bot": "random"}])
    assert api.http.post(f"/v1/games/{table.id}/resign", headers=api.auth(table, 1)).json["seats"][1]["resigned"]
    assert_problem(api.play(table, 1, 3), 409, "seat_resigned")
    assert_problem(api.http.post(f"/v1/games/{table.id}/resign", headers=api.auth(table, 1)), 409, "already_resigned")
    assert api.game(table, 1)["you"]["legal_moves"] == []  # nothing it could send would be taken
    assert api.game(table, 0)["you"]["legal_moves"]
    for card in range(1, 13):
        assert api.play(table, 0, card).status_code == 200
        drain()
    assert api.game(table)["status"] == "finished"
    assert_problem(
        api.http.post(f"/v1/games/{table.id}/resign", headers=api.auth(table, 0)), 409, "game_already_finished"
    )
    bob = [e for e in api.events(table) if e["type"] == "twelve_gangsters.gangster_played" and e["seat"] == 1]
    assert len(bob) == 12 and all(e["command"]["by"] == "bot" for e in bob)
    assert "seat_resigned" in audited(api, table)


def test_only_the_creator_aborts_and_only_before_the_start(api: ApiClient) -> None:
    ann, bob = api.register("Ann"), api.register("Bob")
    table = create(api, ann, [{"player": "me"}, {"open": True}, {"open": True}])
    join(api, table, bob)
    assert_problem(api.http.post(f"/v1/games/{table.id}/abort", headers=bearer(bob)), 409, "not_creator")
    aborted = api.http.post(f"/v1/games/{table.id}/abort", headers=bearer(ann))
    assert aborted.status_code == 200 and aborted.json["status"] == "aborted"
    assert_problem(api.http.post(f"/v1/games/{table.id}/join", json={"name": "Cat"}), 409, "game_already_aborted")
    assert_problem(api.result(table), 409, "game_already_aborted")  # it will never have a result
    assert_problem(api.http.post(f"/v1/games/{table.id}/rematch", headers=bearer(ann)), 409, "game_already_aborted")
    assert audited(api, table)[-1] == "game_aborted"
    assert [g["game_id"] for g in api.http.get("/v1/games?status=aborted").json] == [table.id]
    feed = api.http.get(f"/v1/games/{table.id}/events/stream")
    assert feed.status_code == 200 and "event: game_aborted" in feed.get_data(as_text=True)  # and then it ends
    assert api.http.get(f"/v1/games/{table.id}/events/stream?after={api.version(table)}").status_code == 204
    anonymous = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    assert api.join(anonymous, "Bob").status_code == 201
    assert_problem(api.http.post(f"/v1/games/{anonymous.id}/abort", headers=api.auth(anonymous, 1)), 409, "not_creator")
    assert api.http.post(f"/v1/games/{anonymous.id}/abort", headers=api.auth(anonymous, 0)).status_code == 200
    assert_problem(
        api.http.post(f"/v1/games/{anonymous.id}/leave", headers=api.auth(anonymous, 1)), 409, "game_already_aborted"
    )
    # A seat named at creation, left and taken by another, is no longer the creator's.
    handed = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    assert api.http.post(f"/v1/games/{handed.id}/leave", headers=api.auth(handed, 0)).status_code == 200
    assert api.join(handed, "Cat").json["seat"] == 0
    assert_problem(api.http.post(f"/v1/games/{handed.id}/abort", headers=api.auth(handed, 0)), 409, "not_creator")
    started = api.create(players=3)
    assert_problem(
        api.http.post(f"/v1/games/{started.id}/abort", headers=api.auth(started, 0)), 409, "game_already_started"
    )


def test_a_rematch_has_the_same_seats_and_options_once(api: ApiClient, drain: Callable[[], None]) -> None:
    ann = api.register("Ann")
    options = {"first_boss": 1, "move_deadline_s": 600}
    table = create(api, ann, [{"player": "me"}, {"name": "Bob"}, {"bot": "smart"}], options=options)
    assert_problem(api.http.post(f"/v1/games/{table.id}/rematch", headers=bearer(ann)), 409, "game_not_finished")
    while api.game(table)["status"] != "finished":
        play_first_legal(api, table, ann)
        if api.game(table, 1)["you"]["legal_moves"]:
            assert api.send(table, 1, api.game(table, 1)["you"]["legal_moves"][0]).status_code == 200
        drain()
    assert_problem(api.http.post(f"/v1/games/{table.id}/rematch"), 401, "invalid_token")
    rematch = api.http.post(f"/v1/games/{table.id}/rematch", headers=bearer(ann))
    assert rematch.status_code == 201
    new = rematch.json
    assert [{k: v for k, v in s.items()} for s in new["seats"]] == table.body["seats"]
    assert new["options"] == table.body["options"] and new["rematch_of"] == table.id
    assert [t["seat"] for t in new["tokens"]] == [1]  # Bob's seat is anonymous: its new token goes to the asker
    assert new["seed_commitment"] != table.body["seed_commitment"]
    assert api.game(table)["rematch"] == new["game_id"]
    assert_problem(api.http.post(f"/v1/games/{table.id}/rematch", headers=api.auth(table, 1)), 409, "rematch_exists")
    assert audited(api, table)[-1] == "rematch_created"
    assert new["game_id"] in [g["game_id"] for g in api.http.get("/v1/players/me/games", headers=bearer(ann)).json]


def test_quick_match_joins_the_oldest_waiting_game_or_creates_one(api: ApiClient) -> None:
    ann, bob, cat, dan = (api.register(n) for n in ("Ann", "Bob", "Cat", "Dan"))
    other = api.create(seats=[{"name": "X"}, {"open": True}, {"open": True}, {"open": True}])  # four seats
    body = {"ruleset": "twelve-gangsters", "seat_count": 3}
    first = api.http.post("/v1/quick-match", json=body, headers=bearer(ann))
    assert first.status_code == 201 and first.json["created"] and first.json["seat"] == 0
    again = api.http.post("/v1/quick-match", json=body, headers=bearer(ann))
    assert again.json["game"]["game_id"] != first.json["game"]["game_id"]  # never twice in one game
    second = api.http.post("/v1/quick-match", json=body, headers=bearer(bob))
    assert second.status_code == 200 and second.json["game"]["game_id"] == first.json["game"]["game_id"]
    third = api.http.post("/v1/quick-match", json=body, headers=bearer(cat)).json
    assert third["game"]["game_id"] == first.json["game"]["game_id"] and third["game"]["status"] == "in_progress"
    fourth = api.http.post("/v1/quick-match", json=body, headers=bearer(dan)).json
    assert fourth["game"]["game_id"] == again.json["game"]["game_id"]
    assert api.game(Table(other.id))["seats"][1]["open"]
    assert_problem(api.http.post("/v1/quick-match", json=body), 401, "invalid_token")
    assert_problem(
        api.http.post("/v1/quick-match", json={**body, "seat_count": 9}, headers=bearer(ann)), 422, "invalid_seat_count"
    )


def test_a_quick_match_still_reads_the_seat_count_by_its_old_name_alone(api: ApiClient) -> None:
    ann, bob = api.register("Ann"), api.register("Bob")
    old = api.http.post("/v1/quick-match", json={"ruleset": "mobsters", "seats": 2}, headers=bearer(ann))
    assert old.status_code == 201 and len(old.json["game"]["seats"]) == 2
    new = api.http.post("/v1/quick-match", json={"ruleset": "mobsters", "seat_count": 2}, headers=bearer(bob))
    assert new.status_code == 200 and new.json["game"]["game_id"] == old.json["game"]["game_id"]
    both = {"ruleset": "mobsters", "seat_count": 2, "seats": 2}
    refused = api.http.post("/v1/quick-match", json=both, headers=bearer(api.register("Cat")))
    assert_problem(refused, 422, "invalid_request")
    assert refused.json["errors"]["json"]["seats"]


def test_racing_quick_matches_fill_one_game(app: Flask, api: ApiClient) -> None:
    tokens = [api.register(f"P{i}") for i in range(6)]
    games: list[str] = []

    def match(token: str) -> None:
        answer = app.test_client().post(
            "/v1/quick-match", json={"ruleset": "twelve-gangsters", "seats": 3}, headers=bearer(token)
        )
        assert answer.status_code in (200, 201), answer.json
        games.append(answer.json["game"]["game_id"])

    threads = [threading.Thread(target=match, args=(t,)) for t in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(games.count(g) for g in set(games)) == [3, 3]
    for game_id in set(games):
        seats = api.game(Table(game_id))["seats"]
        assert api.game(Table(game_id))["status"] == "in_progress" and len({s["player"] for s in seats}) == 3
    assert {player_id(api, t) for t in tokens} == {s["player"] for g in set(games) for s in api.game(Table(g))["seats"]}


def test_a_player_who_leaves_loses_the_game_from_its_list_and_may_come_back(api: ApiClient) -> None:
    ann, bob = api.register("Ann"), api.register("Bob")
    table = create(api, ann, [{"player": "me"}, {"open": True}, {"open": True}])
    join(api, table, bob)
    assert api.http.post(f"/v1/games/{table.id}/leave", headers=bearer(bob)).status_code == 200
    assert api.http.get("/v1/players/me/games", headers=bearer(bob)).json == []
    assert_problem(api.http.get(f"/v1/games/{table.id}", headers=bearer(bob)), 401, "invalid_token")
    assert join(api, table, bob) == 1
    assert [g["game_id"] for g in api.http.get("/v1/players/me/games", headers=bearer(bob)).json] == [table.id]


def test_a_player_token_opens_its_seats_own_game_feed(api: ApiClient) -> None:
    ann = api.register("Ann")
    table = create(api, ann, [{"player": "me"}, {"name": "Bob"}, {"name": "Cat"}], options={"first_boss": 0})
    api.http.post(f"/v1/games/{table.id}/moves", json={"type": "play", "card": 7}, headers=bearer(ann))
    own = [e for e in api.events(table) if e["type"] == "twelve_gangsters.gangster_played"]
    assert "card" not in own[0]["payload"]  # a spectator does not see it
    mine = api.http.get(f"/v1/games/{table.id}/events", headers=bearer(ann)).json["events"]
    assert [e["payload"].get("card") for e in mine if e["type"] == "twelve_gangsters.gangster_played"] == [7]
    ticket = api.http.post(f"/v1/games/{table.id}/stream-tickets", headers=bearer(ann))
    assert ticket.status_code == 201 and ticket.json["seat"] == 0
    feed, seen = api.http.get(ticket.json["stream"]), ""
    assert feed.status_code == 200
    for chunk in feed.response:  # the backlog, as the seat sees it, up to its own move
        seen += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "gangster_played" in seen:
            break
    feed.close()
    assert '"card":7' in seen.split("event: twelve_gangsters.gangster_played", 1)[1].split("\n\n", 1)[0]


def test_a_rematch_hands_the_asker_no_token_of_a_seat_it_never_held(api: ApiClient) -> None:
    table = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}], options={"first_boss": 0})
    assert api.join(table, "Bob").json["seat"] == 1 and api.join(table, "Cat").json["seat"] == 2
    for card in range(1, 13):
        for seat in range(3):
            assert api.play(table, seat, card).status_code == 200
    new = api.http.post(f"/v1/games/{table.id}/rematch", headers=api.auth(table, 1)).json
    # Bob gets his own seat's token; Ann's and Cat's seats open again for them to take, or Bob would see
    # their hands in the new game.
    assert [t["seat"] for t in new["tokens"]] == [1]
    assert [s["open"] for s in new["seats"]] == [True, False, True]


def test_a_rematch_asked_by_a_seat_named_at_creation_hands_it_no_other_seats_token(api: ApiClient) -> None:
    table = api.create(seats=[{"name": "Ann"}, {"name": "Dan"}, {"open": True}], options={"first_boss": 0})
    assert api.join(table, "Cat").json["seat"] == 2
    for card in range(1, 13):
        for seat in range(3):
            assert api.play(table, seat, card).status_code == 200
    # Dan's token was handed to him by whoever created the game: it must not open Ann's seat in the rematch.
    new = api.http.post(f"/v1/games/{table.id}/rematch", headers=api.auth(table, 1)).json
    assert [t["seat"] for t in new["tokens"]] == [1]
    assert [s.get("name") for s in new["seats"]] == [None, "Dan", None]
    assert new["seats"][0]["open"] and new["seats"][2]["open"]
    assert audited(api, table)[-1] == "rematch_created"


def test_a_rematch_keeps_a_guest_s_seat_for_whoever_shows_its_old_token(
    api: ApiClient, drain: Callable[[], None]
) -> None:
    table = api.create(seats=[{"name": "Ann"}, {"open": True}, {"bot": "smart"}])
    assert api.join(table, "Bob").status_code == 201
    while api.game(table)["status"] != "finished":
        for seat in (0, 1):
            legal = api.game(table, seat)["you"]["legal_moves"]
            if legal:
                assert api.send(table, seat, legal[0]).status_code == 200
        drain()
    new = api.http.post(f"/v1/games/{table.id}/rematch", headers=api.auth(table, 0)).json
    assert new["seats"][1] == {"seat": 1, "open": True, "kept_for": 1}
    assert new["options"]["bots_after_s"] == 120
    rematch = Table(new["game_id"])
    assert_problem(api.join(rematch, "Eve"), 409, "seat_reserved")  # nobody else takes it
    bad = api.http.post(f"/v1/games/{rematch.id}/join", json={}, headers={"Authorization": "Bearer nope"})
    assert_problem(bad, 401, "invalid_token")
    own = api.http.post(f"/v1/games/{rematch.id}/join", json={}, headers=api.auth(table, 0))
    assert_problem(own, 409, "seat_reserved")  # Ann holds her seat already: the kept one is Bob's
    joined = api.http.post(f"/v1/games/{rematch.id}/join", json={}, headers=api.auth(table, 1))
    assert joined.status_code == 201 and joined.json["seat"] == 1 and joined.json["token"]
    assert joined.json["game"]["seats"][1]["name"] == "Bob" and joined.json["game"]["status"] == "in_progress"
    assert api.http.get(f"/v1/games/{rematch.id}/audit").json["ok"]
