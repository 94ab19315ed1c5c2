"""The HTTP API: one blueprint per resource."""

from service.api import games, health, rulesets

BLUEPRINTS = (rulesets.blp, games.blp, health.blp)
