"""Bots: players the house seats. A bot sees exactly what its seat may see (the seat's view, as the
API shows it) and answers one of the moves listed there as legal, ready to POST."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Bot = Callable[[dict[str, Any], random.Random], dict[str, Any]]


def random_bot(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Any legal move, uniformly."""
    return rng.choice(view["you"]["legal_moves"])
