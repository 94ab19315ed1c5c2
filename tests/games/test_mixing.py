"""The mixed strategies every bot draws its hidden choices from (games/mixing.py): within the ceiling always, the
best candidates first, spread out as far as the price says (no distribution within the ceiling does better at
that price), ties even, and drawn as they say."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import mixing

worths = st.lists(st.floats(min_value=-1, max_value=1, allow_nan=False), min_size=1, max_size=12)


@given(worths, st.floats(min_value=0, max_value=2), st.floats(min_value=0, max_value=1))
def test_a_strategy_is_a_distribution_within_its_ceiling(worth: list[float], price: float, above: float) -> None:
    k = len(worth)
    ceiling = 1 / k + above * (1 - 1 / k)

    for probabilities, top in (
        (mixing.strategy(worth, price), mixing.most(k)),
        (mixing.strategy(worth, price, ceiling), ceiling),
    ):
        assert sum(probabilities) == pytest.approx(1.0)
        assert all(p >= 0 for p in probabilities)
        assert max(probabilities) <= top + 1e-12


@given(
    worths, st.floats(min_value=0, max_value=2), st.lists(st.floats(min_value=0, max_value=1), min_size=12, max_size=12)
)
def test_no_distribution_within_the_ceiling_is_worth_more_at_the_price(
    worth: list[float], price: float, weights: list[float]
) -> None:
    """The strategy is the Lagrangian's optimum: expected worth less the price of the likeliest candidate's chance."""
    k = len(worth)
    uniform = [1 / k] * k
    other = [w / sum(weights[:k]) for w in weights[:k]] if sum(weights[:k]) > 0 else uniform
    if max(other) > mixing.most(k):  # mixed with the uniform distribution until it is within the ceiling
        t = (mixing.most(k) - 1 / k) / (max(other) - 1 / k)
        other = [t * q + (1 - t) * u for q, u in zip(other, uniform, strict=True)]

    def value(p: list[float]) -> float:
        return sum(pi * wi for pi, wi in zip(p, worth, strict=True)) - price * max(p)

    assert value(other) <= value(mixing.strategy(worth, price)) + 1e-9


@given(worths, st.floats(min_value=0, max_value=2))
def test_a_better_candidate_is_never_less_likely_and_equal_ones_are_alike(worth: list[float], price: float) -> None:
    probabilities = mixing.strategy(worth, price)

    for i, (a, pa) in enumerate(zip(worth, probabilities, strict=True)):
        for b, pb in zip(worth[i + 1 :], probabilities[i + 1 :], strict=True):
            if a == b:
                assert pa == pytest.approx(pb)
            else:
                assert (pa - pb) * (a - b) >= -1e-12


def test_no_candidate_is_ever_surer_than_9_in_10_nor_3_times_a_blind_guess() -> None:
    assert [mixing.most(k) for k in (2, 3, 4, 6, 12)] == pytest.approx([0.9, 0.9, 0.75, 0.5, 0.25])
    assert mixing.strategy([0.2, 0.9]) == pytest.approx([0.1, 0.9])
    assert mixing.strategy([0.1, 0.4, 0.3, 0.2]) == pytest.approx([0.0, 0.75, 0.25, 0.0])


def test_between_two_the_better_gets_the_ceiling_when_it_is_better_by_more_than_the_price() -> None:
    assert mixing.strategy([0.9, 0.1], price=0.05) == pytest.approx([0.9, 0.1])
    assert mixing.strategy([0.5, 0.4], price=0.09) == pytest.approx([0.9, 0.1])
    assert mixing.strategy([0.5, 0.4], price=0.11) == pytest.approx([0.5, 0.5])
    assert mixing.strategy([0.52, 0.5], price=0.05) == pytest.approx([0.5, 0.5])


def test_a_high_price_spreads_the_chance_over_the_candidates_nearly_as_good() -> None:
    probabilities = mixing.strategy([0.9, 0.88, 0.87, 0.1], price=1.0)

    assert probabilities == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0.0])


def test_a_preference_puts_a_fixed_chance_on_the_preferred() -> None:
    assert mixing.preferring([0.0, 1.0]) == pytest.approx([0.35, 0.65])
    assert mixing.preferring([0.1, 0.4, 0.3, 0.2]) == pytest.approx([0.025, 0.325, 0.325, 0.325])
    assert mixing.preferring([1.0, 1.0, 1.0]) == pytest.approx([1 / 3] * 3)


def test_a_single_candidate_is_certain_and_a_ceiling_under_chance_is_refused() -> None:
    assert mixing.strategy([3.0]) == [1.0]
    with pytest.raises(ValueError):
        mixing.strategy([1.0, 2.0], ceiling=0.4)


def test_a_draw_follows_the_probabilities() -> None:
    choices = mixing.mixed([{"card": 1}, {"card": 2}, {"card": 3}], [0.5, 0.3, 0.2])
    rng = random.Random(4)

    drawn = Counter(mixing.draw(choices, rng)["card"] for _ in range(20000))

    assert [drawn[c] / 20000 for c in (1, 2, 3)] == pytest.approx([0.5, 0.3, 0.2], abs=0.015)


def test_equal_moves_are_merged_and_impossible_ones_left_out() -> None:
    end = {"type": "end_phase"}
    recruit = {"type": "recruit", "card": "mobster:tony"}

    assert mixing.mixed([recruit, end, end], [0.6, 0.4, 0.0]) == [(recruit, 0.6), (end, 0.4)]
    assert mixing.blend((mixing.certain(recruit), 0.65), (mixing.uniform([recruit, end]), 0.35)) == [
        (recruit, pytest.approx(0.825)),
        (end, pytest.approx(0.175)),
    ]


def test_a_bot_plays_what_its_policy_draws_with_the_same_generator() -> None:
    def policy(view: dict[str, object], rng: random.Random) -> mixing.Mixed:
        rng.random()  # an estimate's sample
        return mixing.uniform([{"card": c} for c in range(1, 7)])

    for seed in range(20):
        generator = random.Random(seed)
        expected = mixing.draw(policy({}, generator), generator)

        assert mixing.play(policy, {}, random.Random(seed)) == expected
