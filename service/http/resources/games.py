"""The games resource: create, join, look, move, read the log, read the result."""

from __future__ import annotations

from typing import Any

import msgspec
from flask import Response, url_for
from flask.views import MethodView
from flask_smorest.pagination import PaginationParameters

from service.application import accounts, callers, play, queries, seating
from service.application.errors import InvalidTokenError, VersionMismatchError
from service.application.execute import Acted
from service.http import hygiene, ratelimit, schemas
from service.http.auth import bearer_token, holder_of, seated_caller
from service.http.context import services
from service.http.openapi import examples
from service.http.openapi.document import PLAYER_OR_ANONYMOUS, SEAT, SEAT_OR_SPECTATOR, VERSION_TAG
from service.http.parsing import INTEGER, Blueprint

blp = Blueprint("games", __name__, url_prefix="/v1/games", description="Create, join and play games")


def json_answer(document: bytes, status: int = 200, **headers: str) -> Response:
    """A body already encoded by the read models, sent as it is."""
    return Response(document, status=status, mimetype="application/json", headers=headers)


@blp.route("")
class GameCollection(MethodView):
    @blp.doc(operationId="listGames")
    @blp.arguments(schemas.LobbyQuerySchema, location="query")
    @blp.response(200, schemas.LobbyEntrySchema(many=True))
    @blp.paginate()
    def get(self, query: dict[str, str], pagination_parameters: PaginationParameters) -> Any:
        """The lobby: games newest first, filtered by `status` and `ruleset`, paginated

        Games nobody is seen at any more are left out, though their id still opens them: a waiting game nobody sits
        at (every seat open or a bot's) an hour after its creation, and a game in progress without a move deadline
        (`move_deadline_s`) an hour after its last event (`moved_at`); such a game comes back when it moves again.
        """
        p = pagination_parameters
        offset = (p.page - 1) * p.page_size
        total, page = queries.lobby(services(), query.get("status"), query.get("ruleset"), offset, p.page_size)
        p.item_count = total
        return page

    @blp.doc(operationId="createGame", security=PLAYER_OR_ANONYMOUS)
    @blp.arguments(schemas.CreateGameSchema, examples=examples.CREATE_GAME)
    @blp.response(201, schemas.CreatedGameSchema, headers=VERSION_TAG)
    @blp.alt_response(409, response="CONFLICT")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def post(self, body: dict[str, Any]) -> Any:
        """Create a game; anonymous human seats get their tokens, once; `{"player": "me"}` seats the caller"""
        creator = callers.account_of(services(), bearer_token())
        acted = play.create_game(
            services(), body["ruleset"], body["seats"], body["options"], body.get("seed"), creator, holder_of(creator)
        )
        return created(acted)


@blp.route("/<game_id>")
class GameResource(MethodView):
    @blp.doc(operationId="getGame", security=SEAT_OR_SPECTATOR)
    @blp.response(200, schemas.GameSchema, headers=VERSION_TAG)
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, game_id: str) -> Any:
        """The game as the caller may see it, with `legal_moves` for a seat token"""
        view = queries.view(services(), game_id, bearer_token())
        version, seat = queries.shown_by(view)
        return hygiene.unchanged(version, seat) or json_answer(view, ETag=hygiene.etag(version, seat))


@blp.route("/<game_id>/join")
class JoinResource(MethodView):
    @blp.doc(operationId="joinGame", security=PLAYER_OR_ANONYMOUS)
    @blp.arguments(schemas.JoinSchema)
    @blp.response(201, schemas.JoinedSchema, headers=VERSION_TAG)
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(409, response="CONFLICT")
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Take the first open seat, by name, as the player of a player token, or (a rematch) as the holder of a
        seat token of the game it replays; the game starts when no seat is open"""
        token = bearer_token()
        accepts = body["accept_public_randomness"]
        if token is not None and not accounts.is_player_token(token):  # a rematch's seat kept for its holder
            holder = holder_of(None)
            acted, seat = play.join_game(services(), game_id, None, None, accepts, holder=holder, rejoin_token=token)
        else:
            player = callers.account_of(services(), token)
            holder = holder_of(player)
            acted, seat = play.join_game(services(), game_id, body.get("name"), player, accepts, holder=holder)
        token = acted.handed.get(seat)
        ratelimit.minted(acted.handed.values())
        answer = {"seat": seat, **({"token": token} if token else {}), "game": msgspec.Raw(acted.view(seat))}
        return json_answer(msgspec.json.encode(answer), 201, ETag=hygiene.etag(acted.game.version, seat))


@blp.route("/<game_id>/moves")
class MoveResource(MethodView):
    @blp.doc(operationId="makeMove", security=SEAT)
    @blp.arguments(schemas.MoveHeadersSchema, location="headers", read=schemas.move_headers_read)
    @blp.arguments(schemas.MoveSchema, examples=examples.MOVE, read=schemas.move_read)
    @blp.response(200, schemas.MoveResultSchema, headers=VERSION_TAG)
    @blp.alt_response(400, response="BAD_REQUEST")
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(409, response="CONFLICT")
    @blp.alt_response(412, response="PRECONDITION_FAILED")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def post(self, headers: dict[str, Any], body: dict[str, Any], game_id: str) -> Any:
        """Make a move as the seat of the token"""
        token = bearer_token()
        if token is None:
            raise InvalidTokenError("a move needs the seat token: 'Authorization: Bearer <token>'")
        if_match = parse_if_match(headers.get("if_match"))
        caller = seated_caller(token)
        moved = play.make_move(services(), game_id, caller, body, if_match, headers.get("idempotency_key"))
        return json_answer(moved.document, ETag=hygiene.etag(moved.version, moved.seat))


@blp.route("/<game_id>/result")
class ResultResource(MethodView):
    @blp.doc(operationId="getResult")
    @blp.response(200, schemas.GameResultSchema, headers=VERSION_TAG)
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(409, response="CONFLICT")
    def get(self, game_id: str) -> Any:
        """The final tally: scores, ranks, winners and the tie-break used"""
        result = queries.result(services(), game_id)
        version = queries.version_of(result)
        return hygiene.unchanged(version) or json_answer(result, ETag=hygiene.etag(version))


def created(acted: Acted) -> Response:
    """A new game as a spectator sees it, with the tokens of its anonymous seats."""
    view = msgspec.json.decode(acted.view(None))
    view["tokens"] = [{"seat": seat, "token": token} for seat, token in sorted(acted.handed.items())]
    ratelimit.minted(acted.handed.values())
    location = url_for("games.GameResource", game_id=acted.game.game_id)
    return json_answer(msgspec.json.encode(view), 201, Location=location, ETag=hygiene.etag(acted.game.version))


def seat_answer(acted: Acted) -> Response:
    """The game after a seat's own request, as the spectator sees it (the seat may hold no seat any more)."""
    return json_answer(acted.view(None), ETag=hygiene.etag(acted.game.version))


def lifecycle_route(path: str, operation_id: str, summary: str, act: Any) -> None:
    """A seat's request with no body (leave, resign, abort, start with bots): the game after it."""

    @blp.route(path, endpoint=operation_id)
    class SeatRequest(MethodView):
        @blp.doc(operationId=operation_id, security=SEAT, summary=summary)
        @blp.response(200, schemas.GameSchema, headers=VERSION_TAG)
        @blp.alt_response(401, response="UNAUTHORIZED")
        @blp.alt_response(404, response="NOT_FOUND")
        @blp.alt_response(409, response="CONFLICT")
        def post(self, game_id: str) -> Any:
            return seat_answer(act(services(), game_id, bearer_token()))


lifecycle_route(
    "/<game_id>/leave", "leaveGame", "Leave a game that has not started: the seat opens again", seating.leave_game
)
lifecycle_route(
    "/<game_id>/resign", "resignGame", "Resign: the random bot plays the seat to the end", seating.resign_game
)
lifecycle_route(
    "/<game_id>/abort", "abortGame", "The creator calls off a game that has not started", seating.abort_game
)
lifecycle_route(
    "/<game_id>/start-with-bots",
    "startWithBots",
    "Start now: the house's bots take the open seats (a seat of a game with `bots_after_s`, or the creator)",
    seating.start_with_bots,
)


@blp.route("/<game_id>/auto-pass")
class AutoPassResource(MethodView):
    @blp.doc(operationId="setAutoPass", security=SEAT)
    @blp.arguments(schemas.AutoPassSchema)
    @blp.response(200, schemas.GameSchema, headers=VERSION_TAG)
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(409, response="CONFLICT")
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def post(self, body: dict[str, Any], game_id: str) -> Any:
        """Choose the decisions the house passes for your seat, at once, whatever you hold"""
        return seat_answer(seating.set_auto_pass(services(), game_id, bearer_token(), body["decisions"]))


@blp.route("/<game_id>/rematch")
class RematchResource(MethodView):
    @blp.doc(operationId="rematchGame", security=SEAT)
    @blp.response(201, schemas.CreatedGameSchema, headers=VERSION_TAG)
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(409, response="CONFLICT")
    def post(self, game_id: str) -> Any:
        """A new game with the same seats and options: players seated again, bots kept, once per game"""
        token = bearer_token()
        player = callers.player_of(services(), token)
        return created(seating.rematch_game(services(), game_id, token, holder_of(player)))


def parse_if_match(header: str | None) -> int | None:
    """The version an If-Match names: `"5"`, `W/"5"` or `5`, or a seat's view's tag (`"5-0"`); `*` (any
    version) and no header give None."""
    value = (header or "*").strip().removeprefix("W/").strip('"')
    if value == "*":
        return None
    version, sep, seat = value.partition("-")
    if not INTEGER.fullmatch(version) or (sep and not INTEGER.fullmatch(seat)):
        raise VersionMismatchError('If-Match must name a version, like "5"')
    return int(version)
