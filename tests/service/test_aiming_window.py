"""Timing is a rule in Ca$h 'n Guns: an aim that arrives after the window has closed holds nobody up,
even before the deadline job has run."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from flask import Flask

from service.http import context
from tests.client import ApiClient, Table


def hold_up(api: ApiClient) -> Table:
    """Four seats have loaded; the one-second window is open; seats 0 and 1 have aimed."""
    seats = [{"name": f"P{i}"} for i in range(4)]
    table = api.create("cash-n-guns", seats=seats, options={"first_godfather": 0, "aim_window_s": 1}, seed=5)
    for seat in range(4):
        assert api.send(table, seat, {"type": "load", "card": "click"}).status_code == 200
    for seat in (0, 1):
        assert api.send(table, seat, {"type": "aim", "target": 2}).status_code == 200
    return table


def test_an_aim_after_the_window_is_refused_and_the_late_seats_aim_at_nobody(app: Flask, api: ApiClient) -> None:
    table = hold_up(api)
    later = datetime.now(UTC) + timedelta(seconds=2)
    clock = lambda: later.isoformat(timespec="milliseconds").replace("+00:00", "Z")  # noqa: E731
    context.attach(app, dataclasses.replace(context.services_of(app), clock=clock))
    late = api.send(table, 2, {"type": "aim", "target": 3})
    assert late.status_code == 409 and late.json["code"] == "not_aiming_phase"
    drawn = [e for e in api.events(table) if e["type"] == "cash_n_guns.guns_drawn"]
    assert len(drawn) == 1
    assert drawn[0]["payload"]["late"] == [2, 3]
    assert drawn[0]["payload"]["aims"] == [2, 2, None, None]
    assert drawn[0]["seat"] is None  # the house closed the window, no seat


def test_an_aim_within_the_window_holds_up_its_target(api: ApiClient) -> None:
    table = hold_up(api)
    assert api.send(table, 2, {"type": "aim", "target": 3}).status_code == 200
    assert api.send(table, 3, {"type": "aim", "target": 0}).status_code == 200  # the last aim closes it early
    [drawn] = [e for e in api.events(table) if e["type"] == "cash_n_guns.guns_drawn"]
    assert drawn["payload"] == {"aims": [2, 2, 3, 0], "late": []}
