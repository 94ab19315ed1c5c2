"""Answer examples the OpenAPI document shows, by operation, status and content type.

Those of games come from short games of 12 Gangsters that the rules play in memory and that the service's
own code seals, saves and shows (service/application/play.py, service/application/queries.py,
service/http/live.py): each view, page of the log, live feed message, result and audit is what the service would
answer. Their ids, tokens, command ids, nonces and times are fixed, so `make spec` writes the same document every
time, and their hash chain holds (the audit says so). The small bodies of players, tickets and health checks are
written out.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import random
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

import msgspec

from events.repository import Game, seal
from games import lifecycle
from games import table as tables
from games.base import Event
from games.bots import random_bot
from games.commands import AbortGame, Command, CreateGame, JoinGame, LeaveGame, MakeMove, ResignGame, TallyGame
from games.registry import RULESETS
from projections.players import notices
from projections.views import SPECTATOR_FIELD
from service.application import offered, play, queries
from service.application.play import Saved
from service.application.services import Services
from service.http.live import Feed, Messages
from service.observability import metrics

JSON = "application/json"
RULESET = RULESETS["twelve-gangsters"]
GAME_ID = "5f0c2a9e8b7d6c41"
WAITING_ID = "9b1e4d7a2c3f8e60"
MATCHED_ID = "e2d4c6b8a0f19375"
SEED = 20261201
START = datetime(2026, 12, 1, 7, 42, 20, 123000, tzinfo=UTC)
PLAYER_ID = "3c9f0e1d2b4a5867"


def fixed(*words: object, length: int = 22) -> str:
    """A token-like string made from `words`: the same every time, unlike the service's random ones."""
    digest = hashlib.sha256(" ".join(map(str, words)).encode()).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")[:length]


SEAT_TOKENS = {0: fixed("seat", 0, length=43), 1: fixed("seat", 1, length=43)}
PLAYER_TOKEN = f"{PLAYER_ID}.a1b2c3d4.{fixed('player', length=43)}"


class ExampleGame:
    """A game decided by the rules and saved as the service saves it, with fixed ids, nonces and times (each
    decision a second after the one before)."""

    def __init__(self, services: Services, game_id: str) -> None:
        self.services, self.game_id = services, game_id
        self.game: Game | None = None

    @property
    def version(self) -> int:
        return self.game.version if self.game else 0

    @property
    def table(self) -> tables.Table[Any]:
        assert self.game is not None
        return self.game.table

    def now(self) -> str:
        return tables.utc_iso(START + timedelta(seconds=self.version))

    def decide(
        self, events: list[Event], command: Command, seat: int | None = None, handed: Mapping[int, str] | None = None
    ) -> Saved:
        nonces = (fixed(self.game_id, "nonce", v) for v in itertools.count(self.version + 1))
        command_id = hashlib.sha256(f"{self.game_id} command {self.version}".encode()).hexdigest()[:32]
        decision = seal(RULESET, self.game, events, command, seat, self.now(), command_id, nonces.__next__)
        saved = play.save(self.services, decision, handed)
        self.game = saved.game
        return saved

    def move(self, seat: int) -> Saved:
        """A move of the seat, as its random bot would choose it."""
        table = self.table
        by = "bot" if tables.house_plays(table, seat) else None
        view = tables.plain_view(RULESET, table, seat, house=by is not None)
        move = RULESET.parse_move(random_bot(view, random.Random(f"{SEED}:{table.version}:{seat}")))
        events = tables.play(RULESET, table, seat, move, by)
        return self.decide(events, MakeMove(seat=seat, move=msgspec.to_builtins(move), by=by), seat)


def decoded(document: bytes) -> Any:
    return msgspec.json.decode(document)


def json(value: Any) -> str:
    return msgspec.json.encode(value).decode()


@cache
def played() -> dict[str, Any]:
    """The answers of the example games, by name."""
    services = Services.in_memory()
    found: dict[str, Any] = {}

    # Ann creates a game with a seat left open and a bot; Bob joins and it starts; Ann moves, then resigns.
    game = ExampleGame(services, GAME_ID)
    seats = [tables.Seat(name="Ann"), tables.Seat(), tables.Seat(bot="smart")]
    events = tables.create(RULESET, GAME_ID, seats, {"first_boss": 0}, SEED, "", game.now())
    created = game.decide(events, CreateGame(), handed={0: SEAT_TOKENS[0]})
    found["created"] = {**decoded(created.views[SPECTATOR_FIELD]), "tokens": [{"seat": 0, "token": SEAT_TOKENS[0]}]}
    joined = game.decide(tables.join(RULESET, game.table, "Bob"), JoinGame(player="Bob"), handed={1: SEAT_TOKENS[1]})
    found["joined"] = {"seat": 1, "token": SEAT_TOKENS[1], "game": decoded(joined.views["1"])}
    found["view"] = decoded(joined.views["0"])
    moved = game.move(0)
    found["moved"] = decoded(play.move_answer(moved.decision, 0, moved.views["0"]))
    assert game.game is not None
    found["page"] = queries.event_page(services, game.game, 0, 0, 3)
    found["line"] = decoded(next(queries.export(services, game.game, None, game.version - 1)))
    resigned = game.decide(lifecycle.resign(game.table, 0), ResignGame(seat=0), 0)
    found["resigned"] = decoded(resigned.views[SPECTATOR_FIELD])
    while game.table.status is not tables.Status.FINISHED:
        game.move(min(RULESET.awaiting(game.table.rules)))
    ended_at = game.version
    game.decide(tables.tally(RULESET, game.table), TallyGame())
    found["result"] = decoded(queries.result(services, GAME_ID))
    audit = queries.audit(services, GAME_ID).as_dict()
    assert audit["ok"], audit["problems"]
    found["audit"] = audit
    found["state"] = queries.state_at(services, game.game, 4, 0)
    found["feed"] = "".join(Feed(services.repository.store, game.game, None, ended_at - 1).follow())

    # Cat opens a game for four; Pat, a registered player, joins and leaves again; Cat calls it off.
    waiting = ExampleGame(services, WAITING_ID)
    seats = [tables.Seat(name="Cat"), tables.Seat(), tables.Seat(), tables.Seat(bot="random")]
    events = tables.create(RULESET, WAITING_ID, seats, {}, SEED + 1, "", waiting.now())
    waiting.decide(events, CreateGame(), handed={0: fixed("cat")})
    before, at = waiting.table, waiting.now()
    events = tables.join(RULESET, before, "Pat", PLAYER_ID)
    waiting.decide(events, JoinGame(player="Pat", player_id=PLAYER_ID))
    [(_, _, seated)] = notices(RULESET, before, waiting.table)
    found["notice"] = {**seated, "at": at}  # as projections/players.py keeps it
    found["lobby_entry"] = lobby_entry(waiting)
    left = waiting.decide(lifecycle.leave(waiting.table, 1), LeaveGame(seat=1), 1)
    found["left"] = decoded(left.views[SPECTATOR_FIELD])
    aborted = waiting.decide(lifecycle.abort(waiting.table, 0, None), AbortGame(seat=0), 0)
    found["aborted"] = decoded(aborted.views[SPECTATOR_FIELD])

    # Pat's quick match finds no game with room, so it opens one (service/application/seating.py).
    matched = ExampleGame(services, MATCHED_ID)
    seats = [tables.Seat(name="Pat", player=PLAYER_ID), tables.Seat(), tables.Seat()]
    matched.decide(tables.create(RULESET, MATCHED_ID, seats, {}, SEED + 2, "", matched.now(), PLAYER_ID), CreateGame())
    found["matched"] = lobby_entry(matched)
    return found


def lobby_entry(game: ExampleGame) -> Any:
    return decoded(msgspec.json.encode(queries.lobby_entry(game.table)))


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
    player = {
        "player_id": PLAYER_ID,
        "name": "Pat",
        "created_at": "2026-11-30T18:05:12.480Z",
        "ratings": {"twelve-gangsters": rating},
        "recent_games": [played()["matched"], played()["lobby_entry"]],
    }
    token = {"token_id": "a1b2c3d4", "token": PLAYER_TOKEN}
    registered = {k: player[k] for k in ("player_id", "name", "created_at")} | token
    seated = played()["notice"]
    entry_id = f"{int(datetime.fromisoformat(seated['at']).timestamp() * 1000)}-0"  # as Redis numbers it
    notices = Messages().block(entry_id, seated["type"], json(seated))  # as service/http/player_live.py writes it
    return {
        "registerPlayer": {201: {JSON: registered}},
        "getPlayer": {200: {JSON: player}},
        "getMe": {200: {JSON: {**player, "tokens": [{"token_id": "a1b2c3d4", "issued_at": player["created_at"]}]}}},
        "issuePlayerToken": {201: {JSON: {"token_id": "e5f60718", "token": f"{PLAYER_ID}.e5f60718.{fixed('next')}"}}},
        "listMyGames": {200: {JSON: [played()["matched"], played()["lobby_entry"]]}},
        "createPlayerStreamTicket": {201: {JSON: ticket("/v1/players/me/events/stream")}},
        "streamMyEvents": {200: {"text/event-stream": notices}},
        "quickMatch": {
            200: {JSON: {"seat": 1, "created": False, "game": played()["lobby_entry"]}},
            201: {JSON: {"seat": 0, "created": True, "game": played()["matched"]}},
        },
    }


@cache
def answers() -> dict[str, dict[int, dict[str, Any]]]:
    """Each operation's example answers: by operationId, status and content type."""
    game = played()
    stream = f"/v1/games/{GAME_ID}/events/stream"
    leader = {"rank": 1, "player": PLAYER_ID, "name": "Pat", "rating": 3.42, "mu": 27.9, "sigma": 8.16, "games": 3}
    bot = {"rank": 2, "bot": "smart", "name": "bot:smart", "rating": 1.05, "mu": 25.6, "sigma": 8.18, "games": 9}
    board = {"ruleset": RULESET.id, "players": [{**leader, "wins": 2}, {**bot, "wins": 3}]}
    return {
        "listGames": {200: {JSON: [game["lobby_entry"]]}},
        "createGame": {201: {JSON: game["created"]}},
        "getGame": {200: {JSON: game["view"]}},
        "joinGame": {201: {JSON: game["joined"]}},
        "makeMove": {200: {JSON: game["moved"]}},
        "getResult": {200: {JSON: game["result"]}},
        "leaveGame": {200: {JSON: game["left"]}},
        "resignGame": {200: {JSON: game["resigned"]}},
        "abortGame": {200: {JSON: game["aborted"]}},
        "rematchGame": {201: {JSON: game["created"]}},
        "listEvents": {200: {JSON: game["page"], "application/x-ndjson": game["line"]}},
        "streamEvents": {200: {"text/event-stream": game["feed"]}},
        "createStreamTicket": {201: {JSON: ticket(stream, seat=0)}},
        "getStateAtVersion": {200: {JSON: game["state"]}},
        "auditGame": {200: {JSON: game["audit"]}},
        "listRulesets": {200: {JSON: [offered.describe(RULESET)]}},
        "getCardCatalogue": {200: {JSON: offered.catalogue(RULESET.id)}},
        "getLeaderboard": {200: {JSON: board}},
        "getHealth": {200: {JSON: {"status": "ok", "redis": "ok"}}},
        "getLiveness": {200: {JSON: {"status": "ok"}}},
        "getReadiness": {200: {JSON: {"status": "ok", "redis": "ok", "queue": "ok"}}},
        "getMetrics": {200: {metrics.CONTENT_TYPE: METRICS}},
        **player_answers(),
    }
