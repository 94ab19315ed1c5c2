"""Folding a game's log into its table: the one way any state is rebuilt from events."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from events.envelope import Envelope
from events.registry import from_payload
from games import table as tables
from games.base import Event, Ruleset
from games.registry import RULESETS
from games.table import Table


def event_of(envelope: Envelope) -> Event:
    """The event inside an envelope, upcast to its current schema."""
    return from_payload(envelope.type, envelope.schema_version, envelope.payload)


def ruleset_of(first: Envelope) -> Ruleset[Any]:
    """A game's rules, named by its first event."""
    return RULESETS[first.payload["ruleset"]]


def fold(ruleset: Ruleset[Any], table: Table[Any] | None, envelopes: Iterable[Envelope]) -> Table[Any] | None:
    """The table after the given events, starting from `table` (None: from the beginning)."""
    for envelope in envelopes:
        table = tables.evolve(ruleset, table, event_of(envelope), envelope.at)
    return table
