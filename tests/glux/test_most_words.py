"""How long a game of Glüx can be (``length.py``, ``Glux.most_words``), for the
programs that must know (OpenSpiel's ``max_game_length``): every decision puts
one chip of a bag on the board, so the players times one bag bounds a game
under the official rules; a variant that adds decisions or changes what one
does (``glux_decisions``, ``glux_apply``, ``glux_turn_steps``) lifts the bound."""

from __future__ import annotations

import pytest

from tabletop import DECISION, Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop.play.live import selfplay
from tabletop_glux.events import Draw, FirstPlayer, Place, Start

from ..conftest import ROOT
from .helpers import make_game

HOUSE_RULES = ROOT / "variants" / "house_rules"


class SmallBags:
    @rulehook
    def glux_bag(self, players):
        return {"1/6": 1, "2/5": 1, "3/4": 0}


class AddsADecision:
    @rulehook
    def glux_decisions(self, game, state, seat):
        return ()


class AppliesAnEvent:
    @rulehook
    def glux_apply(self, game, state, event):
        return None


class ChangesTheSteps:
    @rulehook(wrapper=True)
    def glux_turn_steps(self, players):
        return (yield)


class TestVariants:
    @hookimpl
    def register_variants(self):
        return [
            Variant("small-bags", "glux", "two chips each", SmallBags()),
            Variant("adds-a-decision", "glux", "glux_decisions alone", AddsADecision()),
            Variant("applies-an-event", "glux", "glux_apply alone", AppliesAnEvent()),
            Variant("changes-the-steps", "glux", "glux_turn_steps alone", ChangesTheSteps()),
        ]


@pytest.fixture(scope="module")
def with_variants() -> Registry:
    pm = get_plugin_manager(sorted(HOUSE_RULES.glob("glux_*.py")), environment=False)
    pm.register(TestVariants())
    return Registry(pm)


def decisions(events) -> int:
    return sum(e.origin == DECISION for e in events)


@pytest.mark.parametrize(("players", "words"), [(2, 48), (3, 72), (4, 96)])
def test_most_words_the_players_times_one_bag_of_24_chips(with_variants, players, words):
    game = make_game(with_variants, ["ann", "ben", "cat", "dan"][:players])
    assert game.most_words() == words


@pytest.mark.parametrize("variants", [("glux-diagonals",), ("glux-two-chips",), ("glux-no-cover", "glux-stack-height")])
def test_most_words_a_variant_that_adds_no_decision_keeps_the_bound(with_variants, variants):
    assert make_game(with_variants, variants=variants).most_words() == 48


def test_most_words_follows_the_bags_in_force(with_variants):
    assert make_game(with_variants, variants=["small-bags"]).most_words() == 4
    assert make_game(with_variants, ("ann", "ben", "cat"), variants=["small-bags"]).most_words() == 6


@pytest.mark.parametrize(
    "variants",
    [
        ("glux-redraw",),  # a decision of its own (glux_decisions, glux_check, glux_apply)
        ("glux-choose-draw",),  # a step of its own (glux_turn_steps)
        ("glux-put-back",),
        ("glux-redraw", "glux-diagonals"),
        ("adds-a-decision",),
        ("applies-an-event",),
        ("changes-the-steps",),
    ],
)
def test_most_words_under_a_variant_that_adds_decisions_is_unbounded(with_variants, variants):
    assert make_game(with_variants, variants=variants).most_words() is None


def test_most_words_bounds_every_official_game(with_variants):
    bots = [with_variants.bot("random", "glux")] * 2
    for seed in ("words-1", "words-2"):
        _, match, events = selfplay(with_variants, "glux", ["ann", "ben"], bots, seed)
        assert match.over and 24 < decisions(events) <= match.game.most_words() == 48


def test_most_words_is_reached_when_every_chip_is_placed(with_variants):
    # Small bags: each player's two chips, the start chip and one placement.
    bots = [with_variants.bot("random", "glux")] * 2
    _, match, events = selfplay(with_variants, "glux", ["ann", "ben"], bots, "small", ["small-bags"])
    state = match.state
    assert match.over and not any(map(sum, state.bags)) and state.hands == (None, None)
    assert decisions(events) == match.game.most_words() == 4


def test_most_words_a_redraw_takes_a_decision_more_than_the_chips(with_variants):
    # Why a variant that adds decisions lifts the bound: under glux-redraw the
    # same two chips each make five decisions, one more than the small bags' bound.
    game = make_game(with_variants, variants=["small-bags", "glux-redraw"])
    assert game.most_words() is None
    assert make_game(with_variants, variants=["small-bags"]).most_words() == 4
    state = game.initial()
    made = []

    def decide(event):
        nonlocal state
        assert game.check(state, event) is None, event
        made.append(event)
        state = game.apply(state, event)

    for event in (Draw("ann", "1/6"), Draw("ben", "1/6")):
        state = game.apply(state, event)
    decide(Start("ann", 1))
    decide(Start("ben", 1))
    for event in (Draw("ann", "2/5"), Draw("ben", "2/5"), FirstPlayer("ann")):
        state = game.apply(state, event)
    decide(game.parse("redraw", "ann", state))
    state = game.apply(state, Draw("ann", "2/5"))
    assert state.turn == game.seats["ben"]
    decide(next(e for e in game.legal(state, "ben") if isinstance(e, Place)))
    decide(next(e for e in game.legal(state, "ann") if isinstance(e, Place)))
    assert game.game_over(state) and len(made) == 5
