"""The card catalogue's response schemas (`GET /v1/rulesets/{id}/cards`): what each field means, per game."""

from __future__ import annotations

from marshmallow import Schema, fields


class CatalogueBoostSchema(Schema):
    mobster = fields.String(metadata={"description": "a mobster card id"})
    bonus = fields.Integer(metadata={"description": "dollars more when that mobster holds or commits this card"})


class CatalogueCardSchema(Schema):
    """One card, loot card or token, as views, events and moves name it."""

    id = fields.Raw(
        required=True,
        metadata={
            "oneOf": [{"type": "integer"}, {"type": "string"}],
            "description": "the id views, events and moves use: 12 Gangsters' gangsters are integers, others strings",
        },
    )
    kind = fields.String(required=True, metadata={"description": "what kind of card: see `kinds`"})
    name = fields.String(required=True, metadata={"description": "the rulebook's name"})
    value = fields.Integer(
        required=True,
        metadata={
            "description": "what the card is worth by itself, 0 for nothing: a gangster's points; a banknote's or "
            "diamond's dollars; a Mobsters crime's takings, operation's income each Collection, or the dollars a "
            "cost makes its target pay"
        },
    )
    per_seat = fields.Integer(metadata={"description": "how many each seat holds at the start"})
    players = fields.List(
        fields.Integer(), metadata={"description": "the player counts whose games use the card (12 Gangsters)"}
    )
    wounds = fields.Integer(metadata={"description": "wounds the bullet card deals when fired (Ca$h 'n Guns)"})
    bangs = fields.Integer(metadata={"description": "Bang! cards a clip adds to its taker's, at once"})
    heals = fields.Integer(metadata={"description": "wounds a first-aid kit removes from its taker, at once"})
    family = fields.String(
        metadata={"description": "Mobsters: the family of an operation or crime, or the one a mobster earns more on"}
    )
    bonus = fields.Integer(metadata={"description": "a mobster's extra dollars on each card of its family"})
    boosts = fields.List(fields.String(), metadata={"description": "the operations and crimes a mobster earns more on"})
    boosted_by = fields.List(
        fields.Nested(CatalogueBoostSchema), metadata={"description": "the mobsters that earn more on this card"}
    )


class CatalogueConstantSchema(Schema):
    value = fields.Raw(metadata={"description": "a number, or a table of numbers keyed as the description says"})
    description = fields.String()


class CatalogueSchema(Schema):
    """Every card and loot id of a game with its numbers, and the rules' other numbers."""

    ruleset = fields.String()
    cards = fields.List(fields.Nested(CatalogueCardSchema))
    kinds = fields.Dict(
        keys=fields.String(), values=fields.String(), metadata={"description": "what each kind of card is and does"}
    )
    constants = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(CatalogueConstantSchema),
        metadata={"description": "the rules' other numbers by name: prices, scales, bonuses, rounds"},
    )
