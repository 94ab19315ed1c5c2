"""Rebuilding every read model from the logs: what `syndicate projections rebuild` does after a drop, a bug fixed
in a projection, or a new read model."""

from __future__ import annotations

from events.player_store import rewrite_players
from service.application.services import Services


def rebuild_read_models(services: Services) -> int:
    """Drop every read model and feed each game's log to them again; then write each player and its name claims as
    its own log leaves them (in place: nobody is locked out meanwhile). How many games."""
    count = services.projections.rebuild()
    rewrite_players(services.players)
    return count
