"""A game's history: the log (paged, NDJSON or live), its state at any version, its audit and its review."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, request, stream_with_context, url_for
from flask.views import MethodView

from events.repository import Game
from events.tickets import TICKET_TTL_S
from service.application import feeds, queries, review
from service.http import hygiene, schemas
from service.http.auth import bearer_token, redeemed
from service.http.context import services, serving
from service.http.live import Feed, nothing_left
from service.http.openapi.document import (
    EVENTS_DOC,
    GAME_FEED,
    LAST_EVENT_ID,
    RETRY_AFTER,
    REVIEW_DOC,
    SEAT,
    SEAT_OR_SPECTATOR,
    SSE,
    SSE_DOC,
    VERSION_TAG,
)
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
    @blp.response(200, GAME_FEED, content_type=SSE, description=SSE_DOC)
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
        opened = feed_seat(game, query.get("ticket"))
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        body = stream_with_context(
            Feed(services().repository, game, opened.seat, after, opened.allowed, serving()).messages()
        )
        return Response(body, mimetype="text/event-stream", headers=headers)


def feed_seat(game: Game, ticket: str | None) -> feeds.Opened:
    """Whose feed it is: the seat of a ticket (once), of the bearer token, or nobody's (a spectator)."""
    if ticket is None:
        return feeds.game_feed(services(), game, bearer_token())
    return redeemed(ticket, lambda ticket: feeds.game_feed_by_ticket(services(), game, ticket))


@blp.route("/<game_id>/stream-tickets")
class StreamTickets(MethodView):
    @blp.doc(operationId="createStreamTicket", security=SEAT)
    @blp.response(201, schemas.StreamTicketSchema)
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    def post(self, game_id: str) -> Any:
        """A single-use ticket, valid for a minute, that opens the seat's live feed (for EventSource)"""
        ticket, seat = feeds.seat_ticket(services(), game_id, bearer_token())
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


@blp.route("/<game_id>/review")
class Review(MethodView):
    @blp.doc(operationId="getReview")
    @blp.response(200, schemas.ReviewSchema, description=REVIEW_DOC)
    @blp.alt_response(
        202,
        schema=schemas.ReviewPendingSchema,
        description=(
            "the review is being made (the first read of a finished game's review starts it; the workers make it in"
            " steps, between the games' moves, in seconds to minutes): ask again after `Retry-After` seconds"
        ),
        headers=RETRY_AFTER,
        success=True,
    )
    @blp.alt_response(404, response="NOT_FOUND")
    @blp.alt_response(409, response="CONFLICT")
    def get(self, game_id: str) -> Any:
        """A finished game's review: each seat's chance to win before and after each of its moves, and the move
        the house's strongest bot would have made"""
        found = review.review(services(), game_id)
        if found is None:
            pending = {"game_id": game_id, "status": "pending", "retry_after_s": review.RETRY_AFTER_S}
            headers = {"Retry-After": str(review.RETRY_AFTER_S)}
            return Response(json.dumps(pending), status=202, mimetype="application/json", headers=headers)
        return Response(found, mimetype="application/json")
