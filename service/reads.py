"""Read use cases: views and results from the read models (projected first if behind), the log as a
caller may see it, time travel and the audit."""

from __future__ import annotations

from typing import Any

import msgspec

from events import keys
from games import table as tables
from games.base import EVERYONE
from games.table import Status
from projections.replay import fold
from projections.results import result_of
from service import tokens
from service.audit import Report, audit_log, check_live
from service.errors import ConflictError, GameNotFoundError, InvalidTokenError, NotFoundError
from service.feed import feed_item, viewer_of
from service.games import GAME_ID, Game, Games


class Reads:
    def __init__(self, games: Games) -> None:
        self.games = games
        self.store = games.store
        self.projections = games.projections

    def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The caller's view from the read model; if it is missing or behind, project the game first."""
        if not GAME_ID.fullmatch(game_id):
            raise GameNotFoundError(f"no game {game_id!r}")
        seat = None
        if token is not None:
            seat = tokens.seat_of(token, self.store.token_hashes(game_id))
            if seat is None:
                self.games.load(game_id)  # a missing game answers 404 before a wrong token answers 401
                raise InvalidTokenError("this token holds no seat in this game")
        stored = self.projections.views.read(game_id, seat)
        if stored is not None:
            return msgspec.json.decode(stored)
        game = self.games.load(game_id)
        self.projections.project(game.ruleset, game.table)
        return self.games.view(game, seat)

    def result(self, game_id: str) -> dict[str, Any]:
        """The final tally from the read model, projected first if it is missing."""
        stored = self.projections.results.result(game_id) if GAME_ID.fullmatch(game_id) else None
        if stored is not None:
            return stored
        game = self.games.load(game_id)
        if game.table.status is not Status.FINISHED:
            raise ConflictError("the game has not finished yet", code="game_not_finished")
        self.projections.project(game.ruleset, game.table)
        return result_of(game.ruleset, game.table)

    def events(self, game: Game, seat: int | None, after: int, limit: int) -> list[dict[str, Any]]:
        """The log after version `after`, as the caller may see it."""
        envelopes = self.store.read(game.table.game_id, after=after, limit=limit)
        return [feed_item(game.ruleset, game.table, envelope, seat) for envelope in envelopes]

    def state_at(self, game: Game, version: int, seat: int | None) -> dict[str, Any]:
        """The caller's view as it was at `version` (time travel); hidden then is hidden now,
        unless the game has since finished."""
        if not 1 <= version <= game.table.version:
            raise NotFoundError(
                f"game {game.table.game_id} has versions 1 to {game.table.version}", "version_not_found"
            )
        past = fold(game.ruleset, None, self.store.read(game.table.game_id, after=0, limit=version))
        assert past is not None
        viewer = viewer_of(game.table, seat)
        view = tables.view(game.ruleset, past, viewer)
        if seat is not None and viewer == EVERYONE:
            view["you"] = tables.view(game.ruleset, past, seat)["you"]
        return view

    def audit(self, game_id: str) -> Report:
        """Replay the whole log through the rules and compare it with the live state and views."""
        game = self.games.load(game_id)
        report = audit_log(game_id, self.store.read(game_id))
        stored = self.store.redis.hgetall(keys.views(game_id))
        views = {k.decode(): msgspec.json.decode(v) for k, v in stored.items()}
        check_live(report, game.table, views)
        return report
