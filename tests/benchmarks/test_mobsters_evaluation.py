"""The fit behind Mobsters' evaluation: it finds the weights that made the winners, and measures real games."""

from __future__ import annotations

import math
import random

import pytest

from benchmarks.mobsters_evaluation import NAMES, Sample, chances, fit, log_loss, samples, solve


def test_solve_solves_a_linear_system() -> None:
    a, b = [[0.0, 1.0, 2.0], [1.0, 3.0, 1.0], [4.0, 1.0, 0.0]], [3.0, 9.0, 14.0]  # a zero pivot: rows swapped
    x = solve(a, b)
    assert [sum(aij * xj for aij, xj in zip(row, x, strict=True)) for row in a] == pytest.approx(b)


def test_the_fit_finds_the_weights_the_winners_were_drawn_with() -> None:
    rng = random.Random(5)
    truth = [1.0, -0.5, 0.3]
    data: list[Sample] = []
    for _ in range(3000):
        x = [[rng.gauss(0, 1) for _ in truth] for _ in range(rng.choice((2, 3, 4)))]
        winner = rng.choices(range(len(x)), chances(x, truth))[0]
        data.append((x, [1.0 if seat == winner else 0.0 for seat in range(len(x))]))
    found = fit(data)
    assert found == pytest.approx(truth, abs=0.1)
    assert log_loss(data, found) <= log_loss(data, truth)  # the fit's optimum, on the data it was fitted to


def test_a_game_gives_each_seat_every_measure_and_the_winners_the_win() -> None:
    found = samples((3, 7))
    assert 0 < len(found) <= 12
    for x, shares in found:
        assert len(x) == 3 and all(len(seat) == len(NAMES) for seat in x)
        assert math.isclose(sum(shares), 1)
