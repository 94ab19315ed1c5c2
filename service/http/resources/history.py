"""A game's history: the log (paged, NDJSON or live), its state at any version, and its audit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, request, stream_with_context, url_for
from flask.views import MethodView

from events.repository import Game
from events.tickets import TICKET_TTL_S, TicketStore
from service.application import accounts, queries
from service.application.errors import InvalidTokenError
from service.application.play import seat_holder, seat_of
from service.http import hygiene, schemas
from service.http.auth import bearer_token, redeemed
from service.http.context import services
from service.http.live import Feed, always, nothing_left
from service.http.openapi.document import EVENTS_DOC, LAST_EVENT_ID, SEAT, SEAT_OR_SPECTATOR, SSE_DOC, VERSION_TAG
from service.http.parsing import Blueprint, header_integer

blp = Blueprint("history", __name__, url_prefix="/v1/games", description="Logs, time travel and audits")

NDJSON = "application/x-ndjson"
LOG_VARIES = "Accept"
"""The log is JSON or NDJSON at one URL (and, as every answer, differs by caller: service/http/hygiene.py)."""


@blp.route("/<game_id>/events")
class EventCollection(MethodView):
    @blp.doc(operationId="listEvents", security=SEAT_OR_SPECTATOR)
    @blp.arguments(schemas.EventsQuerySchema, location="query")
    @blp.response(200, schemas.EventPageSchema, description=EVENTS_DOC, headers=VERSION_TAG)
    @blp.alt_response(200, schema=schemas.EventSchema, content_type=NDJSON, description=EVENTS_DOC, success=True)
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, query: dict[str, int], game_id: str) -> Any:
        """The log after version `after`, as the caller may see it; all of it as NDJSON on request"""
        game, seat = queries.caller(services(), game_id, bearer_token())
        if request.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON:
            lines = queries.export(services(), game, seat, query["after"])
            return Response(stream_with_context(lines), mimetype=NDJSON, headers={"Vary": LOG_VARIES})
        if not_modified := hygiene.unchanged(game.version, seat, vary=LOG_VARIES):
            return not_modified
        page = queries.event_page(services(), game, seat, query["after"], query["limit"])
        return page, 200, {"ETag": hygiene.etag(game.version, seat), "Vary": LOG_VARIES}


@blp.route("/<game_id>/events/stream", parameters=[LAST_EVENT_ID])
class EventStream(MethodView):
    @blp.doc(operationId="streamEvents", security=SEAT_OR_SPECTATOR)
    @blp.arguments(schemas.StreamQuerySchema, location="query")
    @blp.response(200)
    @blp.doc(
        responses={"200": {"description": SSE_DOC, "content": {"text/event-stream": {"schema": {"type": "string"}}}}}
    )
    @blp.alt_response(204, description="the game is over and tallied, and the caller has read it to its end")
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The log live, as Server-Sent Events; resumes after `Last-Event-ID`; a ticket opens a seat's feed"""
        game = services().repository.get(game_id)
        last = request.headers.get("Last-Event-ID")
        after = header_integer("Last-Event-ID", last) if last is not None else query.get("after", 0)
        # Before the ticket: a finished game is public, and an EventSource back with its spent ticket after
        # the feed closed must hear 204 to stop.
        if nothing_left(game, after):
            return Response(status=204)
        seat, allowed = feed_seat(game, query.get("ticket"))
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        body = stream_with_context(Feed(services().repository.store, game, seat, after, allowed).messages())
        return Response(body, mimetype="text/event-stream", headers=headers)


def tickets() -> TicketStore:
    store = services().tickets
    assert store is not None, "stream tickets are kept by the deployment"
    return store


def feed_seat(game: Game, ticket: str | None) -> tuple[int | None, Callable[[], bool]]:
    """Whose feed it is: the seat of a ticket (once), of the bearer token, or nobody's (a spectator); and what
    must hold for it to go on: the player token that opened it (or minted its ticket) still live."""
    if ticket is None:
        token = bearer_token()
        seat = seat_of(services(), game, token)
        if token is not None and accounts.is_player_token(token):
            return seat, token_still_lives(token.split(".", 1)[0], accounts.token_id_of(token))
        return seat, always

    def redeem(ticket: str) -> tuple[int, Callable[[], bool]] | None:
        found = tickets().redeem(game.game_id, ticket)
        # A ticket of a seat that changed hands since, or minted with a token revoked since, opens nothing.
        if found is None or seat_holder(game, found.seat) != found.holder:
            return None
        if not found.token_id:
            return found.seat, always
        allowed = token_still_lives(found.holder.removeprefix("player:"), found.token_id)
        return (found.seat, allowed) if allowed() else None

    return redeemed(ticket, redeem)


def token_still_lives(player_id: str, token_id: str) -> Callable[[], bool]:
    return lambda: accounts.token_lives(services(), player_id, token_id)


@blp.route("/<game_id>/stream-tickets")
class StreamTickets(MethodView):
    @blp.doc(operationId="createStreamTicket", security=SEAT)
    @blp.response(201, schemas.StreamTicketSchema)
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    def post(self, game_id: str) -> Any:
        """A single-use ticket, valid for a minute, that opens the seat's live feed (for EventSource)"""
        token = bearer_token()
        game, seat = queries.caller(services(), game_id, token)
        if seat is None:
            raise InvalidTokenError("a ticket is for a seat's feed: send the seat token")
        minted_by = accounts.token_id_of(token) if token and accounts.is_player_token(token) else ""
        ticket = tickets().issue(game_id, seat, seat_holder(game, seat), token_id=minted_by)
        url = url_for("history.EventStream", game_id=game_id, ticket=ticket)
        return {"ticket": ticket, "seat": seat, "expires_in_s": TICKET_TTL_S, "stream": url}, 201


@blp.route("/<game_id>/states/<version:version>")
class StateAtVersion(MethodView):
    @blp.doc(operationId="getStateAtVersion", security=SEAT_OR_SPECTATOR)
    @blp.response(200, schemas.GameSchema, headers=VERSION_TAG)
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, game_id: str, version: int) -> Any:
        """The caller's view as it was at a version (time travel); its ETag is the game's version now, since
        the past changes only in what the end reveals"""
        game, seat = queries.caller(services(), game_id, bearer_token())
        if not_modified := hygiene.unchanged(game.version, seat):
            return not_modified
        return queries.state_at(services(), game, version, seat), 200, {"ETag": hygiene.etag(game.version, seat)}


@blp.route("/<game_id>/audit")
class Audit(MethodView):
    @blp.doc(operationId="auditGame")
    @blp.response(200, schemas.AuditSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, game_id: str) -> Any:
        """Replay the whole log through the rules and check it: `ok`, `event_count`, `head_hash`, `problems`"""
        return queries.audit(services(), game_id).as_dict()
