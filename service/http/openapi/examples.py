"""Request examples the OpenAPI document shows (a test checks each against its schema and sends it)."""

from __future__ import annotations

from typing import Any

CREATE_GAME: dict[str, dict[str, Any]] = {
    "twelve-gangsters": {
        "summary": "12 Gangsters: three players, Ann holds the Boss token first",
        "value": {
            "ruleset": "twelve-gangsters",
            "seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cat"}],
            "options": {"first_boss": 0},
        },
    },
    "cash-n-guns": {
        "summary": "Ca$h 'n Guns: a player against three bots, a 10-second hold-up window",
        "value": {
            "ruleset": "cash-n-guns",
            "seats": [{"name": "Ann"}, {"bot": "smart"}, {"bot": "random"}, {"bot": "random"}],
            "options": {"aim_window_s": 10, "move_deadline_s": 60},
        },
    },
    "mobsters": {
        "summary": "Mobsters: a player and a seat left open for someone to join, with the attendance rule",
        "value": {"ruleset": "mobsters", "seats": [{"name": "Ann"}, {"open": True}], "options": {"attendance": True}},
    },
}

MOVE: dict[str, dict[str, Any]] = {
    "play": {"summary": "12 Gangsters: play gangster 7, face down", "value": {"type": "play", "card": 7}},
    "load": {"summary": "Ca$h 'n Guns: load a Bang! card", "value": {"type": "load", "card": "bang"}},
    "aim": {"summary": "Ca$h 'n Guns: aim at seat 2", "value": {"type": "aim", "target": 2}},
    "take": {"summary": "Ca$h 'n Guns: take a loot card", "value": {"type": "take", "loot": "cash-5000-01"}},
    "end_phase": {"summary": "Mobsters: end this phase", "value": {"type": "end_phase"}},
    "recruit": {"summary": "Mobsters: recruit a mobster", "value": {"type": "recruit", "card": "mobster:lucky"}},
}
