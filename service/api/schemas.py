"""Request and response schemas: they validate what comes in and document what goes out."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from games.registry import RULESETS
from service.api.parsing import MAX_INT

BOTS = ("random", "smart")
BOT_PREFIX = "bot:"
"""How the leaderboard names a bot (`bot:smart`): no player may take such a name."""


def check_name(name: str) -> None:
    if name != name.strip() or any(not c.isprintable() for c in name):
        raise ValidationError("a name has no control characters and no leading or trailing spaces")
    if name.casefold().startswith(BOT_PREFIX):
        raise ValidationError(f"a name may not start with {BOT_PREFIX!r}: that is how bots are named")


def player_name(required: bool = False, **metadata: object) -> fields.String:
    """A human player's name: 1 to 40 printable characters, never a bot's."""
    return fields.String(required=required, validate=[validate.Length(1, 40), check_name], metadata=metadata)


class SeatSpecSchema(Schema):
    name = player_name(description="a human seat's player")
    bot = fields.String(validate=validate.OneOf(BOTS), metadata={"description": "a bot seat"})
    open = fields.Boolean(metadata={"description": "a seat that someone joins later"})

    @validates_schema
    def one_kind(self, data: dict, **_: object) -> None:
        kinds = [k for k in ("name", "bot") if k in data] + (["open"] if data.get("open") else [])
        if len(kinds) != 1:
            raise ValidationError('a seat is exactly one of {"name"}, {"bot"} or {"open": true}')


class CreateGameSchema(Schema):
    ruleset = fields.String(required=True, metadata={"example": "twelve-gangsters"})
    seats = fields.List(fields.Nested(SeatSpecSchema), required=True, validate=validate.Length(1, 12))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed = fields.Integer(
        validate=validate.Range(0, 2**63 - 1), metadata={"description": "makes every shuffle and roll reproducible"}
    )


class SeatSchema(Schema):
    seat = fields.Integer()
    name = fields.String()
    bot = fields.String()
    open = fields.Boolean()


class LobbyQuerySchema(Schema):
    status = fields.String(validate=validate.OneOf(["waiting", "in_progress", "finished"]))
    ruleset = fields.String(validate=validate.OneOf(sorted(RULESETS)))


class LobbyEntrySchema(Schema):
    game_id = fields.String()
    ruleset = fields.String()
    status = fields.String()
    version = fields.Integer()
    created_at = fields.String()
    seats = fields.List(fields.Nested(SeatSchema))
    open_seats = fields.Integer()


class LeaderboardQuerySchema(Schema):
    ruleset = fields.String(required=True)


class LeaderboardRowSchema(Schema):
    rank = fields.Integer()
    player = fields.String(metadata={"description": "a player's name, or bot:<kind>"})
    games = fields.Integer()
    wins = fields.Integer(metadata={"description": "games won, shared victories included"})
    points = fields.Integer(metadata={"description": "the sum of the player's final scores"})


class LeaderboardSchema(Schema):
    ruleset = fields.String()
    players = fields.List(fields.Nested(LeaderboardRowSchema))


class JoinSchema(Schema):
    name = player_name(required=True)


class MoveSchema(Schema):
    """A move: its `type` and the fields that type takes."""

    class Meta:
        unknown = INCLUDE
        description = (
            "A move: `type` and the fields that type takes. Each ruleset's move types are listed, with their "
            "JSON Schema, by `GET /v1/rulesets` and under their own names in this document (e.g. `Play`)."
        )

    type = fields.String(required=True, metadata={"example": "play"})


class MoveHeadersSchema(Schema):
    if_match = fields.String(
        data_key="If-Match", metadata={"description": 'the version the move is meant for, e.g. "5"'}
    )
    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Length(1, 100),
        metadata={"description": "a retry with the same key and body returns the first answer"},
    )


class EventsQuerySchema(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(0, MAX_INT))
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))


class AwaitingSchema(Schema):
    seat = fields.Integer()
    decision = fields.String()
    deadline_at = fields.String(
        metadata={
            "format": "date-time",
            "description": "when the decision falls due (UTC); only where a deadline or a time limit runs",
        }
    )


class GameSchema(Schema):
    game_id = fields.String()
    ruleset = fields.String()
    version = fields.Integer(metadata={"description": "the number of events in the game's log"})
    status = fields.String(validate=validate.OneOf(["waiting", "in_progress", "finished"]))
    created_at = fields.String()
    options = fields.Dict()
    seats = fields.List(fields.Nested(SeatSchema))
    seed_commitment = fields.String(metadata={"description": 'sha256 of "<seed>:<salt>", both revealed at the end'})
    randomness = fields.String(
        validate=validate.OneOf(["secret", "public"]),
        metadata={
            "description": "`secret`: the service drew the seed and keeps it and its salt secret until the end. "
            "`public`: the creator gave the seed; it reproduces the game, and whoever knows or guesses it can "
            "compute every shuffle and roll (for tests and replays, not for games whose deal must stay secret)"
        },
    )
    seed = fields.Integer(metadata={"description": "revealed once the game is finished"})
    salt = fields.String(metadata={"description": "revealed once the game is finished"})
    awaiting = fields.List(fields.Nested(AwaitingSchema))
    waiting_since = fields.Integer(
        allow_none=True,
        metadata={
            "description": "the version of the event with which the current wait began (the game's start, a new "
            "round, the next seat's turn): deadlines count from it; null before the game starts"
        },
    )
    time_limit_s = fields.Integer(
        allow_none=True, metadata={"description": "seconds the current wait may last (a deadline, an aiming window)"}
    )
    state = fields.Dict(allow_none=True, metadata={"description": "the game's public state, per ruleset"})
    you = fields.Dict(metadata={"description": "the caller's seat: its private state and `legal_moves`"})


class SeatTokenSchema(Schema):
    seat = fields.Integer()
    token = fields.String(metadata={"description": "the seat's secret; send it as `Authorization: Bearer`"})


class CreatedGameSchema(GameSchema):
    tokens = fields.List(fields.Nested(SeatTokenSchema), metadata={"description": "handed out once"})


class JoinedSchema(Schema):
    seat = fields.Integer()
    token = fields.String()
    game = fields.Nested(GameSchema)


class EventSchema(Schema):
    game_id = fields.String()
    version = fields.Integer()
    schema_version = fields.Integer()
    type = fields.String()
    seat = fields.Integer(allow_none=True, metadata={"description": "the seat whose command caused it"})
    at = fields.String()
    payload = fields.Dict()
    prev_hash = fields.String()
    hash = fields.String(metadata={"description": "sha256 of the event's canonical JSON without `hash`"})
    nonce = fields.String(
        metadata={
            "description": "the event's secret, covered by its hash; shown only to those who see the whole event "
            "(payload and command), and to everyone once the game is over"
        }
    )
    command_id = fields.String(metadata={"description": "shown to the command's author, and to all once finished"})
    command = fields.Dict(metadata={"description": "shown to the command's author, and to all once finished"})


class EventPageSchema(Schema):
    game_id = fields.String()
    version = fields.Integer()
    events = fields.List(fields.Nested(EventSchema))
    next_after = fields.Integer(allow_none=True, metadata={"description": "pass as `after` for the next page"})


class MoveResultSchema(Schema):
    version = fields.Integer()
    events = fields.List(fields.Nested(EventSchema))
    game = fields.Nested(GameSchema)


class StreamQuerySchema(Schema):
    after = fields.Integer(validate=validate.Range(0, MAX_INT), metadata={"description": "or send Last-Event-ID"})
    ticket = fields.String(
        validate=validate.Length(1, 100),
        metadata={"description": "a ticket from `POST …/stream-tickets`: opens that seat's feed, once"},
    )


class StreamTicketSchema(Schema):
    ticket = fields.String(metadata={"description": "single use; pass it as `?ticket=` to the live feed"})
    seat = fields.Integer()
    expires_in_s = fields.Integer(metadata={"description": "seconds the ticket stays valid if unused"})
    stream = fields.String(metadata={"description": "the live feed's URL with the ticket, ready for EventSource"})


class AuditSchema(Schema):
    game_id = fields.String()
    ok = fields.Boolean()
    event_count = fields.Integer()
    head_hash = fields.String(metadata={"description": "the hash of the last event: the head of the chain"})
    problems = fields.List(fields.Dict(), metadata={"description": "each with `version`, `check` and `detail`"})


class ResultSchema(Schema):
    game_id = fields.String()
    ruleset = fields.String()
    version = fields.Integer()
    tallied = fields.Boolean(metadata={"description": "whether the game_tallied event has been recorded"})
    seats = fields.List(fields.Nested(SeatSchema))
    scores = fields.List(fields.Integer())
    ranks = fields.List(fields.Integer(allow_none=True))
    winners = fields.List(fields.Integer())
    tie_break = fields.String(allow_none=True, metadata={"description": "the criterion that separated the leaders"})
    tie_breakers = fields.List(fields.String())
    details = fields.Dict()


class OptionSchema(Schema):
    name = fields.String()
    type = fields.String()
    default = fields.Raw(allow_none=True)
    description = fields.String()


class RulesetSchema(Schema):
    id = fields.String()
    name = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    description = fields.String()
    options = fields.List(fields.Nested(OptionSchema))
    move_types = fields.List(fields.String())
    moves = fields.Dict(metadata={"description": "JSON Schema of each move type"})


class HealthSchema(Schema):
    status = fields.String()
    redis = fields.String()


class LivenessSchema(Schema):
    status = fields.String(metadata={"example": "ok"})


class ProblemSchema(Schema):
    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    code = fields.String()
