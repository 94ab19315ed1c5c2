"""The HTTP API: one blueprint per resource."""

from service.api import games, health, history, leaderboard, rulesets

BLUEPRINTS = (rulesets.blp, games.blp, history.blp, leaderboard.blp, health.blp)
