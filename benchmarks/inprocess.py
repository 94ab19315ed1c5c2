"""The service in this process: the one module of benchmarks/ that reaches inside it.

Every in-process benchmark talks to a `Service` with four verbs that mirror the HTTP API and answer its JSON
shapes (`create`, `look`, `move`, and `tally`, which the worker's job does), plus the few internals measured
as such (`rebuild`, `load_snapshot`, `replay_log`). Two backends:

- `UseCases` (the default): `service.application.play` over the real event store and projections, the move path
  without Flask. This is what a redesign of the move path will change; adapt it here, and only here.
- `Wsgi`: the real app (`service.wsgi:app`) through Flask's test client, the whole HTTP request path in
  process. It uses nothing but the public API, so it keeps working whatever changes inside; pick it with
  `BENCH_INPROCESS=wsgi` (`tally` then runs `syndicate worker --burst`, the CLI).
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import subprocess
import sys
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec
import redis

from benchmarks.common import ADMISSION_S, GAMES_HELD, RATE_LIMIT
from service.config import every_rate_limit


@dataclass(frozen=True)
class Created:
    game_id: str
    tokens: dict[int, str]
    view: dict[str, Any]
    """The game as a spectator sees it (what `POST /v1/games` answers beside the tokens)."""


class Refused(Exception):
    """The service refused a request (any 4xx or 5xx, or the exception a use case raised)."""


class Service(Protocol):
    name: str
    rebuild_via: str

    def create(
        self, ruleset: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None, seed: int | None = None
    ) -> Created: ...

    def look(self, game_id: str, token: str | None = None) -> dict[str, Any]: ...

    def move(self, game_id: str, token: str, body: dict[str, Any]) -> dict[str, Any]: ...

    def tally(self, game_ids: list[str]) -> None: ...

    def rebuild(self) -> int: ...


class UseCases:
    """The use cases of `service.application.play` on the real store and projections; no scheduler (no RQ jobs)."""

    name = "use cases (service.application.play, no scheduler: no RQ jobs)"
    rebuild_via = "in process: rebuild_read_models(bootstrap(client=...))"

    def __init__(self, redis_url: str) -> None:
        from service.application.house import House
        from service.bootstrap import bootstrap

        self.client = redis.Redis.from_url(redis_url)
        everything = bootstrap(client=self.client)
        # The lobby and leaderboard are kept, as in the service; no job is queued.
        self.services = dataclasses.replace(everything, followers=(everything.projections,))
        self.house = House(self.services)

    def create(
        self, ruleset: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None, seed: int | None = None
    ) -> Created:
        from service.application import play

        try:
            created = play.create_game(self.services, ruleset, seats, options or {}, seed)
        except Exception as error:
            raise Refused(repr(error)) from error
        return Created(created.game.game_id, dict(created.handed), msgspec.json.decode(created.view(None)))

    def look(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        from service.application import queries

        return msgspec.json.decode(queries.view(self.services, game_id, token))  # type: ignore[no-any-return]

    def move(self, game_id: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
        from service.application import play
        from service.application.callers import Caller

        try:
            moved = play.make_move(self.services, game_id, Caller(token=token), body)
        except Exception as error:
            raise Refused(repr(error)) from error
        return msgspec.json.decode(moved.document)  # type: ignore[no-any-return]

    def tally(self, game_ids: list[str]) -> None:
        for game_id in game_ids:
            self.house.tally(game_id)

    def rebuild(self) -> int:
        """`syndicate projections rebuild`, in process: drop every read model, replay every log."""
        from service.application.rebuild import rebuild_read_models

        return rebuild_read_models(self.services)

    def load_snapshot(self, game_id: str) -> None:
        """Load a game the way a move does: its snapshot and the events after it."""
        self.services.repository.get(game_id)

    def replay_log(self, game_id: str) -> None:
        """Fold a game's whole log through its rules, as if it had no snapshot."""
        from events.repository import fold, ruleset_of

        envelopes = self.services.repository.log(game_id)
        fold(ruleset_of(envelopes[0]), None, envelopes)


class Wsgi:
    """`service.wsgi:app` through Flask's test client: the public API, in this process."""

    name = "WSGI app in process (service.wsgi:app, Flask test client)"
    rebuild_via = "the CLI: syndicate projections rebuild"

    def __init__(self, redis_url: str) -> None:
        self.redis_url = redis_url
        os.environ["REDIS_URL"] = redis_url
        os.environ.update(every_rate_limit(RATE_LIMIT))
        # One address starts every game, as with the HTTP benchmarks' service (`service_config`).
        os.environ.update(SYNDICATE_GAMES_PER_ADDRESS=str(GAMES_HELD), SYNDICATE_ADMISSION_S=str(ADMISSION_S))
        wsgi = importlib.reload(sys.modules["service.wsgi"]) if "service.wsgi" in sys.modules else None
        wsgi = wsgi or importlib.import_module("service.wsgi")
        self.http = wsgi.app.test_client()
        self.client = redis.Redis.from_url(redis_url)

    def _answer(self, response: Any, expected: int) -> dict[str, Any]:
        if response.status_code != expected:
            raise Refused(f"{response.status_code} {response.get_data(as_text=True)[:300]}")
        return response.json

    def create(
        self, ruleset: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None, seed: int | None = None
    ) -> Created:
        body: dict[str, Any] = {"ruleset": ruleset, "seats": seats, "options": options or {}}
        if seed is not None:
            body["seed"] = seed
        created = self._answer(self.http.post("/v1/games", json=body), 201)
        view = {k: v for k, v in created.items() if k != "tokens"}
        return Created(created["game_id"], {t["seat"]: t["token"] for t in created["tokens"]}, view)

    def look(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self._answer(self.http.get(f"/v1/games/{game_id}", headers=headers), 200)

    def move(self, game_id: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"}
        return self._answer(self.http.post(f"/v1/games/{game_id}/moves", json=body, headers=headers), 200)

    def tally(self, game_ids: list[str]) -> None:
        env = {**os.environ, "REDIS_URL": self.redis_url}
        subprocess.run([sys.executable, "-m", "service.ops.cli", "worker", "--burst"], env=env, check=True, timeout=600)

    def rebuild(self) -> int:
        env = {**os.environ, "REDIS_URL": self.redis_url}
        out = subprocess.run(
            [sys.executable, "-m", "service.ops.cli", "projections", "rebuild"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
            timeout=600,
        ).stdout
        return int(out.split("of ")[1].split()[0])


BACKENDS = {"usecases": UseCases, "wsgi": Wsgi}


def service(redis_url: str, backend: str | None = None) -> Service:
    """The in-process service on `redis_url`: `BENCH_INPROCESS` (usecases or wsgi) picks the backend."""
    return BACKENDS[backend or os.environ.get("BENCH_INPROCESS", "usecases")](redis_url)
