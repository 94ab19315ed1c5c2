"""The guide's bot, on the Python client generated from the OpenAPI document, over real HTTP with the default
rate limits: it reads its seat's live feed (the generated client's own httpx client, a small SSE reader) and
never GETs the view: each `view` message newer than what it knows, and each move's answer, is the game as its
seat sees it. When its seat has legal moves it posts one (`make_move`) with an Idempotency-Key, and `If-Match`
only where its own awaited decision is turn-based (`simultaneous: false`). A 409 `game_moved_on` or a 412
`version_mismatch` it lets be: the next `view` brings the game that moved on. Against the house's bots, played
by a real worker, it plays each ruleset to its tally at full speed, resuming its feed with Last-Event-ID after
a drop: no 429, and about one request per move."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import httpx
import pytest
from flask import Flask
from werkzeug.serving import make_server

from games.registry import RULESETS
from games.schema import prefix
from service.application.services import Services
from service.config import (
    DEFAULT_ADDRESS_RATE_LIMIT,
    DEFAULT_OPEN_RATE_LIMIT,
    DEFAULT_RATE_LIMIT,
    DEFAULT_TOKEN_RATE_LIMIT,
    Config,
)
from service.http.app import create_app
from service.ops.redis_server import free_port
from tests.generated_client import sub

EXPECTED = {409: "game_moved_on", 412: "version_mismatch"}
"""What the guide says a move may meet when the game moves first: the feed brings what it moved to."""
RETRIES = 3
"""Tries of one move (one Idempotency-Key) when the connection fails."""
GAMES: dict[str, list[dict[str, str]]] = {
    "mobsters": [{"bot": "smart"}],
    "cash-n-guns": [{"bot": "random"}, {"bot": "smart"}, {"bot": "random"}],
    "twelve-gangsters": [{"bot": "random"}, {"bot": "smart"}],
}
"""The house's seats beside the bot's (seat 0), by ruleset."""
DROP_AT = 20
"""The feed's message after which the bot drops its connection, once, and resumes with Last-Event-ID."""
GAME_ID = re.compile(r"^/v1/games/[^/]+")


@pytest.fixture
def default_limits(config: Config) -> Config:
    """The service's own rate limits, as deployed: the bot must stay within them."""
    return dataclasses.replace(
        config,
        rate_limit=DEFAULT_RATE_LIMIT,
        rate_limit_token=DEFAULT_TOKEN_RATE_LIMIT,
        rate_limit_address=DEFAULT_ADDRESS_RATE_LIMIT,
        rate_limit_open=DEFAULT_OPEN_RATE_LIMIT,
    )


@pytest.fixture
def live_url(default_limits: Config, services: Services) -> Iterator[str]:
    app: Flask = create_app(default_limits, services, TESTING=True)
    server = make_server("127.0.0.1", free_port(), app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def route(request: httpx.Request) -> str:
    """The request's method and path, its game id left out: `POST /v1/games/{id}/moves`."""
    return f"{request.method} {GAME_ID.sub('/v1/games/{id}', request.url.path)}"


class FeedBot:
    """The guide's loop: the feed for every view, a move's answer for the view after it, nothing else."""

    def __init__(self, package: ModuleType, url: str, ruleset: str, game_id: str, token: str, seed: str) -> None:
        self.package, self.game_id, self.rng = package, game_id, random.Random(seed)
        self.game_type = getattr(sub(package, "models"), f"{prefix(RULESETS[ruleset])}Game")
        self.make_move = sub(package, "api.games.make_move")
        self.requests: Counter[str] = Counter()
        self.statuses: Counter[tuple[str, int]] = Counter()
        self.refused: Counter[tuple[int, str]] = Counter()
        self.known = 0
        self.moves = 0
        self.unguarded = 0
        self.misnumbered = 0
        self.last: str | None = None
        self.heard = 0
        self.finished: dict[str, Any] | None = None
        self.tallied = False
        self.client = package.AuthenticatedClient(
            base_url=url,
            token=token,
            timeout=httpx.Timeout(10.0, read=60.0),
            httpx_args={"event_hooks": {"request": [self.sent], "response": [self.answered]}},
        )

    def sent(self, request: httpx.Request) -> None:
        self.requests[route(request)] += 1

    def answered(self, response: httpx.Response) -> None:
        self.statuses[(route(response.request), response.status_code)] += 1

    def feed(self) -> Iterator[tuple[str, str, str | None]]:
        """The seat's feed as (event, data, id), resumed with Last-Event-ID after a drop, until it ends after the tally
        or answers 204."""
        while not self.tallied:
            headers = {"Last-Event-ID": self.last} if self.last else {}
            path = f"/v1/games/{self.game_id}/events/stream"
            try:
                with self.client.get_httpx_client().stream("GET", path, headers=headers) as answer:
                    if answer.status_code == 204:
                        return
                    assert answer.status_code == 200, answer.read()
                    event, data = "message", []
                    for line in answer.iter_lines():
                        if line.startswith(":"):
                            continue  # a keep-alive comment
                        if line:
                            name, _, value = line.partition(":")
                            value = value.removeprefix(" ")
                            if name == "id":
                                self.last = value
                            elif name == "event":
                                event = value
                            elif name == "data":
                                data.append(value)
                            continue
                        if data:
                            yield event, "\n".join(data), self.last
                            self.heard += 1
                            if self.heard == DROP_AT:
                                break  # the connection drops mid-game, once: the guide's bot resumes
                        event, data = "message", []
            except (httpx.TransportError, httpx.DecodingError):
                continue

    def play(self) -> None:
        for event, data, last in self.feed():
            if event == "view":
                game = self.game_type.from_dict(json.loads(data))
                if str(game.version) != last:
                    self.misnumbered += 1
                self.consider(game)
            elif event == "game_finished":
                self.finished = json.loads(data)
            elif event == "game_tallied":
                self.tallied = True

    def consider(self, game: Any) -> None:
        """Act on a view newer than any seen, and on each answer's view after it while the seat has moves."""
        while game is not None and game.version > self.known:
            self.known = game.version
            you = game.you if not isinstance(game.you, type(self.package.types.UNSET)) else None
            if you is None or not you.legal_moves:
                return
            game = self.move(game, you.seat, self.rng.choice(you.legal_moves))

    def move(self, game: Any, seat: int, body: Any) -> Any:
        """POST one move; the mover's view after it on 200, None when the game moved first."""
        mine = [a for a in game.awaiting if a.seat == seat]
        if not mine:
            self.unguarded += 1  # legal moves without an awaited decision: nothing says whether to guard it
        if_match = f'"{game.version}"' if mine and not mine[0].simultaneous else self.package.types.UNSET
        key = uuid.uuid4().hex
        for attempt in range(RETRIES):
            try:
                answer = self.make_move.sync_detailed(
                    self.game_id, client=self.client, body=body, idempotency_key=key, if_match=if_match
                )
                break
            except httpx.TransportError:
                if attempt == RETRIES - 1:
                    raise
        if answer.status_code == 200:
            self.moves += 1
            return answer.parsed.game
        self.refused[(int(answer.status_code), str(getattr(answer.parsed, "code", answer.content[:80])))] += 1
        return None


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_the_guides_bot_plays_from_its_feed_alone_within_the_default_limits(
    ruleset: str, client_package: ModuleType, live_url: str, start_worker: Callable[[], Any]
) -> None:
    start_worker()
    models = sub(client_package, "models")
    seats = [models.NamedSeatSpec(name="Feed bot"), *(models.BotSeatSpec(bot=s["bot"]) for s in GAMES[ruleset])]
    body = getattr(models, f"{prefix(RULESETS[ruleset])}CreateGame")(ruleset=ruleset, seats=seats)
    anyone = client_package.Client(base_url=live_url, timeout=httpx.Timeout(10.0))
    created = sub(client_package, "api.games.create_game").sync(client=anyone, body=body)
    [seat] = created.tokens
    bot = FeedBot(client_package, live_url, ruleset, created.game_id, seat.token, ruleset)

    bot.play()

    sent = sum(bot.requests.values())
    print(
        f"\n{ruleset}: {bot.moves} moves, {sent} requests ({sent / max(bot.moves, 1):.3f} per move): "
        f"{dict(bot.requests)}; statuses {dict(bot.statuses)}; refused {dict(bot.refused)}"
    )
    assert not [s for (_, s) in bot.statuses if s == 429], bot.statuses
    assert set(bot.requests) <= {"GET /v1/games/{id}/events/stream", "POST /v1/games/{id}/moves"}, bot.requests
    moves = {status for (where, status) in bot.statuses if where == "POST /v1/games/{id}/moves"}
    assert moves <= {200, 409, 412}, bot.statuses
    assert all(EXPECTED[status] == code for (status, code) in bot.refused), bot.refused
    assert bot.unguarded == 0
    assert bot.misnumbered == 0  # a view's id is its version
    assert bot.tallied and bot.finished is not None
    result = sub(client_package, "api.games.get_result").sync(created.game_id, client=anyone)
    assert isinstance(result, models.GameResult), result
    assert result.tallied and len(result.scores) == len(seats)
    assert result.seats[seat.seat].name == "Feed bot"
    assert result.winners == bot.finished["result"]["winners"]
    assert bot.moves > 0 and sent / bot.moves <= 2
    assert bot.requests["GET /v1/games/{id}/events/stream"] == 2  # opened, dropped once, resumed
    headers = {"Authorization": f"Bearer {seat.token}", "Last-Event-ID": str(bot.last)}
    with httpx.Client(base_url=live_url, headers=headers) as again:  # resumed after the end: nothing left
        assert again.get(f"/v1/games/{created.game_id}/events/stream").status_code == 204
