"""Both games, the template game (Liar's Dice), and every shipped house rule
and official variant, pass the conformance kit (tabletop.testing): twin
states show a seat the same, twin histories that part where a seat may not
see show it the same until it sees them differ, hidden events stay hidden,
the fast path is the plain rules, notation and log lines round-trip, and
hostile lines are refused cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest

import tabletop.api
from tabletop import testing

ROOT = Path(__file__).parent.parent
HOUSE_RULES = ROOT / "variants" / "house_rules"
TEMPLATE = ROOT / "examples" / "liars_dice"
SEATS = {"glux": (2, 3, 4), "glyph-chess": (2, 3), "liars-dice": (2, 3, 4)}
NAMES = ("ann", "ben", "cy", "dee")
#: Games played for each, and the decisions they must check at the least
#: (a game of Liar's Dice is a handful of bids).
GAMES = {"glux": 2, "glyph-chess": 2, "liars-dice": 8}
LEAST = {"glux": 20, "glyph-chess": 20, "liars-dice": 15}
#: Twin histories a game is held to, and the steps each pair is played on.
PAIRS = 4
STEPS = 12


def registry():
    return tabletop.api.registry([HOUSE_RULES, TEMPLATE, TEMPLATE / "house_rules"])


def variants_of(game: str) -> list[str]:
    return sorted(name for name, variant in registry().variants.items() if variant.game == game)


@pytest.mark.parametrize("seats", [(g, n) for g, counts in SEATS.items() for n in counts], ids=str)
def test_each_game_conforms_with_the_official_rules(seats):
    game, count = seats
    # Glyph Chess games run to 1,000 events and more: every second decision.
    every = 2 if game == "glyph-chess" else 1
    checked = testing.conform(
        registry(),
        game,
        NAMES[:count],
        games=GAMES[game],
        seed=f"conform {count}",
        every=every,
        pairs=PAIRS,
        steps=STEPS,
    )
    assert checked > LEAST[game]


@pytest.mark.parametrize("variant", [(g, v) for g in SEATS for v in variants_of(g)], ids=lambda p: p[1])
def test_each_game_conforms_with_each_house_rule(variant):
    game, name = variant
    players = NAMES[: max(SEATS[game]) - 1]
    # A Glyph Chess game is some 800 events against Glüx's 200: every sixth
    # decision of one checks as many as every second of a Glüx game.
    every = 6 if game == "glyph-chess" else 2
    games = GAMES[game] // 2
    checked = testing.conform(
        registry(), game, players, [name], games=games, seed=name, every=every, pairs=PAIRS, steps=STEPS
    )
    assert checked > 5


def test_the_test_game_conforms():
    """Pile, the core's test game: a secret draw and secret simultaneous picks."""
    registry = tabletop.api.registry([Path(__file__).parent / "plugins" / "pile.py"])
    assert testing.conform(registry, "pile", ("ann", "ben", "cy"), games=5) > 5
