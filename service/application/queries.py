"""The use cases that read: a game's view, its result, its log, its past, its audit; the lobby, the leaderboard,
a player.

A view or result is served from the read model stored with the game's last decision; one that is missing
or behind the log is caught up from the log first. Nothing here changes a game.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import msgspec

from events.repository import GAME_ID, Game, NoSuchGameError
from games import table as tables
from games.base import EVERYONE, SPECTATOR
from games.registry import RULESETS
from games.table import Status
from projections.lobby import entry
from projections.results import result_of
from projections.views import encode
from service.application import accounts, tokens
from service.application.audit import Report, audit_log, check_live
from service.application.callers import seat_of
from service.application.errors import GameAbortedError, GameNotFinishedError, InvalidTokenError, VersionNotFoundError
from service.application.offered import ruleset_named
from service.application.redaction import feed_item, viewer_of
from service.application.services import Services

PAGE = 500


class Seated(msgspec.Struct):
    seat: int


class Versioned(msgspec.Struct):
    version: int
    you: Seated | None = None


class Moved(msgspec.Struct):
    game: Versioned


def version_of(document: bytes) -> int:
    """The `version` of an encoded view or result, without decoding the rest."""
    return msgspec.json.decode(document, type=Versioned).version


def shown_by(document: bytes) -> tuple[int, int | None]:
    """The version an encoded view shows, and whose seat's view it is (None: a spectator's, or a result)."""
    shown = msgspec.json.decode(document, type=Versioned)
    return shown.version, shown.you.seat if shown.you else None


def moved_by(answer: bytes) -> tuple[int, int | None]:
    """`shown_by` of the view in an encoded move answer."""
    game = msgspec.json.decode(answer, type=Moved).game
    return game.version, game.you.seat if game.you else None


def view(services: Services, game_id: str, token: str | None) -> bytes:
    """The caller's view (JSON), from the read model; if it is missing or behind, caught up first."""
    if not GAME_ID.fullmatch(game_id):
        raise NoSuchGameError(game_id)
    seat = None
    if token is not None and accounts.is_player_token(token):
        seat = seat_of(services, services.repository.get(game_id), token)
    elif token is not None:
        seat = tokens.seat_of(token, services.repository.token_hashes(game_id))
        if seat is None:
            services.repository.get(game_id)  # a missing game answers 404 before a wrong token answers 401
            raise InvalidTokenError("this token holds no seat in this game")
    stored = services.projections.view(game_id, seat)
    if stored is not None:
        return stored
    game = catch_up(services, services.repository.get(game_id))
    return encode(tables.view(game.ruleset, game.table, SPECTATOR if seat is None else seat))


def result(services: Services, game_id: str) -> bytes:
    """The final tally (JSON), from the read model, caught up first if it is missing."""
    stored = services.projections.result(game_id) if GAME_ID.fullmatch(game_id) else None
    if stored is not None:
        return stored
    game = services.repository.get(game_id)
    if game.table.status is Status.ABORTED:
        raise GameAbortedError("this game was aborted: it has no result")
    if game.table.status is not Status.FINISHED:
        raise GameNotFinishedError("the game has not finished yet")
    catch_up(services, game)
    return encode(result_of(game.ruleset, game.table))


def catch_up(services: Services, game: Game) -> Game:
    """Write the game's read models from its table: a read found them behind its log."""
    services.projections.catch_up(game)
    return game


def caller(services: Services, game_id: str, token: str | None) -> tuple[Game, int | None]:
    """The game and the caller's seat in it (None: a spectator)."""
    game = services.repository.get(game_id)
    return game, seat_of(services, game, token)


def event_page(services: Services, game: Game, seat: int | None, after: int, limit: int) -> dict[str, Any]:
    """The log after version `after`, as the caller may see it, and where the next page starts."""
    envelopes = services.repository.log(game.game_id, after=after, limit=limit)
    events = [feed_item(game.ruleset, game.table, envelope, seat) for envelope in envelopes]
    more = bool(events) and events[-1]["version"] < game.version
    return {
        "game_id": game.game_id,
        "version": game.version,
        "events": events,
        "next_after": events[-1]["version"] if more else None,
    }


def export(services: Services, game: Game, seat: int | None, after: int) -> Iterator[bytes]:
    """Every event after `after` as the caller may see it, one JSON object a line, read a page at a time."""
    while True:
        page = services.repository.log(game.game_id, after=after, limit=PAGE)
        for envelope in page:
            yield encode(feed_item(game.ruleset, game.table, envelope, seat)) + b"\n"
        if len(page) < PAGE:
            return
        after = page[-1].version


def state_at(services: Services, game: Game, version: int, seat: int | None) -> dict[str, Any]:
    """The caller's view as it was at `version` (time travel); hidden then is hidden now, unless the game
    has since finished."""
    if not 1 <= version <= game.version:
        raise VersionNotFoundError(f"game {game.game_id} has versions 1 to {game.version}")
    past = services.repository.at(game, version)
    viewer = viewer_of(game.table, seat)
    shown = tables.plain_view(game.ruleset, past, viewer)
    if seat is not None and viewer == EVERYONE:
        shown["you"] = tables.plain_view(game.ruleset, past, seat)["you"]
    return shown


def audit(services: Services, game_id: str) -> Report:
    """Replay the whole log through the rules, and compare it with the live state and views."""
    game = services.repository.get(game_id)
    report = audit_log(game_id, services.repository.log(game_id))
    check_live(report, game.table, services.projections.stored_views(game_id))
    return report


ABANDONED_AFTER_S = 3600
"""How long a game nobody is seen at may be listed: a waiting game nobody sits at, from its creation (its people
left it, or nobody came); a game in progress without a move deadline, from its last event (its people stopped
playing). Either stays reachable by its id, and a `bots_after_s` or a move deadline moves a game on by itself."""


def lobby(
    services: Services, status: str | None, ruleset: str | None, offset: int, limit: int, now: float | None = None
) -> tuple[int, list[dict[str, Any]]]:
    """The number of matching games and one page of their lobby entries, newest first, abandoned ones left out."""
    total, page = services.projections.lobby.page(status, ruleset, offset, limit)
    shown = [e for e in page if not abandoned(e, time.time() if now is None else now)]
    return total - (len(page) - len(shown)), shown


def abandoned(entry: dict[str, Any], now: float) -> bool:
    """A waiting game nobody sits at (every seat open or a bot's) for over ABANDONED_AFTER_S since its creation, or
    a game in progress without a move deadline whose last event is over ABANDONED_AFTER_S old (to the minute: its
    entry's `moved_at`). A game moved on by a deadline is never idle for long: it is left alone."""
    if entry["status"] == Status.WAITING:
        nobody = not any("name" in seat for seat in entry["seats"])
        return nobody and _age(entry["created_at"], now) > ABANDONED_AFTER_S
    if entry["status"] == Status.IN_PROGRESS:
        timed = entry["options"].get("move_deadline_s") is not None
        return not timed and _age(entry["moved_at"], now) > ABANDONED_AFTER_S
    return False


def _age(at: str, now: float) -> float:
    """Seconds since a recorded time; none recorded (a table made without times): none."""
    return now - datetime.fromisoformat(at).timestamp() if at else 0.0


def leaderboard(services: Services, ruleset: str, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
    """How many identities a ruleset rates, and one page of them by rating (mu - 3 sigma), best first."""
    return services.projections.ratings.board(ruleset_named(ruleset).id, offset, limit)


def lobby_entry(table: Any) -> dict[str, Any]:
    """What the lobby shows of a game."""
    return entry(table)


def player_games(services: Services, player_id: str, status: str | None) -> list[dict[str, Any]]:
    """The player's games as the lobby shows them, newest first, of one status if asked."""
    ids = services.projections.player_games.games(player_id)
    entries = services.projections.lobby.entries(ids)
    return [e for e in entries if status is None or e["status"] == status]


def player_profile(services: Services, player_id: str, recent: int = 10) -> dict[str, Any]:
    """A player as anyone may see it: name, when registered, ratings per ruleset and recent games."""
    player = accounts.player_by_id(services, player_id)
    ratings = services.projections.ratings.of(RULESETS, player_id)
    games = player_games(services, player_id, None)[:recent]
    return {
        "player_id": player.player_id,
        "name": player.name,
        "created_at": player.created_at,
        "ratings": ratings,
        "recent_games": games,
    }
