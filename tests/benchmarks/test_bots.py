"""`make bench-bots` seats every bot kind a ruleset has, pimc where asked, and tabulates what the arena found."""

from __future__ import annotations

from benchmarks import bots
from games.registry import RULESETS
from service.ops import arena


def test_a_table_seats_every_kind_then_fills_its_seats_again_in_order() -> None:
    # hard, the game's own, random, then pimc; pimc is the first left out of a table too small for them all
    assert bots.lineup("twelve-gangsters", 3, ["twelve-gangsters"]) == ["hard", "smart", "random"]
    assert bots.lineup("twelve-gangsters", 5, ["all"]) == ["hard", "smart", "random", "pimc", "hard"]
    assert bots.lineup("twelve-gangsters", 3, []) == ["hard", "smart", "random"]


def test_pimc_sits_only_in_a_ruleset_with_a_determinize() -> None:
    for ruleset in RULESETS.values():
        assert ("pimc" in bots.kinds(ruleset.id, ["all"])) == (ruleset.determinize is not None)


def test_the_readme_table_has_a_row_a_kind_a_table_best_rated_first() -> None:
    found = arena.run("twelve-gangsters", ["smart", "random", "random"], games=3, seed=1)

    rows = bots.readme_table([found])

    assert len(rows) == 2 + 2
    ordinals = [found.ratings[row.split("`")[3]].ordinal for row in rows[2:]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert "`random` (2)" in "".join(rows)
