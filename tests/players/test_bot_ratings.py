"""Ratings mean something: in a few hundred all-bot games of each ruleset, played in process through the same
rules, bots and rating fold the service uses, the smart bot ends rated above the random bot.

Each game seats one smart bot among random ones, the smart bot's seat turning round the table. The README
quotes what this prints (`pytest -s`): the gap and the win rates."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from games.registry import RULESETS
from games.selfplay import game_seeds, play_out
from projections.ratings import fold, standing_of

PLAN = {"twelve-gangsters": (240, 4), "cash-n-guns": (120, 4), "mobsters": (100, 3)}
"""Games and seats per ruleset: fewer games of the slower rulesets keep the test well under a minute."""


def rated_selfplay(ruleset_id: str, games: int, seats: int, seed: int = 11) -> dict[str, Any]:
    ruleset = RULESETS[ruleset_id]
    standings, wins = [], {"smart": 0, "random": 0}
    for n, game_seed in enumerate(game_seeds(seed, games)):
        kinds = ["random"] * seats
        kinds[n % seats] = "smart"
        table = play_out(ruleset, kinds, game_seed)
        winners = ruleset.result(table.rules).winners
        wins["smart"] += kinds.index("smart") in winners
        wins["random"] += sum(1 for s in winners if kinds[s] == "random")
        # Self-play draws in the open, from the game's seed; the service rates only games whose seed it keeps
        # secret (behind a salt), as it would have kept this one's.
        standing = standing_of(ruleset, msgspec.structs.replace(table, salt="secret"), f"{n:06d}")
        assert standing is not None
        standings.append(standing)
    ratings = fold(standings)
    smart, random = ratings["bot:smart"], ratings["bot:random"]
    return {
        "smart": smart,
        "random": random,
        "gap": smart.ordinal - random.ordinal,
        "smart_win_rate": wins["smart"] / games,
        "random_win_rate": wins["random"] / (games * (seats - 1)),
    }


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_the_smart_bot_is_rated_above_the_random_bot(ruleset_id: str) -> None:
    games, seats = PLAN[ruleset_id]
    found = rated_selfplay(ruleset_id, games, seats)
    smart, random = found["smart"], found["random"]
    print(
        f"\n{ruleset_id}: {games} games of {seats} seats; smart {smart.ordinal:.2f} (mu {smart.mu:.2f}, sigma "
        f"{smart.sigma:.2f}), random {random.ordinal:.2f} (mu {random.mu:.2f}, sigma {random.sigma:.2f}); gap "
        f"{found['gap']:.2f}; smart wins {found['smart_win_rate']:.1%}, a random seat {found['random_win_rate']:.1%}"
    )
    assert smart.ordinal > random.ordinal
    assert smart.mu - smart.sigma > random.mu + random.sigma  # apart by more than both uncertainties
    assert smart.games == random.games == games
