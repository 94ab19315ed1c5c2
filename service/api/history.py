"""A game's history: the log (paged, NDJSON or live), its state at any version, and its audit."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView

from events import keys
from events.envelope import Envelope, decode
from games.table import Status
from projections.replay import fold
from service.api import schemas
from service.api.auth import bearer_token
from service.api.openapi import EVENTS_DOC, LAST_EVENT_ID, SEAT_OR_SPECTATOR
from service.api.parsing import Blueprint, header_integer
from service.feed import feed_item
from service.games import Game, Games
from service.reads import Reads

blp = Blueprint("history", __name__, url_prefix="/v1/games", description="Logs, time travel and audits")

NDJSON = "application/x-ndjson"
PAGE = 500
KEEPALIVE_S = 15
SSE_DOC = "Server-Sent Events: `id` is the version, `event` the type, `data` the event as the caller may see it"


def games() -> Games:
    return current_app.extensions["syndicate.games"]


def reads() -> Reads:
    return current_app.extensions["syndicate.reads"]


@blp.route("/<game_id>/events")
class EventCollection(MethodView):
    @blp.doc(operationId="listEvents", security=SEAT_OR_SPECTATOR)
    @blp.arguments(schemas.EventsQuerySchema, location="query")
    @blp.response(200, schemas.EventPageSchema, description=EVENTS_DOC)
    @blp.alt_response(200, schema=schemas.EventSchema, content_type=NDJSON, description=EVENTS_DOC, success=True)
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, query: dict[str, int], game_id: str) -> Any:
        """The log after version `after`, as the caller may see it; all of it as NDJSON on request"""
        game = games().load(game_id)
        seat = games().seat_of(game, bearer_token())
        if request.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON:
            return Response(stream_with_context(export(games(), game_id, seat, query["after"])), mimetype=NDJSON)
        events = reads().events(game, seat, query["after"], query["limit"])
        more = events and events[-1]["version"] < game.table.version
        page = {"game_id": game_id, "version": game.table.version, "events": events}
        etag = {"ETag": f'"{game.table.version}"'}
        return {**page, "next_after": events[-1]["version"] if more else None}, 200, etag


def export(service: Games, game_id: str, seat: int | None, after: int) -> Iterator[str]:
    """Every event after `after`, one JSON object a line, read a page at a time."""
    game = service.load(game_id)
    while True:
        page = service.store.read(game_id, after=after, limit=PAGE)
        for envelope in page:
            yield json.dumps(feed_item(game.ruleset, game.table, envelope, seat), separators=(",", ":")) + "\n"
        if len(page) < PAGE:
            return
        after = page[-1].version


@blp.route("/<game_id>/events/stream")
class EventStream(MethodView):
    @blp.doc(operationId="streamEvents", security=SEAT_OR_SPECTATOR, parameters=[LAST_EVENT_ID])
    @blp.arguments(schemas.StreamQuerySchema, location="query")
    @blp.response(200)
    @blp.doc(
        responses={"200": {"description": SSE_DOC, "content": {"text/event-stream": {"schema": {"type": "string"}}}}}
    )
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, query: dict[str, int], game_id: str) -> Any:
        """The log live, as Server-Sent Events; resumes after `Last-Event-ID`"""
        game = games().load(game_id)
        seat = games().seat_of(game, bearer_token())
        last = request.headers.get("Last-Event-ID")
        after = header_integer("Last-Event-ID", last) if last is not None else query.get("after", 0)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        body = stream_with_context(live(games(), game_id, seat, after))
        return Response(body, mimetype="text/event-stream", headers=headers)


def live(service: Games, game_id: str, seat: int | None, after: int) -> Iterator[str]:
    """Events as they land, redacted for the caller; a comment every KEEPALIVE_S keeps proxies open.

    The stream keeps its own copy of the table, folding in each event it relays, so a new event
    costs one blocking read and nothing else. It ends once a finished game's last event is sent."""
    yield "retry: 2000\n\n"
    game = service.load(game_id)
    backlog = (
        service.store.read(game_id, after=after, limit=game.table.version - after) if after < game.table.version else []
    )
    for envelope in backlog:
        yield sse(game, envelope, seat)
    after = max(after, game.table.version)
    stream = keys.events(game_id)
    while game.table.status is not Status.FINISHED or game.table.version > after:
        landed = service.store.redis.xread({stream: f"{after}-0"}, count=PAGE, block=KEEPALIVE_S * 1000)
        if not landed:
            yield ": keep-alive\n\n"
            continue
        for _, fields in landed[0][1]:
            envelope = decode(fields[b"e"])
            table = fold(game.ruleset, game.table, [envelope])
            game = Game(game.ruleset, table, envelope.hash, game.token_hashes)
            yield sse(game, envelope, seat)
            after = envelope.version


def sse(game: Game, envelope: Envelope, seat: int | None) -> str:
    data = json.dumps(feed_item(game.ruleset, game.table, envelope, seat), separators=(",", ":"))
    return f"id: {envelope.version}\nevent: {envelope.type}\ndata: {data}\n\n"


@blp.route("/<game_id>/states/<version:version>")
class StateAtVersion(MethodView):
    @blp.doc(operationId="getStateAtVersion", security=SEAT_OR_SPECTATOR)
    @blp.response(200, schemas.GameSchema)
    @blp.alt_response(401, response="UNAUTHORIZED")
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, game_id: str, version: int) -> Any:
        """The caller's view as it was at a version (time travel)"""
        game = games().load(game_id)
        return reads().state_at(game, version, games().seat_of(game, bearer_token()))


@blp.route("/<game_id>/audit")
class Audit(MethodView):
    @blp.doc(operationId="auditGame")
    @blp.response(200, schemas.AuditSchema)
    @blp.alt_response(404, response="NOT_FOUND")
    def get(self, game_id: str) -> Any:
        """Replay the whole log through the rules and check it: `ok`, `event_count`, `head_hash`, `problems`"""
        return reads().audit(game_id).as_dict()
