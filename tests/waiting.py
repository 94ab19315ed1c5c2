"""Waiting in tests for something another process does: a server up, a bot's move, a tally."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import requests


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
