"""The random seat's handicap held to the winners: a game's states with the random seat named, and the log loss."""

from __future__ import annotations

import math

import pytest

from benchmarks.handicap import log_loss, samples


@pytest.mark.parametrize("ruleset_id", ["twelve-gangsters", "mobsters"])
def test_a_game_names_the_random_seat_its_handicap_and_the_winners(ruleset_id: str) -> None:
    found = samples(ruleset_id, 3, 7)
    assert 0 < len(found) <= 12
    for chances, at_random, logit, shares in found:
        assert at_random == 7 % 3 and logit >= 0
        assert len(chances) == 3 and math.isclose(sum(shares), 1)


def test_the_log_loss_lowers_the_random_seats_chance_by_its_handicap_scaled() -> None:
    even = [([1 / 3] * 3, 0, 2.0, [1.0, 0.0, 0.0])]  # the random seat won
    assert log_loss(even, 0.0) == pytest.approx(math.log(3))
    assert log_loss(even, 0.5) == pytest.approx(-math.log(math.exp(-1) / (math.exp(-1) + 2)))
    other = [([1 / 3] * 3, 0, 2.0, [0.0, 1.0, 0.0])]  # a smart seat won: the handicap raised its chance
    assert log_loss(other, 1.0) == pytest.approx(-math.log(1 / (math.exp(-2) + 2)))
