"""Event types by stable name, with schema versions and upcasters.

A stored payload older than its type's current schema version is upcast when read, one version at a
time (`upcasters[n]` takes version n to n + 1); the stored event is never rewritten.
"""

from __future__ import annotations

from typing import Any

import msgspec

from games.base import Event, upcast
from games.registry import RULESETS
from games.table import TABLE_EVENTS

EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls for cls in (*TABLE_EVENTS, *(e for r in RULESETS.values() for e in r.events))
}


class UnknownEventError(Exception):
    """A stored event whose type this service does not know."""


def to_payload(event: Event) -> tuple[str, int, dict[str, Any]]:
    """Type name, schema version and JSON-able payload of an event."""
    return event.type, event.schema_version, msgspec.to_builtins(event)


def from_payload(type_name: str, schema_version: int, payload: dict[str, Any]) -> Event:
    """The event object for a stored payload, upcast to the type's current schema version."""
    cls = EVENT_TYPES.get(type_name)
    if cls is None:
        raise UnknownEventError(type_name)
    return upcast(cls, schema_version, payload)
