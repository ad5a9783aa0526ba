"""Both games, and every shipped house rule and official variant, pass the
conformance kit (tabletop.testing): twin states show a seat the same, hidden
events stay hidden, the fast path is the plain rules, notation and log lines
round-trip, and hostile lines are refused cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest

import tabletop.api
from tabletop import testing

HOUSE_RULES = Path(__file__).parent.parent / "variants" / "house_rules"
SEATS = {"glux": (2, 3, 4), "glyph-chess": (2, 3)}
NAMES = ("ann", "ben", "cy", "dee")


def registry():
    return tabletop.api.registry([HOUSE_RULES])


def variants_of(game: str) -> list[str]:
    return sorted(name for name, variant in registry().variants.items() if variant.game == game)


@pytest.mark.parametrize("seats", [(g, n) for g, counts in SEATS.items() for n in counts], ids=str)
def test_each_game_conforms_with_the_official_rules(seats):
    game, count = seats
    assert testing.conform(registry(), game, NAMES[:count], games=2, seed=f"official {count}") > 20


@pytest.mark.parametrize("variant", [(g, v) for g in SEATS for v in variants_of(g)], ids=lambda p: p[1])
def test_each_game_conforms_with_each_house_rule(variant):
    game, name = variant
    players = NAMES[: max(SEATS[game]) - 1]
    # A Glyph Chess game is some 800 events against Glüx's 200: every sixth
    # decision of one checks as many as every second of a Glüx game.
    every = 6 if game == "glyph-chess" else 2
    checked = testing.conform(registry(), game, players, [name], games=1, seed=name, every=every)
    assert checked > 5


def test_the_test_game_conforms():
    """Pile, the core's test game: a secret draw and secret simultaneous picks."""
    registry = tabletop.api.registry([Path(__file__).parent / "plugins" / "pile.py"])
    assert testing.conform(registry, "pile", ("ann", "ben", "cy"), games=5) > 5
