"""The Wilson score interval: where a win rate measured over a few games may truly lie.

A win rate near 0 or 1 over few games is where the textbook interval (p ± z·sqrt(p(1-p)/n)) fails: it runs past
0 or 1, and is zero wide after no wins at all. Wilson's stays inside [0, 1] and keeps its coverage there.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The standard normal's 97.5th percentile: a two-sided 95% interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The interval (low, high) for the rate of `successes` in `trials`; all of [0, 1] before any trial."""
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes in {trials} trials")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)
