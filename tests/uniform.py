"""Holding a random draw to uniform over the legal decisions."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any


def drawn_uniformly(
    draw: Callable[[random.Random], Any], legal: Sequence, per: int = 300, seed: Any = "uniform"
) -> Counter:
    """``per`` draws for each of ``legal`` by ``draw(rng)``: every decision
    drawn, none but them, each about as often as the others (a chi-square
    test at its 99.9th percentile, its numbers fixed by the seed). Returns
    how often each was drawn."""
    rng = random.Random(seed)
    draws = per * len(legal)
    seen = Counter(draw(rng) for _ in range(draws))
    assert set(seen) == set(legal)
    expected = draws / len(legal)
    chi2 = sum((seen[event] - expected) ** 2 / expected for event in legal)
    df = len(legal) - 1
    if df:
        # Wilson and Hilferty's approximation of the 99.9th percentile.
        assert chi2 < df * (1 - 2 / (9 * df) + 3.09 * (2 / (9 * df)) ** 0.5) ** 3, chi2
    return seen
