"""The Glüx house rules under variants/house_rules/, each played to the end by
bots over several seeds, checking after every placement that its rule held."""

from __future__ import annotations

import pytest

from tabletop import Registry, get_plugin_manager
from tabletop.engine import Match
from tabletop.live import selfplay

from ..conftest import ROOT

HOUSE_RULES = ROOT / "variants" / "house_rules"
SEEDS = [f"house-{i}" for i in range(6)]


@pytest.fixture(scope="module")
def registry() -> Registry:
    return Registry(get_plugin_manager(sorted(HOUSE_RULES.glob("glux_*.py")), environment=False))


def play(registry, variant, seed, players=4, bot="random"):
    """A whole self-played game under ``variant``: the states before each
    placement, with the placement, and the final match (replayed from the log)."""
    names = [f"p{i}" for i in range(1, players + 1)]
    bots = [registry.bot(bot, "glux")] * players
    header, match, events = selfplay(registry, "glux", names, bots, seed, [variant])
    replay = Match(registry, header)
    placed = []
    for event in events:
        if event.kind == "place":
            placed.append((replay.state, event))
        replay.accept(event)
    assert replay.over and replay.state == match.state
    return placed, replay


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_glux_may_cover_no_covering_another_players_chip(registry, seed, bot):
    placed, match = play(registry, "glux-no-cover", seed, players=3, bot=bot)
    assert len(placed) > 30
    assert covers_of_others(match.game, placed) == 0


def covers_of_others(game, placed) -> int:
    """How many placements went on top of another player's chip."""
    found = 0
    for state, event in placed:
        stack = state.stacks[game.board.indices[event.square]]
        found += bool(stack) and stack[-1][0] != game.seats[event.player]
    return found


def test_the_same_games_under_the_official_rules_do_cover(registry):
    # So the check above is not empty: these seeds do cover others' chips officially.

    total = 0
    for seed in SEEDS[:3]:
        names = ["p1", "p2", "p3"]
        header, match, events = selfplay(registry, "glux", names, [registry.bot("random", "glux")] * 3, seed)
        replay = Match(registry, header)
        placed = []
        for event in events:
            if event.kind == "place":
                placed.append((replay.state, event))
            replay.accept(event)
        total += covers_of_others(replay.game, placed)
    assert total > 0


def test_glux_no_cover_refuses_covering_in_a_log(registry, cli):
    from tabletop_glux.events import Place

    from .helpers import make_game, position

    game = make_game(registry, variants=["glux-no-cover"])
    state = position(game, {"a1": [("ann", 2)], "a3": [("ben", 5)], "c1": [("ann", 1)], "m9": [("ben", 3)]})
    assert game.check(state, Place("ann", "a3", 4)) == "the chip on a3 may not be covered"
    assert game.check(state, Place("ann", "c1", 4)) is None  # one's own chip still may be
    assert "a3" not in {game.board.name_of(s) for s in game.targets(state, 0)}
