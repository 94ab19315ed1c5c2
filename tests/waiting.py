"""Waiting in tests for something another process does: a server up, a bot's move, a tally."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
import requests

from projections import lobby


def wait_for(condition: Callable[[], Any], what: str = "condition", timeout_s: float = 60) -> Any:
    """The first truthy value of `condition`, asked every 0.1 s (an HTTP error counts as not yet)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            value = condition()
        except requests.RequestException:
            value = None
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def one_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every move in this process seen as made in the same minute: the lobby writes a game's entry again at the first
    move of each new minute, one round trip more, so a test that counts a game's round trips plays it within one."""
    monkeypatch.setattr(lobby, "minute_of", lambda at: "2026-12-01T07:42:00.000Z")
