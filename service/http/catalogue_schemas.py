"""The card catalogue's response schemas (`GET /v1/rulesets/{id}/cards`); a card's fields are the games' own."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.http.schemas import RULESET_IDS, DeclaredInGames


class CatalogueCardSchema(DeclaredInGames):
    """One card, loot card or token: each game's catalogue declares the fields of its cards (games/schema.py)."""


class CatalogueConstantSchema(Schema):
    value = fields.Raw(metadata={"description": "a number, or a table of numbers keyed as the description says"})
    description = fields.String()


class CatalogueSchema(Schema):
    """Every card and loot id of a game with its numbers, and the rules' other numbers."""

    ruleset = fields.String(validate=validate.OneOf(RULESET_IDS))
    cards = fields.List(fields.Nested(CatalogueCardSchema))
    kinds = fields.Dict(
        keys=fields.String(), values=fields.String(), metadata={"description": "what each kind of card is and does"}
    )
    constants = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(CatalogueConstantSchema),
        metadata={"description": "the rules' other numbers by name: prices, scales, bonuses, rounds"},
    )
