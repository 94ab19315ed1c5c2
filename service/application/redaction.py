"""Events as a caller may see them: redacted by the rules, the command left with its author."""

from __future__ import annotations

from typing import Any

from events.envelope import Envelope
from events.repository import event_of
from games import table as tables
from games.base import EVERYONE, SPECTATOR, Event, Ruleset, Viewer
from games.table import Status, Table


def viewer_of(table: Table[Any], seat: int | None) -> Viewer:
    """Who the caller is to the rules: once a game is over, everyone sees everything."""
    if table.status is Status.FINISHED:
        return EVERYONE
    return SPECTATOR if seat is None else seat


def feed_item(
    ruleset: Ruleset[Any], table: Table[Any], envelope: Envelope, seat: int | None, event: Event | None = None
) -> dict[str, Any]:
    """One event of the log as the caller may see it, given the game as it stands (`event`: the envelope's,
    when the caller has it already)."""
    viewer = viewer_of(table, seat)
    if viewer == EVERYONE:
        payload = envelope.payload
    else:
        payload = tables.event_view(ruleset, event or event_of(envelope), viewer)
    sees_command = viewer == EVERYONE or (seat is not None and seat == envelope.seat)
    item: dict[str, Any] = {
        "game_id": envelope.game_id,
        "version": envelope.version,
        "type": envelope.type,
        "schema_version": envelope.schema_version,
        "seat": envelope.seat,
        "at": envelope.at,
        # Everyone sees the stored payload verbatim, so an exported log's hashes check out.
        "payload": payload,
        "prev_hash": envelope.prev_hash,
        "hash": envelope.hash,
    }
    if sees_command:
        item["command_id"] = envelope.command_id
        if envelope.command is not None:
            item["command"] = envelope.command
    # The nonce goes only to those who see the whole event, its command and command id included: to anyone
    # else, the hash over a hidden card or choice is not a guess they can check (nor is it a hash they could).
    if envelope.nonce and payload == envelope.payload and sees_command:
        item["nonce"] = envelope.nonce
    return item
