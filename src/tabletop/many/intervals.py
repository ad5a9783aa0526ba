"""95% confidence intervals for win rates (Wilson score) and their differences (Newcombe)."""

from __future__ import annotations

import math

#: The normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: good at small counts and at
    rates near 0 or 1, where the usual ``p ± z·se`` fails."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or all successes the bound is exact; rounding must not move it.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def difference(s1: int, n1: int, s2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference of two proportions ``s1/n1 - s2/n2`` and its interval
    (Newcombe's hybrid score method, built from the two Wilson intervals)."""
    p1, p2 = (s1 / n1 if n1 else 0.0), (s2 / n2 if n2 else 0.0)
    l1, u1 = wilson(s1, n1, z)
    l2, u2 = wilson(s2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, max(-1.0, low), min(1.0, high)
