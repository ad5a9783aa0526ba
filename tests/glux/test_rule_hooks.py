"""Glüx's rule hooks, changed by variants loaded the way users load them."""

from __future__ import annotations

import pytest

from tabletop import Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop.log.header import Header

from ..conftest import ROOT
from .helpers import position, squares

HOUSE_RULE = ROOT / "variants" / "house_rules" / "glux_diagonals.py"


class SmallBags:
    @rulehook
    def glux_bag(self, players):
        return {"1/6": 1, "2/5": 1, "3/4": 0}


class NoTiebreak:
    @rulehook
    def glux_tiebreak(self, tied):
        return tied


class FewestTopChips:
    """A tie on points and in the middle room goes to the fewer chips on top."""

    @rulehook(wrapper=True)
    def glux_tiebreak(self, game, state, tied):
        tied = yield
        fewest = min(len(state.tops[game.seats[p]]) for p in tied)
        return tuple(p for p in tied if len(state.tops[game.seats[p]]) == fewest)


class MostTopChipsWin:
    @rulehook
    def glux_winners(self, game, state, points):
        most = max(len(tops) for tops in state.tops)
        return tuple(p for p in points if len(state.tops[game.seats[p]]) == most)


class TestVariants:
    @hookimpl
    def register_variants(self):
        return [
            Variant("small-bags", "glux", "two chips each", SmallBags()),
            Variant("no-tiebreak", "glux", "ties are shared", NoTiebreak()),
            Variant("fewest-top-chips", "glux", "ties go to the fewer chips on top", FewestTopChips()),
            Variant("most-top-chips", "glux", "the most chips on top wins", MostTopChipsWin()),
        ]


@pytest.fixture(scope="module")
def with_variants() -> Registry:
    pm = get_plugin_manager([HOUSE_RULE], environment=False)
    pm.register(TestVariants())
    return Registry(pm)


def game_with(registry, *variants):
    return registry.game(Header("glux", ("ann", "ben"), tuple(variants)))


def test_glux_bag_sets_what_each_bag_holds(with_variants):
    assert game_with(with_variants, "small-bags").initial().bags == ((1, 1, 0), (1, 1, 0))
    assert game_with(with_variants).initial().bags == ((8, 8, 8), (8, 8, 8))


def test_glux_bag_small_game_plays_to_the_end(with_variants):
    from tabletop.play.live import selfplay

    bot = with_variants.bot("random", "glux")
    header, match, events = selfplay(with_variants, "glux", ["a", "b"], [bot, bot], "tiny", ["small-bags"])
    assert match.over and sum(len(s) for s in match.state.stacks) == 4


def test_glux_directions_house_rule_counts_diagonally(with_variants):
    diagonal = game_with(with_variants, "glux-diagonals")
    official = game_with(with_variants)
    chips = {"a1": [("ann", 2)], "m9": [("ben", 3)]}
    assert squares(official, position(official, chips), "ann") == {"a3", "c1"}
    assert squares(diagonal, position(diagonal, chips), "ann") == {"a3", "c1", "c3"}


def test_glux_score_room_official_and_variant(with_variants):
    official = game_with(with_variants)
    variant = with_variants.game(Header("glux", ("ann", "ben"), ("glux-second-place-2p",)))
    pips = {"ann": 7, "ben": 3}
    assert dict(
        official.rules.glux_score_room(game=official, state=official.initial(), room="E", pips=pips, players=2)
    ) == {"ann": 4, "ben": 0}
    assert dict(
        variant.rules.glux_score_room(game=variant, state=variant.initial(), room="E", pips=pips, players=2)
    ) == {"ann": 4, "ben": 2}


def test_glux_tiebreak_variant_shares_instead_of_the_middle_room(with_variants):
    chips = {"a1": [("ann", 1)], "f5": [("ann", 5)], "m9": [("ben", 3)], "m1": [("ben", 3)]}
    official = game_with(with_variants)
    shared = game_with(with_variants, "no-tiebreak")
    assert official.outcome(position(official, chips)).winners == ("ann",)
    assert shared.outcome(position(shared, chips)).winners == ("ann", "ben")


def test_glux_winners_and_glux_tiebreak_are_told_the_game_and_the_final_state(with_variants):
    # ann and ben tie on points (4 each: rooms G and C) and in the middle room
    # (none); ann has two chips on top, ben one.
    chips = {"a1": [("ann", 3)], "b1": [("ann", 1)], "m9": [("ben", 3)]}
    official = game_with(with_variants)
    assert official.outcome(position(official, chips)).winners == ("ann", "ben")
    fewest = game_with(with_variants, "fewest-top-chips")
    assert fewest.outcome(position(fewest, chips)).winners == ("ben",)
    most = game_with(with_variants, "most-top-chips")
    outcome = most.outcome(position(most, chips))
    assert outcome.winners == ("ann",) and outcome.scores == {"ann": 4, "ben": 4}


def test_the_house_rule_guide_shows_the_example_file_verbatim():
    guide = (ROOT / "docs" / "house-rules.md").read_text()
    source = HOUSE_RULE.read_text()
    assert source in guide
    assert len(source.splitlines()) < 30


def test_the_house_rule_loaded_with_plugins_on_the_command_line(cli, tmp_path):
    result = cli(
        "--plugins",
        HOUSE_RULE,
        "new",
        "glux",
        "--players",
        "ann,ben",
        "--variant",
        "glux-diagonals",
        "--seed",
        "3",
        "-o",
        "g.jsonl",
        plugins=False,
    )
    assert result.exit_code == 0, result.output
    assert cli("--plugins", HOUSE_RULE, "replay", "g.jsonl", plugins=False).exit_code == 0
    # Without the house rule loaded, the log names a variant nobody knows.
    result = cli("replay", "g.jsonl", plugins=False)
    assert result.exit_code == 2 and "unknown variant 'glux-diagonals'" in result.stderr
