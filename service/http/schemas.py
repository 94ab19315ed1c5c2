"""Request and response schemas: they validate what comes in and document what goes out.

A body whose shape games/ declares (a game view, an event, a move) has a stand-in here, a `DeclaredInGames`
schema: it is sent as built, and service/http/openapi/document.py documents it with the typed component of the same
name that games/schema.py builds.
"""

from __future__ import annotations

from typing import Any

from flask import request
from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from games.registry import RULESETS
from games.table import bot_kinds
from players.names import name_key, skeleton_key
from service.application.errors import GameNotFoundError, PublicRandomnessNotAcceptedError
from service.http.parsing import StrictInteger

BOTS = sorted(set().union(*(bot_kinds(r) for r in RULESETS.values())))
"""Every kind of bot a seat may be given, in some game."""
BOT_PREFIX = "bot:"
"""How the leaderboard names a bot (`bot:smart`): no player may take such a name."""


def timestamp(required: bool = False, **metadata: object) -> fields.String:
    """A moment the service recorded, sent as it was stored: ISO 8601 in UTC with milliseconds."""
    return fields.String(required=required, metadata={"format": "date-time", **metadata})


def check_name(name: str) -> None:
    if name != name.strip() or any(not c.isprintable() for c in name):
        raise ValidationError("a name has no control characters and no leading or trailing spaces")
    if any(key(name).startswith(BOT_PREFIX) for key in (name_key, skeleton_key)):  # nor look as if it did
        raise ValidationError(f"a name may not start with {BOT_PREFIX!r}: that is how bots are named")


def player_name(required: bool = False, **metadata: object) -> fields.String:
    """A human player's name: 1 to 40 printable characters, never a bot's."""
    return fields.String(required=required, validate=[validate.Length(1, 40), check_name], metadata=metadata)


class DeclaredInGames(Schema):
    """A body built whole by the rules (a view, an event) and sent as it is: its shape is declared in games/ and
    checked there against every view and event of whole games, so nothing is dropped or renamed on the way out.
    The OpenAPI document shows the component of this schema's name that games/schema.py builds."""

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        return obj


class SeatSpecSchema(Schema):
    name = player_name(description="an anonymous human seat (gets a seat token)")
    bot = fields.String(validate=validate.OneOf(BOTS), metadata={"description": "a bot seat"})
    open = fields.Boolean(metadata={"description": "a seat that someone joins later"})
    player = fields.String(
        validate=validate.OneOf(["me"]),
        metadata={"description": "the creator's own seat, as the player of the request's player token"},
    )

    @validates_schema
    def one_kind(self, data: dict[str, Any], **_: object) -> None:
        kinds = [k for k in ("name", "bot", "player") if k in data] + (["open"] if data.get("open") else [])
        if len(kinds) != 1:
            raise ValidationError('a seat is exactly one of {"name"}, {"bot"}, {"player": "me"} or {"open": true}')


class CreateGameSchema(Schema):
    # The enum is documented, not validated here: an unknown ruleset is UnknownRulesetError (`ruleset_named`).
    ruleset = fields.String(required=True, metadata={"enum": sorted(RULESETS), "example": "twelve-gangsters"})
    seats = fields.List(fields.Nested(SeatSpecSchema), required=True, validate=validate.Length(1, 12))
    # Documented as the ruleset's own `<Ruleset>Options` (service/http/openapi/document.py `by_ruleset`).
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "the ruleset's options; one left out takes its default"},
    )
    seed = StrictInteger(
        metadata={
            "description": "makes every shuffle and roll reproducible, and the game's randomness public; at most "
            "2^53 - 1, the largest integer every JSON client reads exactly"
        }
    )


class SeatSummarySchema(Schema):
    """A seat: its number, who holds it (a player's `name` or a `bot` kind), and whether it is still open."""

    seat = fields.Integer(required=True, metadata={"description": "the seat's number, from 0 in play order"})
    name = fields.String(metadata={"description": "a human seat's player"})
    bot = fields.String(validate=validate.OneOf(BOTS), metadata={"description": "a bot seat's kind"})
    player = fields.String(metadata={"description": "the registered player's id, if a player holds the seat"})
    open = fields.Boolean(metadata={"description": "whether the seat is still open (the lobby only)"})
    invited = fields.String(
        metadata={"description": "an open seat kept for this player (its id) by a rematch: only that player takes it"}
    )
    resigned = fields.Boolean(metadata={"description": "the seat resigned: the random bot plays it"})


RULESET_IDS = sorted(RULESETS)
STATUSES = ["waiting", "in_progress", "finished", "aborted"]


class LobbyQuerySchema(Schema):
    status = fields.String(validate=validate.OneOf(STATUSES))
    ruleset = fields.String(validate=validate.OneOf(RULESET_IDS))


class LobbyEntrySchema(Schema):
    game_id = fields.String(required=True)
    ruleset = fields.String(required=True, validate=validate.OneOf(RULESET_IDS))
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    version = fields.Integer(
        required=True,
        metadata={
            "description": "the version at which what the lobby shows (status, seats, tally) last changed; "
            "the game itself may be further on: its own view has its current version"
        },
    )
    created_at = timestamp(required=True)
    moved_at = timestamp(
        required=True,
        description="the minute of the game's last event (`2026-12-01T07:42:00.000Z` for one at 07:42:20): a game "
        "in progress without a move deadline leaves the lists once this is an hour old, and comes back when it moves "
        "again",
    )
    seats = fields.List(fields.Nested(SeatSummarySchema), required=True)
    open_seats = fields.Integer(
        required=True, metadata={"description": "seats anyone may take (not those kept for an invited player)"}
    )
    options = fields.Dict(
        keys=fields.String(),
        required=True,
        metadata={"description": "every option of the game, as its creator set them or by default"},
    )
    randomness = fields.String(
        required=True,
        validate=validate.OneOf(["secret", "public"]),
        metadata={
            "description": "`public`: the creator chose the seed and can compute every hand and draw; such a game "
            "is never offered by a quick match, is not rated, and is joined only with `accept_public_randomness`"
        },
    )
    bots_at = timestamp(
        description="a game waiting for players, with `bots_after_s`: when the house's bots take its open seats "
        "unless someone joins or leaves first (which starts the wait again)"
    )
    winners = fields.List(fields.Integer(), metadata={"description": "a finished game: the seats that won"})
    scores = fields.List(fields.Integer(), metadata={"description": "a finished game: each seat's score, by seat"})


class LeaderboardQuerySchema(Schema):
    # The enum is documented, not validated here, as CreateGameSchema's.
    ruleset = fields.String(required=True, metadata={"enum": RULESET_IDS})


class RatingSchema(Schema):
    """A rating in one ruleset: a player's, a bot kind's, a leaderboard row's."""

    rating = fields.Float(required=True, metadata={"description": "the conservative rating, mu - 3 sigma"})
    mu = fields.Float(required=True, metadata={"description": "the estimated skill"})
    sigma = fields.Float(required=True, metadata={"description": "the uncertainty of the estimate"})
    games = fields.Integer(required=True, metadata={"description": "rated games played"})
    wins = fields.Integer(required=True, metadata={"description": "rated games won, shared victories included"})


class LeaderboardRowSchema(RatingSchema):
    rank = fields.Integer(required=True)
    player = fields.String(metadata={"description": "a player's id (a bot's row has `bot` instead)"})
    bot = fields.String(validate=validate.OneOf(BOTS), metadata={"description": "a bot's kind"})
    name = fields.String(required=True, metadata={"description": "the player's name, or bot:<kind>"})


class LeaderboardSchema(Schema):
    ruleset = fields.String(required=True, validate=validate.OneOf(RULESET_IDS))
    players = fields.List(fields.Nested(LeaderboardRowSchema), required=True)


class JoinSchema(Schema):
    name = player_name(description="the name of an anonymous seat; leave it out with a player token")
    accept_public_randomness = fields.Boolean(
        load_default=False,
        metadata={
            "description": "needed (true) to join a game whose randomness is public: its creator chose the seed, "
            f"so it can compute every hand and draw (409 `{PublicRandomnessNotAcceptedError.code}` without it)"
        },
    )


class AutoPassSchema(Schema):
    decisions = fields.List(
        fields.String(validate=validate.Length(min=1, max=40)),
        required=True,
        validate=validate.Length(max=20),
        metadata={
            "description": "the decisions the house passes for your seat, as soon as each is owed, whatever you hold "
            "(the ruleset's `passes`); empty: it passes none"
        },
    )


class MoveSchema(DeclaredInGames):
    """A move: its `type`, which the ruleset's `parse_move` reads with the fields that type takes. Documented
    as `Move`, the union of every ruleset's move types (games/schema.py)."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True)


IDEMPOTENCY_KEY_MAX = 100
"""The longest `Idempotency-Key` a move may send (characters)."""


def move_read() -> dict[str, Any] | None:
    """What MoveSchema loads from a move's body, where the body is one it takes as it is (an object whose `type`
    is a string, the rest its own): a move's parse, every move, without marshmallow; None for any other."""
    body = request.get_json(silent=True) if request.is_json else None
    return dict(body) if isinstance(body, dict) and isinstance(body.get("type"), str) else None


class MoveHeadersSchema(Schema):
    if_match = fields.String(
        data_key="If-Match",
        metadata={
            "description": 'the version the move is meant for, e.g. "5" (or the ETag of the seat\'s view, "5-0")'
        },
    )
    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Length(1, IDEMPOTENCY_KEY_MAX),
        metadata={"description": "a retry with the same key and body returns the first answer"},
    )


def move_headers_read() -> dict[str, str] | None:
    """What MoveHeadersSchema loads from a move's headers, where they fit it (every move that is not refused):
    None for any other."""
    sent = request.headers
    read = {
        name: sent[key]
        for name, key in (("if_match", "If-Match"), ("idempotency_key", "Idempotency-Key"))
        if key in sent
    }
    key = read.get("idempotency_key")
    return read if key is None or 1 <= len(key) <= IDEMPOTENCY_KEY_MAX else None


class EventsQuerySchema(Schema):
    after = StrictInteger(load_default=0)
    limit = StrictInteger(1, 1000, load_default=100)


class GameSchema(DeclaredInGames):
    """A game as the caller may see it: `Game`, one schema per ruleset (games/schema.py)."""


class CreatedGameSchema(DeclaredInGames):
    """A new game as a spectator sees it, with the tokens of its human seats: `CreatedGame`."""


class EventSchema(DeclaredInGames):
    """One event of the log as the caller may see it: `Event`, one schema per event type."""


class SeatTokenSchema(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(
        required=True, metadata={"description": "the seat's secret; send it as `Authorization: Bearer`"}
    )


class JoinedSchema(Schema):
    seat = fields.Integer(required=True, metadata={"description": "the seat taken"})
    token = fields.String(
        metadata={"description": "its secret, handed out once; none for a player, whose own token acts for the seat"}
    )
    game = fields.Nested(GameSchema, required=True)


class EventPageSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "the game's version now"})
    events = fields.List(fields.Nested(EventSchema), required=True)
    next_after = fields.Integer(
        required=True, allow_none=True, metadata={"description": "pass as `after` for the next page"}
    )


class MoveResultSchema(Schema):
    version = fields.Integer(required=True, metadata={"description": "the game's version after the move"})
    events = fields.List(fields.Nested(EventSchema), required=True, metadata={"description": "what the move made"})
    game = fields.Nested(GameSchema, required=True)


class StreamQuerySchema(Schema):
    after = StrictInteger(metadata={"description": "or send Last-Event-ID"})
    ticket = fields.String(
        validate=validate.Length(1, 100),
        metadata={"description": "a ticket from `POST …/stream-tickets`: opens that seat's feed, once"},
    )


class TicketSchema(Schema):
    """What opens a live feed once, for EventSource (which cannot send a token)."""

    ticket = fields.String(metadata={"description": "single use; pass it as `?ticket=` to the live feed"})
    expires_in_s = fields.Integer(metadata={"description": "seconds the ticket stays valid if unused"})
    stream = fields.String(metadata={"description": "the live feed's URL with the ticket, ready for EventSource"})


class StreamTicketSchema(TicketSchema):
    seat = fields.Integer()


class AuditProblemSchema(Schema):
    version = fields.Integer(required=True, allow_none=True, metadata={"description": "the event it concerns"})
    check = fields.String(required=True, metadata={"description": "what was checked, e.g. `chain`"})
    detail = fields.String(required=True)


class AuditSchema(Schema):
    game_id = fields.String(required=True)
    ok = fields.Boolean(required=True)
    event_count = fields.Integer(required=True)
    head_hash = fields.String(
        required=True, metadata={"description": "the hash of the last event: the head of the chain"}
    )
    problems = fields.List(fields.Nested(AuditProblemSchema), required=True)


class GameResultSchema(Schema):
    game_id = fields.String(required=True)
    ruleset = fields.String(required=True, validate=validate.OneOf(RULESET_IDS))
    version = fields.Integer(required=True)
    tallied = fields.Boolean(
        required=True, metadata={"description": "whether the game_tallied event has been recorded"}
    )
    seats = fields.List(fields.Nested(SeatSummarySchema), required=True)
    scores = fields.List(fields.Integer(), required=True)
    ranks = fields.List(
        fields.Integer(allow_none=True), required=True, metadata={"description": "1 is best; null: out of the running"}
    )
    winners = fields.List(fields.Integer(), required=True)
    tie_break = fields.String(
        required=True, allow_none=True, metadata={"description": "the criterion that separated the leaders"}
    )
    tie_breakers = fields.List(fields.String(), required=True)
    details = fields.Dict(required=True, metadata={"description": "what else the ruleset tells of its end"})


def win_chance(description: str) -> fields.Float:
    return fields.Float(required=True, validate=validate.Range(0, 1), metadata={"description": description})


class ReviewedDecisionSchema(Schema):
    """A decision of a seat, judged from the seat's own view just before it: what the seat knew, nothing more."""

    version = fields.Integer(required=True, metadata={"description": "the version of the move's first event"})
    seat = fields.Integer(required=True)
    by = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(["bot", "deadline"]),
        metadata={"description": "who moved for the seat: null its player, `bot` its bot, `deadline` the house"},
    )
    move = fields.Nested(MoveSchema, required=True, metadata={"description": "the move made"})
    chance_before = win_chance("the seat's estimated chance to win before the move, 0 to 1")
    chance_after = win_chance("the seat's estimated chance to win after the move made")
    best = fields.Nested(
        MoveSchema, required=True, metadata={"description": "the move the house's strongest bot would have made"}
    )
    loss = win_chance("how much chance the move gave away against the best move: 0 when it was as good")


class ReviewSchema(Schema):
    format = fields.Integer(
        required=True, metadata={"description": "how the review was made: a review of an older format is made again"}
    )
    game_id = fields.String(required=True)
    ruleset = fields.String(required=True, validate=validate.OneOf(RULESET_IDS))
    decisions = fields.List(
        fields.Nested(ReviewedDecisionSchema),
        required=True,
        metadata={"description": "every move a seat made, in the order of the log"},
    )


class ReviewPendingSchema(Schema):
    game_id = fields.String(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(["pending"]), metadata={"description": "the review is being made"}
    )
    retry_after_s = fields.Integer(
        required=True, metadata={"description": "when to ask again, in seconds (as the `Retry-After` header says)"}
    )


class OptionSchema(Schema):
    name = fields.String(required=True)
    type = fields.String(
        required=True,
        validate=validate.OneOf(["integer", "boolean"]),
        metadata={"description": "the option's JSON Schema type"},
    )
    default = fields.Raw(
        required=True,
        allow_none=True,
        metadata={"anyOf": [{"type": "integer"}, {"type": "boolean"}, {"type": "null"}]},
    )
    description = fields.String(required=True)
    minimum = fields.Integer(
        required=True, allow_none=True, metadata={"description": "the least value an integer option takes"}
    )
    maximum = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "the greatest value; null for a seat's number (up to the game's last seat)"},
    )


class RulesetSchema(Schema):
    id = fields.String(required=True, validate=validate.OneOf(RULESET_IDS))
    name = fields.String(required=True)
    min_players = fields.Integer(required=True)
    max_players = fields.Integer(required=True)
    description = fields.String(required=True, metadata={"description": "what the game is, in a sentence"})
    rules = fields.String(
        required=True,
        metadata={
            "description": "the game's rules as this service plays them, with its rulings where the rulebook is"
            " silent (Markdown)"
        },
    )
    options = fields.List(
        fields.Nested(OptionSchema),
        required=True,
        metadata={"description": "each option's bounds are in the ruleset's `<Ruleset>Options` schema"},
    )
    bots = fields.List(
        fields.String(validate=validate.OneOf(BOTS)),
        required=True,
        metadata={"description": 'the kinds of bot a seat of this game may be given (`{"bot": kind}`)'},
    )
    bot_descriptions = fields.Dict(
        keys=fields.String(validate=validate.OneOf(BOTS)),
        values=fields.String(),
        required=True,
        metadata={"description": "how each kind of bot in `bots` plays, in a sentence"},
    )
    bot_ratings = fields.Dict(
        keys=fields.String(validate=validate.OneOf(BOTS)),
        values=fields.Nested(RatingSchema, allow_none=True),
        required=True,
        metadata={
            "description": "each kind of bot in `bots` as the leaderboard rates it in this game now (`GET "
            "/v1/leaderboard?ruleset=<id>`, its row `bot:<kind>`), from the rated games it has played; null until "
            "it has played one"
        },
    )
    move_types = fields.List(fields.String(), required=True)
    passes = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "the decisions a seat may ask the house to pass for it (`POST /v1/games/{id}/auto-pass`)"
        },
    )
    moves = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(),
        required=True,
        metadata={"description": "JSON Schema of each move type (in this document: `<Ruleset><Move>`)"},
    )


class HealthSchema(Schema):
    status = fields.String(required=True, validate=validate.OneOf(["ok", "degraded"]))
    redis = fields.String(required=True, validate=validate.OneOf(["ok", "unreachable"]))


class ReadinessSchema(HealthSchema):
    queue = fields.String(required=True, validate=validate.OneOf(["ok"]))


class LivenessSchema(Schema):
    status = fields.String(required=True, validate=validate.OneOf(["ok"]))


class ProblemSchema(Schema):
    """An error (RFC 9457): `code` is stable, for programs; `title` and `detail` are for people."""

    type = fields.String(required=True, metadata={"example": "about:blank"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    code = fields.String(required=True, metadata={"example": GameNotFoundError.code})
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.Raw(),
        metadata={
            "description": "422 only, when the request does not fit its schema: the messages by location "
            '(`json`, `query`, `headers`) and field, e.g. {"json": {"seats": ["Missing data for required field."]}}'
        },
    )
