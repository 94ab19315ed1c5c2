"""Bots: players the house seats. A bot sees exactly what its seat may see (the seat's view, as the
API shows it) and answers one of the moves listed there as legal, ready to POST. Its code is no secret, so a
choice the table does not see is drawn with the generator it is handed from a mixed strategy (`games.mixing`):
a game's bot is `mixing.play` of its policy, the distribution its move is drawn from (the random bot's is
`random_policy`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games import mixing

Bot = Callable[[dict[str, Any], random.Random], dict[str, Any]]


def random_bot(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Any legal move, uniformly (as `random_policy` says)."""
    return rng.choice(view["you"]["legal_moves"])


def random_policy(view: dict[str, Any], rng: random.Random) -> mixing.Mixed:
    """The random bot's distribution: every legal move alike."""
    return mixing.uniform(view["you"]["legal_moves"])
