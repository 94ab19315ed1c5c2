"""Request and response schemas of players, ratings, the quick match and a seat's life (leave, rematch)."""

from __future__ import annotations

import re
from typing import Any

from marshmallow import Schema, ValidationError, fields, pre_load, validate, validates_schema

from service.http.parsing import StrictInteger
from service.http.schemas import RULESET_IDS, LobbyEntrySchema, RatingSchema, TicketSchema, player_name, timestamp


class RegisterPlayerSchema(Schema):
    name = player_name(
        required=True, description="unique among players, whatever its case, and like none of theirs in look (UTS #39)"
    )


class PlayerTokenSchema(Schema):
    token_id = fields.String(required=True, metadata={"description": "names the token, to revoke it"})
    issued_at = timestamp(required=True)


class IssuedTokenSchema(Schema):
    token_id = fields.String(required=True)
    token = fields.String(
        required=True, metadata={"description": "the secret, shown once; send it as `Authorization: Bearer`"}
    )


class RegisteredPlayerSchema(IssuedTokenSchema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    created_at = timestamp(required=True)


class PlayerSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    created_at = timestamp(required=True)
    ratings = fields.Dict(
        keys=fields.String(validate=validate.OneOf(RULESET_IDS)),
        values=fields.Nested(RatingSchema),
        required=True,
        metadata={"description": "by ruleset, for each ruleset the player has a rated game in"},
    )
    recent_games = fields.List(fields.Nested(LobbyEntrySchema), required=True, metadata={"description": "newest first"})


class MeSchema(PlayerSchema):
    tokens = fields.List(fields.Nested(PlayerTokenSchema), required=True, metadata={"description": "live tokens"})


NOTICE = re.compile(r"0|[0-9]{1,15}-[0-9]{1,15}")
"""Where a player's feed resumes: after a notice's id, or `0` (before every notice kept)."""
NOTICE_PATTERN = f"^(?:{NOTICE.pattern})$"


class PlayerStreamQuerySchema(Schema):
    after = fields.String(
        metadata={"description": "or send Last-Event-ID; `0`: every notice kept", "pattern": NOTICE_PATTERN}
    )
    ticket = fields.String(
        validate=validate.Length(1, 120),
        metadata={"description": "a ticket from `POST /v1/players/me/stream-tickets`: opens the feed, once"},
    )


class PlayerStreamTicketSchema(TicketSchema):
    pass


class QuickMatchSchema(Schema):
    ruleset = fields.String(required=True, validate=validate.OneOf(RULESET_IDS))
    seat_count = StrictInteger(
        1, required=True, metadata={"description": "how many seats the game has, the caller's among them"}
    )
    seats = StrictInteger(
        1,
        metadata={
            "deprecated": True,
            "description": "the old name of `seat_count`, still taken alone: `seats` is a list of seat specs "
            "where a game is created (`POST /v1/games`)",
        },
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={
            "description": "the options of the game to join or create (the ruleset's defaults for any left out): "
            "only a game with exactly these options is joined"
        },
    )

    @pre_load
    def old_name(self, data: Any, **_: object) -> Any:
        """`seats`, sent alone, is read as `seat_count`."""
        if isinstance(data, dict) and "seats" in data and "seat_count" not in data:
            data = {**data, "seat_count": data["seats"]}
            del data["seats"]
        return data

    @validates_schema
    def one_name(self, data: dict[str, Any], **_: object) -> None:
        if "seats" in data:
            raise ValidationError("send `seat_count` alone: `seats` is its old name", "seats")


class QuickMatchResultSchema(Schema):
    seat = fields.Integer(required=True, metadata={"description": "the seat the caller's player holds"})
    created = fields.Boolean(required=True, metadata={"description": "whether no game had room, so one was made"})
    game = fields.Nested(
        LobbyEntrySchema,
        required=True,
        metadata={"description": "the game joined or created: its seats, its options, and its randomness (secret)"},
    )


PLAYER_LAST_EVENT_ID = {
    "in": "header",
    "name": "Last-Event-ID",
    "required": False,
    "description": "resume after this notice (a reconnecting EventSource sends it); wins over `after`",
    "schema": {"type": "string", "pattern": NOTICE_PATTERN},
}
"""The header the player's feed reads itself (service/http/resources/players.py)."""
