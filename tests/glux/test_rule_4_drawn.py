"""Rule 4 under a house rule (a chip may not cover every chip) is asked of a
covered square only where it can matter: when the turn's placements are
counted, or when the random bot draws a placement there. The draw stays
uniform over the legal placements."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from tabletop import Decide, Registry, get_plugin_manager
from tabletop.play.live import selfplay
from tabletop_glux.placement import Covered

HOUSE_RULES = Path(__file__).resolve().parents[2] / "variants" / "house_rules"

VARIANTS = [("glux-cover-fewer",), ("glux-wrapped-cover-by-face",), ("glux-wrapped-cover",)]


@pytest.fixture(scope="module")
def registry() -> Registry:
    return Registry(get_plugin_manager(sorted(HOUSE_RULES.glob("glux_*.py")), environment=False))


def _covered_listings(registry, variants, seed, players=3):
    """Each listing of a self-played game's placements under ``variants``
    that rule 4 may cut, with the plain rules' listing of the same turn."""
    names = ["ann", "ben", "cat", "dan"][:players]
    header, _, events = selfplay(registry, "glux", names, [registry.bot("random", "glux")] * players, seed, variants)
    game = registry.game(header)
    fast = game.fast()
    state, live = game.initial(), fast.thaw(game.initial())
    for event in events:
        node = game.next(state)
        if isinstance(node, Decide) and state.began:
            listing = fast.legal(live, event.player)
            if isinstance(listing, Covered):
                yield listing, list(game.legal(state, event.player))
        state = game.apply(state, event)
        fast.apply(live, event)


@pytest.mark.parametrize("variants", VARIANTS)
def test_rule_4_each_legal_placement_is_in_exactly_one_slot(registry, variants):
    met = refused = 0
    for listing, plain in _covered_listings(registry, variants, "slots"):
        slots = [listing.slot(i) for i in range(len(listing.placements))]
        held = Counter(p for p in slots if p is not None)
        assert held == Counter(plain) and set(held.values()) == {1}
        assert list(listing) == plain and len(listing) == len(plain) and bool(listing) is bool(plain)
        met += 1
        refused += slots.count(None)
    # The scenario reaches squares rule 4 refuses (a wrapper refuses nothing).
    assert met > 10 and (refused > 0) is (variants == ("glux-cover-fewer",))


def test_rule_4_the_random_draw_is_uniform_over_the_legal_placements(registry):
    """Over one listing that rule 4 cuts, 200 draws per placement: each
    placement is drawn about as often as any other (chi-square, 0.1%)."""
    for listing, plain in _covered_listings(registry, ("glux-cover-fewer",), "uniform"):
        if None in (listing.slot(i) for i in range(len(listing.placements))) and len(plain) >= 4:
            break
    else:  # pragma: no cover - the seed reaches such a listing
        raise AssertionError("no listing with a refused placement")
    rng = random.Random(7)
    draws = Counter(listing.sample(rng) for _ in range(200 * len(plain)))
    assert set(draws) == set(plain)
    expected = 200
    chi2 = sum((draws[p] - expected) ** 2 / expected for p in plain)
    # The 99.9th percentile of chi-square with k-1 degrees of freedom, k <= 60: at most 100.
    assert chi2 < 100, chi2


def test_rule_4_a_draw_asks_only_the_squares_drawn(registry):
    asked_in_all = asked_by_draws = 0
    for listing, _ in _covered_listings(registry, ("glux-wrapped-cover",), "asks"):
        listing.sample(random.Random(1))
        asked_by_draws += len(listing.asked)
        asked_in_all += len(listing.covered)
    assert asked_by_draws < asked_in_all / 2
