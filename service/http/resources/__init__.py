"""The HTTP API: one blueprint per resource."""

from service.http.resources import games, health, history, leaderboard, players, rulesets

BLUEPRINTS = (rulesets.blp, games.blp, history.blp, leaderboard.blp, players.blp, health.blp)
