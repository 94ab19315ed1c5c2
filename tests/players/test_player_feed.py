"""A player's own live feed: one connection for all its games, resumable, opened by token or ticket."""

from __future__ import annotations

import json
from collections.abc import Callable

from werkzeug.test import TestResponse

from games.table import Status
from projections.notice_types import SeatedNotice, StartedNotice
from service.http.live import RETRY_MS
from service.observability import metrics
from tests.client import ApiClient, assert_problem
from tests.players.helpers import bearer, create, join, play_first_legal


def read(response: TestResponse, count: int) -> list[dict[str, str]]:
    """The first `count` messages of a feed (comments and the `retry:` line left out); then it is closed."""
    found: list[dict[str, str]] = []
    buffer = ""
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line and line[0] != ":")
            if "event" in fields:
                found.append(fields)
        if len(found) >= count:
            break
    response.close()
    return found[:count]


def seated(game_id: str) -> SeatedNotice:
    return SeatedNotice(game_id=game_id, ruleset="twelve-gangsters", version=2, seat=0, status=Status.WAITING)


def started(game_id: str) -> StartedNotice:
    return StartedNotice(game_id=game_id, ruleset="twelve-gangsters", version=3, seat=0)


def test_the_feed_tells_a_player_of_each_of_its_games_and_resumes(api: ApiClient, drain: Callable[[], None]) -> None:
    ann, bob = api.register("Ann"), api.register("Bob")
    first = create(api, ann, [{"player": "me"}, {"open": True}, {"bot": "smart"}], options={"move_deadline_s": 60})
    join(api, first, bob)
    second = create(api, ann, [{"player": "me"}, {"open": True}, {"open": True}])
    feed = read(api.http.get("/v1/players/me/events/stream?after=0", headers=bearer(ann)), 4)
    assert [(m["event"], json.loads(m["data"])["game_id"]) for m in feed] == [
        ("seated", first.id),
        ("started", first.id),
        ("decision_due", first.id),
        ("seated", second.id),
    ]
    due = json.loads(feed[2]["data"])
    assert due["seat"] == 0 and due["decision"] == "play" and due["deadline_at"].endswith("Z")
    # What the seat needs to act, on the notice: its moves at that version, and no If-Match needed.
    assert due["simultaneous"] is True and due["legal_moves"] == [{"type": "play", "card": c} for c in range(1, 13)]
    assert due["version"] == api.game(first, None)["version"]
    resumed = read(
        api.http.get("/v1/players/me/events/stream", headers={**bearer(ann), "Last-Event-ID": feed[1]["id"]}), 2
    )
    assert [m["id"] for m in resumed] == [feed[2]["id"], feed[3]["id"]]
    bobs = read(api.http.get("/v1/players/me/events/stream?after=0", headers=bearer(bob)), 3)
    assert [m["event"] for m in bobs] == ["seated", "started", "decision_due"]


def test_the_feed_tells_the_end_and_the_new_rating(api: ApiClient, drain: Callable[[], None]) -> None:
    ann = api.register("Ann")
    table = create(api, ann, [{"player": "me"}, {"bot": "random"}, {"bot": "smart"}])
    while api.game(table)["status"] != "finished":
        play_first_legal(api, table, ann)
        drain()
    drain()  # the tally
    ticket = api.http.post("/v1/players/me/stream-tickets", headers=bearer(ann)).json
    feed = read(api.http.get(ticket["stream"] + "&after=0"), 16)
    kinds = [m["event"] for m in feed]
    assert kinds[:2] == ["seated", "started"] and kinds[-2:] == ["finished", "rating_changed"]
    assert kinds.count("decision_due") == 12
    rating = json.loads(feed[-1]["data"])
    assert rating["ruleset"] == "twelve-gangsters" and rating["previous"] is None and rating["rating"]["games"] == 1
    assert_problem(api.http.get(ticket["stream"]), 401, "invalid_ticket")  # a ticket opens one feed


def test_a_feed_needs_a_player_and_a_well_formed_id(api: ApiClient) -> None:
    ann = api.register("Ann")
    assert_problem(api.http.get("/v1/players/me/events/stream"), 401, "invalid_token")
    bad = api.http.get("/v1/players/me/events/stream", headers={**bearer(ann), "Last-Event-ID": "12"})
    assert "Last-Event-ID" in assert_problem(bad, 422, "invalid_header")["detail"]
    bad = api.http.get("/v1/players/me/events/stream?after=12", headers=bearer(ann))
    detail = assert_problem(bad, 422, "invalid_request")["detail"]
    assert "after" in detail and "Last-Event-ID" not in detail
    ticket = api.http.post("/v1/players/me/stream-tickets", headers=bearer(ann)).json["ticket"]
    both = api.http.get(f"/v1/players/me/events/stream?ticket={ticket}", headers=bearer(ann))
    assert_problem(both, 422, "invalid_request")


def test_a_notice_told_twice_is_kept_once(api: ApiClient, redis_client) -> None:
    from projections.notices import sent_key
    from service.http import context

    projection = context.services_of(api.http.application).projections.feeds
    notice = ("p0", "g:1:seated", seated("g"))
    projection.tell([notice], "2026-12-01T00:00:00.000Z")
    projection.tell([notice, ("p0", "g:2:started", started("g"))], "2026-12-01T00:00:01.000Z")
    assert [n["type"] for _, n in [(i, json.loads(d)) for i, d in projection.feed("p0", "0", 0.1)]] == [
        "seated",
        "started",
    ]
    assert redis_client.zcard(sent_key("p0")) == 2


def test_a_players_feed_ends_when_the_server_stops(redis_client, monkeypatch) -> None:
    # A stopping gunicorn worker must not wait out a feed: the client resumes elsewhere with Last-Event-ID.
    from projections.notices import RedisNotices
    from service.http import live
    from service.http.player_live import PlayerFeed

    serving = iter([True, False])
    feed = PlayerFeed(RedisNotices(redis_client), "0123456789abcdef", "0", serving=lambda: next(serving, False))
    messages = list(feed.messages())
    assert messages == [live.OPEN]  # one look (nothing landed), then the end: no bare `retry:` block


def first_block(response: TestResponse) -> str:
    """The feed's first block, whatever it holds; then it is closed."""
    buffer = ""
    for chunk in response.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        if "\n\n" in buffer:
            break
    response.close()
    return buffer.split("\n\n", 1)[0]


def test_retry_rides_on_the_first_notice_never_alone(api: ApiClient) -> None:
    ann = api.register("Ann")
    create(api, ann, [{"player": "me"}, {"open": True}, {"open": True}])
    block = first_block(api.http.get("/v1/players/me/events/stream?after=0", headers=bearer(ann)))
    assert block.startswith(f"retry: {RETRY_MS}\nid: ") and "\nevent: seated\ndata: {" in block


def test_retry_waits_for_the_first_notice_when_a_keep_alive_comes_first(redis_client, monkeypatch) -> None:
    from projections.notices import RedisNotices
    from service.http import live
    from service.http.player_live import PlayerFeed

    monkeypatch.setattr(live, "KEEPALIVE_S", 0.2)
    projection = RedisNotices(redis_client)
    feed = PlayerFeed(projection, "p0", "0").messages()
    assert next(feed) == live.OPEN
    assert next(feed) == live.KEEP_ALIVE
    projection.tell([("p0", "g:1:seated", seated("g"))], "2026-12-01T00:00:00.000Z")
    assert next(feed).startswith(f"retry: {RETRY_MS}\nid: ")
    projection.tell([("p0", "g:2:started", started("g"))], "2026-12-01T00:00:01.000Z")
    assert next(feed).startswith("id: ")
    feed.close()


def test_a_players_feed_counts_among_the_live_feeds_while_it_is_open(api: ApiClient) -> None:
    ann = api.register("Ann")
    create(api, ann, [{"player": "me"}, {"open": True}, {"open": True}])
    open_before = metrics.LIVE_FEEDS._value.get()
    response = api.http.get("/v1/players/me/events/stream?after=0", headers=bearer(ann))
    chunks = iter(response.response)
    while "seated" not in next(chunks).decode():  # the feed is under way
        pass
    assert metrics.LIVE_FEEDS._value.get() == open_before + 1
    response.close()
    assert metrics.LIVE_FEEDS._value.get() == open_before


def test_one_players_feed_drives_a_bot_through_all_its_games_without_reading_a_view(
    api: ApiClient, drain: Callable[[], None]
) -> None:
    """The guide's loop for a bot that plays many games: each `decision_due` carries the seat's legal moves and
    the version, the bot POSTs one (with If-Match where the decision is not simultaneous) and goes on from each
    move's answer while it offers moves; a notice no newer than the last view it had of its game is skipped, and a
    409 `game_moved_on` or a 412 is a notice gone stale, and is let be."""
    from service.http import context

    ann = api.register("Ann")
    player_id = ann.split(".", 1)[0]
    games = [
        create(api, ann, [{"player": "me"}, {"bot": "random"}, {"bot": "smart"}]),
        create(api, ann, [{"player": "me"}, {"bot": "smart"}], ruleset="mobsters"),
    ]
    notices = context.services_of(api.http.application).projections.feeds
    after, ended, moves, stale = "0", set(), 0, 0
    known: dict[str, int] = {}

    def act(game_id: str, legal: list[dict], version: int, simultaneous: bool) -> None:
        nonlocal moves, stale
        while legal:
            headers = {**bearer(ann), **({} if simultaneous else {"If-Match": f'"{version}"'})}
            answer = api.http.post(f"/v1/games/{game_id}/moves", json=legal[0], headers=headers)
            if answer.status_code != 200:
                assert (answer.status_code, answer.json["code"]) in {(409, "game_moved_on"), (412, "version_mismatch")}
                stale += 1
                return
            moves += 1
            game = answer.json["game"]
            legal, version = game["you"]["legal_moves"], game["version"]
            known[game_id] = version
            own = [a for a in game["awaiting"] if a["seat"] == game["you"]["seat"]]
            simultaneous = bool(own) and own[0]["simultaneous"]

    for _ in range(5000):
        landed = notices.feed(player_id, after, 0.01)
        if not landed:
            drain()  # the house's turns
            continue
        for entry_id, data in landed:
            after, notice = entry_id, json.loads(data)
            if notice["type"] == "finished":
                ended.add(notice["game_id"])
            elif notice["type"] == "decision_due" and notice["version"] > known.get(notice["game_id"], 0):
                act(notice["game_id"], notice["legal_moves"], notice["version"], notice["simultaneous"])
        if len(ended) == len(games):
            break
    assert ended == {g.id for g in games}, "the feed alone did not carry the bot to the end of its games"
    assert moves > 12 and stale < moves
