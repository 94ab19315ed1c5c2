"""Players: register, look at a player, manage one's tokens, list one's games, follow one's live feed."""

from __future__ import annotations

from typing import Any

from flask import Response, request, stream_with_context, url_for
from flask.views import MethodView
from flask_smorest.pagination import PaginationParameters

from events.tickets import TICKET_TTL_S
from players.state import Player
from service.application import accounts, feeds, queries
from service.application.errors import InvalidRequestError, InvalidTokenError
from service.http import player_schemas as schemas
from service.http.auth import bearer_token, redeemed
from service.http.context import services, serving
from service.http.errors import InvalidHeaderError
from service.http.openapi.document import PLAYER, PLAYER_FEED, SSE
from service.http.parsing import Blueprint
from service.http.player_live import PlayerFeed
from service.http.schemas import LobbyEntrySchema, LobbyQuerySchema

blp = Blueprint("players", __name__, url_prefix="/v1/players", description="Players, their tokens and their feed")

PLAYER_SSE_DOC = (
    "Server-Sent Events: `id` is the notice's id (send it back as `Last-Event-ID`), `event` its type (`invited`, "
    "`seated`, `started`, `decision_due`, `finished`, `aborted`, `rating_changed`), `data` the notice (a "
    "`PlayerNotice`; each message a `PlayerFeedMessage`); `: keep-alive` comments every 15 s"
)


def me() -> Player:
    """The player whose token the request carries; 401 without one."""
    token = bearer_token()
    if token is None or not accounts.is_player_token(token):
        raise InvalidTokenError("send a player token: 'Authorization: Bearer <player token>'")
    return accounts.authenticate(services(), token)


def tokens_of(player: Player) -> list[dict[str, str]]:
    return [{"token_id": i, "issued_at": t.issued_at} for i, t in sorted(player.tokens.items())]


@blp.route("")
class PlayerCollection(MethodView):
    @blp.doc(operationId="registerPlayer")
    @blp.arguments(schemas.RegisterPlayerSchema)
    @blp.response(201, schemas.RegisteredPlayerSchema)
    @blp.alt_response(409, response="CONFLICT")
    def post(self, body: dict[str, Any]) -> Any:
        """Register a player: its id and first token, shown once; names are unique whatever their case, and no
        name looks like another"""
        player, token_id, token = accounts.register_player(services(), body["name"])
        headers = {"Location": url_for("players.PlayerResource", player_id=player.player_id)}
        answer = {"player_id": player.player_id, "name": player.name, "created_at": player.created_at}
        return {**answer, "token_id": token_id, "token": token}, 201, headers


@blp.route("/me")
class Me(MethodView):
    @blp.doc(operationId="getMe", security=PLAYER)
    @blp.response(200, schemas.MeSchema)
    @blp.alt_response(401, response="UNAUTHORIZED")
    def get(self) -> Any:
        """The caller's player: its profile and its live tokens (ids, never the tokens)"""
        player = me()
        return {**queries.player_profile(services(), player.player_id), "tokens": tokens_of(player)}


@blp.route("/me/tokens")
class MyTokens(MethodView):
    @blp.doc(operationId="issuePlayerToken", security=PLAYER)
    @blp.response(201, schemas.IssuedTokenSchema)
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(409, response="CONFLICT")
    def post(self) -> Any:
        """Issue another player token (shown once): to rotate, issue one, then revoke the old"""
        token_id, token = accounts.issue_token(services(), me())
        return {"token_id": token_id, "token": token}, 201


@blp.route("/me/tokens/<token_id>")
class MyToken(MethodView):
    @blp.doc(operationId="revokePlayerToken", security=PLAYER)
    @blp.response(204)
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(409, response="CONFLICT")  # the player changed meanwhile
    def delete(self, token_id: str) -> Any:
        """Revoke one of the caller's tokens (the one in use too)"""
        accounts.revoke_token(services(), me(), token_id)
        return Response(status=204)


@blp.route("/me/games")
class MyGames(MethodView):
    @blp.doc(operationId="listMyGames", security=PLAYER)
    @blp.arguments(LobbyQuerySchema(only=("status",)), location="query")
    @blp.response(200, LobbyEntrySchema(many=True))
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.paginate()
    def get(self, query: dict[str, str], pagination_parameters: PaginationParameters) -> Any:
        """The games the caller holds a seat in, newest first, of one `status` if asked, paginated"""
        p = pagination_parameters
        found = queries.player_games(services(), me().player_id, query.get("status"))
        p.item_count = len(found)
        return found[(p.page - 1) * p.page_size : p.page * p.page_size]


@blp.route("/me/stream-tickets")
class MyStreamTickets(MethodView):
    @blp.doc(operationId="createPlayerStreamTicket", security=PLAYER)
    @blp.response(201, schemas.PlayerStreamTicketSchema)
    @blp.alt_response(401, response="UNAUTHORIZED")
    def post(self) -> Any:
        """A single-use ticket, valid for a minute, that opens the caller's live feed (for EventSource)"""
        player = me()
        ticket = services().tickets.issue_player(player.player_id, feeds.minted_by(bearer_token()))
        url = url_for("players.MyEventStream", ticket=ticket)
        return {"ticket": ticket, "expires_in_s": TICKET_TTL_S, "stream": url}, 201


@blp.route("/me/events/stream", parameters=[schemas.PLAYER_LAST_EVENT_ID])
class MyEventStream(MethodView):
    @blp.doc(
        operationId="streamMyEvents",
        security=PLAYER,
    )
    @blp.arguments(schemas.PlayerStreamQuerySchema, location="query")
    @blp.response(200, PLAYER_FEED, content_type=SSE, description=PLAYER_SSE_DOC)
    @blp.alt_response(401, response="UNAUTHORIZED")
    def get(self, query: dict[str, Any]) -> Any:
        """Everything that concerns the caller in all its games, live (Server-Sent Events); resumable"""
        opened = feed_player(query.get("ticket"))
        last = resumed_after(query.get("after"))
        notices = services().projections.feeds
        after = last or notices.last_id(opened.player_id)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        body = stream_with_context(PlayerFeed(notices, opened.player_id, after, opened.allowed, serving()).messages())
        return Response(body, mimetype="text/event-stream", headers=headers)


def resumed_after(after: str | None) -> str | None:
    """The notice a feed resumes after: `Last-Event-ID`, else `?after=` (`0`: before every notice kept); a
    malformed one is refused naming what was sent."""
    header = request.headers.get("Last-Event-ID")
    last = header if header is not None else after
    if last is None or schemas.NOTICE.fullmatch(last):
        return last
    if header is not None:
        raise InvalidHeaderError("Last-Event-ID is the id of a notice, like 1733050000000-0")
    raise InvalidRequestError("after is the id of a notice, like 1733050000000-0, or 0 for every notice kept")


def feed_player(ticket: str | None) -> feeds.Opened:
    """Whose feed it is, and what must hold for it to go on: the player of a ticket (once) or of the bearer token."""
    if ticket is None:
        me()
        return feeds.player_feed(services(), bearer_token() or "")
    return redeemed(ticket, lambda ticket: feeds.player_feed_by_ticket(services(), ticket))


@blp.route("/<player_id>")
class PlayerResource(MethodView):
    @blp.doc(operationId="getPlayer")
    @blp.response(200, schemas.PlayerSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, player_id: str) -> Any:
        """A player: its name, its rating in each ruleset it has played, its recent games"""
        return queries.player_profile(services(), player_id)
