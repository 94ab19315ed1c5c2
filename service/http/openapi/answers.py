"""Answer examples the OpenAPI document shows, by operation, status and content type.

A new game, a view, a move, a page of the log and a result of every ruleset come from the example games of
played.py. The others of games and players come from short games of 12 Gangsters played here the same way, through
the service's own use cases on the whole service graph in memory (`Services.in_memory`), with entropy a seed
reproduces and a clock that ticks a second a call: each join, leave, resignation, state of the past, live feed
message and audit is what the service answers, and `make spec` writes the same document every time, its hash
chains whole (the audit says so). The small bodies of tickets, ratings and health checks are written out.
"""

from __future__ import annotations

import base64
import hashlib
import random
from datetime import datetime
from functools import cache
from typing import Any

import msgspec

from events.repository import Game
from games import table as tables
from games.bots import random_bot
from games.registry import RULESETS
from projections.notices import notices
from service.application import accounts, offered, play, queries, review, seating
from service.application.callers import Caller
from service.application.house import tally_game
from service.application.ports import SeededEntropy
from service.application.services import Services
from service.http.live import Feed, Messages
from service.http.openapi.played import Ticking, examples
from service.observability import metrics

JSON = "application/json"
RULESET = RULESETS["twelve-gangsters"]
GAME_ID = "5f0c2a9e8b7d6c41"
WAITING_ID = "9b1e4d7a2c3f8e60"
AUTO_PASS_ID = "4a8d2f6c1e3b7905"
SEED = 20261201


def fixed(*words: object, length: int = 22) -> str:
    """A token-like string made from `words`: the same every time, unlike the service's random ones."""
    digest = hashlib.sha256(" ".join(map(str, words)).encode()).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")[:length]


def decoded(document: bytes) -> Any:
    return msgspec.json.decode(document)


def json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


def move(services: Services, game: Game, seat: int, token: str | None = None) -> play.Moved:
    """A move of the seat, as its random bot would choose it: by its token's holder, or by the house."""
    table = game.table
    caller = Caller(token=token) if token else Caller(seat=seat, by="bot")
    view = tables.plain_view(RULESET, table, seat, house=token is None)
    body = random_bot(view, random.Random(f"{SEED}:{table.version}:{seat}"))
    return play.make_move(services, game.game_id, caller, body)


@cache
def played() -> dict[str, Any]:
    """The answers of the example games, by name."""
    services = Services.in_memory(clock=Ticking(), entropy=SeededEntropy(SEED))
    found: dict[str, Any] = {}
    pat, pat_token_id, pat_token = accounts.register_player(services, "Pat")
    found["registered"] = {"player_id": pat.player_id, "name": pat.name, "created_at": pat.created_at}
    found["registered"] |= {"token_id": pat_token_id, "token": pat_token}
    token_id, token = accounts.issue_token(services, pat)
    found["issued"] = {"token_id": token_id, "token": token}
    pat = accounts.authenticate(services, pat_token)
    found["tokens"] = [{"token_id": i, "issued_at": t.issued_at} for i, t in sorted(pat.tokens.items())]

    # Ann creates a game with a seat left open and a bot; Bob joins and it starts; Ann moves, then resigns.
    seats = [tables.Seat(name="Ann"), tables.Seat(), tables.Seat(bot="smart")]
    created = play.new_game(services, RULESET.id, seats, {"first_boss": 0}, SEED, game_id=GAME_ID)
    ann = created.handed[0]
    found["created"] = {**decoded(created.view(None)), "tokens": [{"seat": 0, "token": ann}]}
    joined, _ = play.join_game(services, GAME_ID, "Bob", accepts_public_randomness=True)
    bob = joined.handed[1]
    found["joined"] = {"seat": 1, "token": bob, "game": decoded(joined.view(1))}
    move(services, joined.game, 0, ann)
    game = services.repository.get(GAME_ID)
    found["line"] = decoded(next(queries.export(services, game, None, game.version - 1)))
    found["resigned"] = decoded(seating.resign_game(services, GAME_ID, ann).view(None))
    while (game := services.repository.get(GAME_ID)).table.status is not tables.Status.FINISHED:
        seat = min(RULESET.awaiting(game.table.rules))
        move(services, game, seat, None if tables.house_plays(game.table, seat) else bob)
    ended_at = game.version
    tally_game(services, GAME_ID)
    audit = queries.audit(services, GAME_ID).as_dict()
    assert audit["ok"], audit["problems"]
    found["audit"] = audit
    game = services.repository.get(GAME_ID)
    found["state"] = queries.state_at(services, game, 4, 0)
    found["feed"] = "".join(Feed(services.repository, game, None, ended_at - 1).follow())
    review.review_game(services, GAME_ID)
    found["review"] = decoded(review.review(services, GAME_ID) or b"null")

    # Cat opens a game for four; Pat, a registered player, joins and leaves again; Cat calls it off.
    seats = [tables.Seat(name="Cat"), tables.Seat(), tables.Seat(), tables.Seat(bot="random")]
    cat = play.new_game(services, RULESET.id, seats, {}, SEED + 1, game_id=WAITING_ID).handed[0]
    before = services.repository.get(WAITING_ID).table
    pat_joined, _ = play.join_game(services, WAITING_ID, None, pat, accepts_public_randomness=True)
    [(_, _, seated)] = notices(RULESET, before, pat_joined.game.table)
    at = pat_joined.decision.envelopes[-1].at if pat_joined.decision else ""
    found["notice"] = msgspec.to_builtins(msgspec.structs.replace(seated, at=at))
    found["lobby_entry"] = lobby_entry(pat_joined.game.table)
    found["left"] = decoded(seating.leave_game(services, WAITING_ID, pat_token).view(None))
    found["aborted"] = decoded(seating.abort_game(services, WAITING_ID, cat).view(None))

    # Pat's quick match finds no game with room, so it opens one; Pat starts it with the house's bots at once.
    matched, _, _ = seating.quick_match(services, RULESET.id, 3, pat)
    found["matched"] = lobby_entry(matched.game.table)
    found["started_with_bots"] = decoded(seating.start_with_bots(services, matched.game.game_id, pat_token).view(None))

    # Kim and Lee play Mobsters; Kim asks the house to pass her Hit and Crime phases for her.
    mobsters = [tables.Seat(name="Kim"), tables.Seat(name="Lee")]
    kim = play.new_game(services, "mobsters", mobsters, {}, SEED + 2, game_id=AUTO_PASS_ID).handed[0]
    found["auto_pass"] = decoded(seating.set_auto_pass(services, AUTO_PASS_ID, kim, ["hit", "crime"]).view(None))
    return found


def lobby_entry(table: tables.Table[Any]) -> Any:
    return decoded(msgspec.json.encode(queries.lobby_entry(table)))


METRICS = """\
# HELP syndicate_http_requests_total HTTP requests answered, by route (its template), method and status
# TYPE syndicate_http_requests_total counter
syndicate_http_requests_total{method="GET",route="/v1/games/<game_id>",status="200"} 1208.0
syndicate_http_requests_total{method="POST",route="/v1/games/<game_id>/moves",status="200"} 311.0
# HELP syndicate_live_feeds_open Live feeds (SSE) open now
# TYPE syndicate_live_feeds_open gauge
syndicate_live_feeds_open 4.0
"""


def ticket(stream: str, **seat: int) -> dict[str, Any]:
    token = fixed("ticket", stream, length=43)
    return {"ticket": token, **seat, "expires_in_s": 60, "stream": f"{stream}?ticket={token}"}


def player_answers() -> dict[str, Any]:
    rating = {"rating": 3.42, "mu": 27.9, "sigma": 8.16, "games": 3, "wins": 2}
    registered = played()["registered"]
    player = {
        **{k: registered[k] for k in ("player_id", "name", "created_at")},
        "ratings": {"twelve-gangsters": rating},
        "recent_games": [played()["matched"], played()["lobby_entry"]],
    }
    seated = played()["notice"]
    entry_id = f"{int(datetime.fromisoformat(seated['at']).timestamp() * 1000)}-0"  # as Redis numbers it
    notices = Messages().block(entry_id, seated["type"], json(seated))  # as service/http/player_live.py writes it
    return {
        "registerPlayer": {201: {JSON: registered}},
        "getPlayer": {200: {JSON: player}},
        "getMe": {200: {JSON: {**player, "tokens": played()["tokens"]}}},
        "issuePlayerToken": {201: {JSON: played()["issued"]}},
        "listMyGames": {200: {JSON: [played()["matched"], played()["lobby_entry"]]}},
        "createPlayerStreamTicket": {201: {JSON: ticket("/v1/players/me/events/stream")}},
        "streamMyEvents": {200: {"text/event-stream": notices}},
        "quickMatch": {
            200: {JSON: {"seat": 1, "created": False, "game": played()["lobby_entry"]}},
            201: {JSON: {"seat": 0, "created": True, "game": played()["matched"]}},
        },
    }


class Several(dict[str, Any]):
    """Examples of one answer by name, each `{"summary", "value"}`: shown as the answer's `examples`."""


def by_ruleset(shown: str, summary: str) -> Several:
    """What each ruleset's example game shows (service/http/openapi/played.py) as `shown`."""
    games = examples().games
    return Several(
        {
            ruleset_id: {"summary": summary.format(name=RULESETS[ruleset_id].name), "value": getattr(game, shown)}
            for ruleset_id, game in games.items()
        }
    )


@cache
def answers() -> dict[str, dict[int, dict[str, Any]]]:
    """Each operation's example answers: by operationId, status and content type."""
    game = played()
    stream = f"/v1/games/{GAME_ID}/events/stream"
    leader = {
        "rank": 1,
        "player": game["registered"]["player_id"],
        "name": "Pat",
        "rating": 3.42,
        "mu": 27.9,
        "sigma": 8.16,
        "games": 3,
    }
    bot: dict[str, Any] = {
        "rank": 2,
        "bot": "smart",
        "name": "bot:smart",
        "rating": 1.05,
        "mu": 25.6,
        "sigma": 8.18,
        "games": 9,
    }
    board = {"ruleset": RULESET.id, "players": [{**leader, "wins": 2}, {**bot, "wins": 3}]}
    return {
        "listGames": {200: {JSON: [game["lobby_entry"]]}},
        "createGame": {201: {JSON: by_ruleset("created", "{name}: a new game, a seat left open for anyone to join")}},
        "getGame": {200: {JSON: by_ruleset("view", "{name}: seat 0's view, its move to make")}},
        "joinGame": {201: {JSON: game["joined"]}},
        "makeMove": {200: {JSON: by_ruleset("moved", "{name}: seat 0's move, its events and its view after it")}},
        "getResult": {200: {JSON: by_ruleset("result", "{name}: a game's result")}},
        "leaveGame": {200: {JSON: game["left"]}},
        "resignGame": {200: {JSON: game["resigned"]}},
        "setAutoPass": {200: {JSON: game["auto_pass"]}},
        "abortGame": {200: {JSON: game["aborted"]}},
        "startWithBots": {200: {JSON: game["started_with_bots"]}},
        "rematchGame": {201: {JSON: game["created"]}},
        "listEvents": {
            200: {JSON: by_ruleset("page", "{name}: a game's first events"), "application/x-ndjson": game["line"]}
        },
        "streamEvents": {200: {"text/event-stream": game["feed"]}},
        "createStreamTicket": {201: {JSON: ticket(stream, seat=0)}},
        "getStateAtVersion": {200: {JSON: game["state"]}},
        "auditGame": {200: {JSON: game["audit"]}},
        "getReview": {
            200: {JSON: game["review"]},
            202: {JSON: {"game_id": GAME_ID, "status": "pending", "retry_after_s": review.RETRY_AFTER_S}},
        },
        "listRulesets": {200: {JSON: [offered.describe(RULESET, {"smart": offered.rating_only({**bot, "wins": 3})})]}},
        "getCardCatalogue": {200: {JSON: offered.catalogue(RULESET.id)}},
        "getLeaderboard": {200: {JSON: board}},
        "getHealth": {200: {JSON: {"status": "ok", "redis": "ok"}}},
        "getLiveness": {200: {JSON: {"status": "ok"}}},
        "getReadiness": {200: {JSON: {"status": "ok", "redis": "ok", "queue": "ok"}}},
        "getMetrics": {200: {metrics.CONTENT_TYPE: METRICS}},
        **player_answers(),
    }
