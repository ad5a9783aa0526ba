"""glux-final-bonus (variants/house_rules/glux_final_bonus.py): the final score
as a whole (``glux_final_scores``): whoever has the most chips on top scores
a bonus. The hook is asked only where a variant implements it, with the
rooms' points summed; victory is decided on its answer; an answer that
leaves out a player, or names someone else, is refused in one line."""

from __future__ import annotations

import pytest

from tabletop import Header, PluginError, Registry, Variant, get_plugin_manager, hookimpl, rulehook, testing
from tabletop.play.live import selfplay

from ..conftest import ROOT
from ..fastpath import compare
from .helpers import make_game, position

BONUS = ROOT / "variants" / "house_rules" / "glux_final_bonus.py"
VARIANT = ("glux-final-bonus",)
THREE = ("ann", "ben", "cy")


@pytest.fixture(scope="module")
def house() -> Registry:
    return Registry(get_plugin_manager([BONUS], environment=False))


@pytest.mark.parametrize("variant, bonus", [("glux-final-bonus", 3), ("glux-final-bonus:bonus=5", 5)])
def test_glux_final_bonus_the_most_chips_on_top_score_a_bonus(house, registry, variant, bonus):
    official = registry.game(Header("glux", THREE))
    for number in range(3):
        bots = [house.bot("random", "glux")] * 3
        _, match, _ = selfplay(house, "glux", THREE, bots, f"bonus-{number}", [variant])
        game, state = match.game, match.state
        assert game.final_scored and not official.final_scored
        plain, scores = official.outcome(state).scores, game.outcome(state).scores
        tops = {p: len(state.tops[game.seats[p]]) for p in THREE}
        assert scores == {p: plain[p] + bonus * (tops[p] == max(tops.values())) for p in THREE}
        best = max(scores.values())
        assert set(game.outcome(state).winners) <= {p for p in THREE if scores[p] == best}


def test_glux_final_bonus_decides_victory(house, registry):
    game, official = make_game(house, THREE, ("glux-final-bonus:bonus=5",)), make_game(registry, THREE)
    # Ann wins room G (4 VP) with her one chip; ben has two chips on top, on the path, and no room.
    chips = {"a1": [("ann", 6)], "c1": [("ben", 1)], "d1": [("ben", 1)]}
    state = position(game, chips, hands={p: None for p in THREE}, bags={p: (0, 0, 0) for p in THREE})
    assert official.outcome(state).scores == {"ann": 4, "ben": 0, "cy": 0} and official.outcome(state).winners == (
        "ann",
    )
    assert game.outcome(state).scores == {"ann": 4, "ben": 5, "cy": 0} and game.outcome(state).winners == ("ben",)


class Wrong:
    def __init__(self, answer):
        self.answer = answer

    @rulehook
    def glux_final_scores(self, scores):
        return self.answer(scores)


class WrongVariants:
    @hookimpl
    def register_variants(self):
        return [
            Variant("glux-scores-short", "glux", "leaves a player out", Wrong(lambda s: {"ann": 1})),
            Variant("glux-scores-stranger", "glux", "names a stranger", Wrong(lambda s: {**s, "zed": 4})),
        ]


@pytest.mark.parametrize("variant", ["glux-scores-short", "glux-scores-stranger"])
def test_glux_final_scores_an_answer_for_other_players_is_refused_in_one_line(variant):
    manager = get_plugin_manager([], environment=False)
    manager.register(WrongVariants())
    game = make_game(Registry(manager), THREE, (variant,))
    state = position(game, {"a1": [("ann", 6)]}, hands={p: None for p in THREE})
    with pytest.raises(
        PluginError, match=f"variant '{variant}'.*glux_final_scores gave scores for .*one for each player"
    ):
        game.outcome(state)


def test_glux_final_bonus_conforms_and_the_fast_path_agrees(house):
    assert compare(house, "glux", THREE, "bonus", VARIANT) > 50
    assert testing.conform(house, "glux", THREE, VARIANT, games=1, seed="bonus", every=12) > 50
