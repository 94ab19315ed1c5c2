"""The notices a player's live feed tells, one type each: what each says, declared once (projections/notices.py tells
them; the OpenAPI document shows them)."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import UNSET, Meta, UnsetType

from games.base import Move
from games.table import Status

Timestamp = Annotated[str, Meta(extra_json_schema={"format": "date-time"})]


class Told(msgspec.Struct, kw_only=True, tag_field="type"):
    """A notice on a player's feed: of one of its games, and when it was told."""

    game_id: Annotated[str, Meta(description="the game it is about")]
    ruleset: Annotated[str, Meta(description="the game's ruleset")]
    at: Annotated[Timestamp, Meta(description="when it was told (ISO 8601, UTC)")] | UnsetType = UNSET
    """Set as the notice is kept on the feed: every notice a feed sends has it."""


class GameNotice(Told, kw_only=True):
    version: Annotated[int, Meta(ge=0, description="the game's version when it was told")]
    seat: Annotated[int, Meta(ge=0, description="the player's seat in the game")]


class InvitedNotice(GameNotice, kw_only=True, tag="invited"):
    """A rematch keeps a seat for the player: it joins the game to take it."""

    rematch_of: Annotated[str, Meta(description="the game this one replays")]


class SeatedNotice(GameNotice, kw_only=True, tag="seated"):
    """The player took a seat: it created the game, joined it, was matched, or asked for the rematch."""

    status: Annotated[Status, Meta(description="the game's status then")]


class StartedNotice(GameNotice, kw_only=True, tag="started"):
    """A game of the player's started."""


class DecisionDueNotice(GameNotice, kw_only=True, tag="decision_due"):
    """The game waits on the player's seat (a new wait: not again while others decide in the same round)."""

    decision: Annotated[str, Meta(description="the decision owed, as `awaiting` names it")]
    simultaneous: Annotated[
        bool, Meta(description="every seat awaited decides at once (a move needs no `If-Match`), as in `awaiting`")
    ]
    deadline_at: Annotated[
        Timestamp | None, Meta(description="when the house decides for the seat; null without a time limit")
    ]
    legal_moves: Annotated[
        list[Move], Meta(description="every move the seat may make at `version`, each a body ready to POST")
    ]


class FinishedNotice(GameNotice, kw_only=True, tag="finished"):
    """A game of the player's ended."""

    rank: Annotated[int, Meta(ge=1, description="the seat's rank (1 is first; tied seats share a rank)")]
    winners: Annotated[list[int], Meta(description="the winning seats")]


class AbortedNotice(GameNotice, kw_only=True, tag="aborted"):
    """A game of the player's was called off before it started."""


class RatingChangedNotice(Told, kw_only=True, tag="rating_changed"):
    """A tallied game changed the player's rating in its ruleset."""

    rating: Annotated[dict[str, Any], Meta(description="the rating now, as the leaderboard shows it")]
    previous: Annotated[
        dict[str, Any] | None, Meta(description="the rating before, as the leaderboard shows it; null for the first")
    ]


PlayerNotice = (
    InvitedNotice
    | SeatedNotice
    | StartedNotice
    | DecisionDueNotice
    | FinishedNotice
    | AbortedNotice
    | RatingChangedNotice
)
"""Every notice a player's feed tells, by its `type`."""
