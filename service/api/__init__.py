"""The HTTP API: one blueprint per resource."""

from service.api import games, health, leaderboard, rulesets

BLUEPRINTS = (rulesets.blp, games.blp, leaderboard.blp, health.blp)
