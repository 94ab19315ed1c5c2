"""Bots: players the house seats. A bot sees exactly what its seat may see (the seat's view, as the
API shows it) and answers one of the moves listed there as legal, ready to POST. Its code is no secret, so a
choice the table does not see is drawn with the generator it is handed from a mixed strategy (`games.mixing`):
a game's bot is `mixing.play` of its policy, the distribution its move is drawn from (the random bot's is
`random_policy`).

Two kinds serve every game that can have them: `random`, and `hard` (a search, `games.hard`) in every game that
has `determinize`; the others are the game's own (`Ruleset.bots`). `bot_for` is the one place a kind becomes a bot.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games import mixing
from games.base import Ruleset
from games.hard import hard_bot
from games.search import Budget

Bot = Callable[[dict[str, Any], random.Random], dict[str, Any]]

DESCRIPTIONS = {
    "random": "any legal move, every one alike",
    "smart": "the game's own heuristics and sampling, its hidden choices drawn from a mix of its estimates",
    "hard": "searches the game from its seat's view for the time it is given (Information Set MCTS, and "
    "regret matching where everyone decides at once; where the game says so, it expects the others to play as "
    "smart would), its hidden choices drawn from a mix of the chances it found",
}
"""How each kind of bot plays, in a sentence (`GET /v1/rulesets`)."""


def random_bot(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Any legal move, uniformly (as `random_policy` says)."""
    return rng.choice(view["you"]["legal_moves"])


def random_policy(view: dict[str, Any], rng: random.Random) -> mixing.Mixed:
    """The random bot's distribution: every legal move alike."""
    return mixing.uniform(view["you"]["legal_moves"])


def kinds(ruleset: Ruleset[Any]) -> set[str]:
    """The bots that may take a seat of this ruleset: the generic random bot, `hard` where the game can be
    searched, and the game's own."""
    return {"random", *(["hard"] if ruleset.determinize is not None else []), *ruleset.bots}


def bot_for(ruleset: Ruleset[Any], kind: str, budget: Budget | None = None) -> Bot:
    """The bot of this kind for this ruleset (`budget`: a searching bot's time, the default unless given); the
    random bot for a kind the ruleset has not."""
    if kind == "hard" and ruleset.determinize is not None:
        return hard_bot(ruleset, budget or Budget())
    return ruleset.bots.get(kind, random_bot)
