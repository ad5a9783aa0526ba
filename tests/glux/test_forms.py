"""Each official rule is written once, as its hook's implementation; the
generator reads some of them in the table form they declare (``forms.py``).
Over whole games, with and without the shipped house rules, in every
position, each declared form answers as its predicate does, and the
generator reading the forms lists and checks exactly what it lists and
checks when it asks every predicate."""

from __future__ import annotations

import copy

import attrs
import pytest

from tabletop import Registry, get_plugin_manager
from tabletop.play.live import selfplay
from tabletop_glux import official
from tabletop_glux.chips import FACES
from tabletop_glux.forms import form_of

from ..conftest import ROOT

HOUSE_RULES = ROOT / "variants" / "house_rules"
VARIANTS = [(), ("glux-stack-height",), ("glux-diagonals",), ("glux-room-points",), ("glux-two-chips",)]


@pytest.fixture(scope="module")
def registry() -> Registry:
    return Registry(get_plugin_manager(sorted(HOUSE_RULES.glob("glux_*.py")), environment=False))


def positions(registry, players, variants, seeds=("forms-1", "forms-2")):
    names = ["ann", "ben", "cat", "dan"][:players]
    bot = registry.bot("random", "glux")
    for seed in seeds:
        header, _, events = selfplay(registry, "glux", names, [bot] * players, seed, variants)
        game = registry.game(header)
        state = game.initial()
        yield game, state
        for event in events:
            state = game.apply(state, event)
            yield game, state


def asking(game):
    """The game's generator with no form read: every predicate asked."""
    placement = copy.copy(game.placement)
    placement.lines = False
    placement.cover = lambda game, state, seat, square, face, chip: official.glux_may_cover(
        game=game, state=state, seat=seat, square=square
    )
    return placement


def test_the_official_per_move_rules_declare_their_forms():
    declared = {name: form_of(getattr(official, name)) for name in official.__all__}
    assert {name: form for name, form in declared.items() if form} == {
        "glux_counts_from": "own top chip",
        "glux_distance": "top face",
        "glux_may_pass": "empty square",
        "glux_may_cover": "always",
        "glux_still_placing": "holding, not excluded",
        "glux_draw_after_placing": "bag not empty",
        "glux_start_option": "unused, one chip on the start square",
        "glux_game_over": "nobody's turn",
    }


def test_the_official_game_reads_every_declared_form(registry):
    from tabletop import Header

    game = registry.game(Header("glux", ("ann", "ben")))
    # Nothing asked: rules 1-3 as lines, rule 4 never, rule 7 and the end in their forms.
    assert game.placement.lines and game.placement.cover is None and game.placement.option_asked is None
    assert game.over_asked is None and game.turns.holding and game.turns.bag
    wrapped = registry.game(Header("glux", ("ann", "ben"), ("glux-wrapped-cover",)))
    assert wrapped.placement.cover is not None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_declared_form_answers_as_its_predicate(registry, players):
    checked = set()
    for game, state in positions(registry, players, ()):
        n = len(game.players)
        assert game.game_over(state) == official.glux_game_over(game=game, state=state)
        for seat in range(n):
            turns = game.turns
            asked_next = next(
                (s for s in turns.order[seat] if official.glux_still_placing(game=game, state=state, seat=s)), None
            )
            assert turns.next(state, seat) == asked_next
            if state.turn == seat and not state.drawing and state.hands[seat] is not None:
                # The effect of a placement reads the 2nd phase in its form.
                placed = game.apply(state, next(iter(game.legal(state, game.players[seat]))))
                before = attrs.evolve(placed, turn=seat, drawing=True)
                drawn = official.glux_draw_after_placing(game=game, state=before, seat=seat)
                assert placed.drawing == drawn and (placed.turn == seat) == drawn
                checked.add(("draw", drawn))
            assert game.start_option(state, seat) == official.glux_start_option(game=game, state=state, seat=seat)
            checked.add(("option", game.start_option(state, seat)))
        for square, stack in enumerate(state.stacks):
            for seat in range(n):
                mine = official.glux_counts_from(game=game, state=state, seat=seat, square=square)
                assert mine == (square in state.tops[seat])
                assert official.glux_may_pass(game=game, state=state, seat=seat, square=square) == (not stack)
                checked.add(("pass", not stack))
            if stack:
                assert official.glux_distance(game=game, state=state, square=square) == stack[-1][1]
    assert checked == {
        ("option", True),
        ("option", False),
        ("pass", True),
        ("pass", False),
        ("draw", True),
        ("draw", False),
    }


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variants", VARIANTS)
def test_the_generator_reading_forms_is_the_generator_asking(registry, players, variants):
    for i, (game, state) in enumerate(positions(registry, players, variants, seeds=("forms-1",))):
        if not state.began or i % 3:
            continue
        placement, asked = game.placement, asking(game)
        assert placement.lines
        for seat in range(len(game.players)):
            read = sorted(set(placement.reachable(state, seat)))
            assert read == sorted(set(asked.reachable(state, seat)))
            chip = state.hands[seat]
            if chip is not None and state.turn == seat and not state.drawing:
                player = game.players[seat]
                assert list(placement.listing(state, seat, player, list(read))) == list(
                    asked.listing(state, seat, player, list(read))
                )
            for square in range(len(state.stacks)):
                assert placement.reaches(state, seat, square) == asked.reaches(state, seat, square)
                assert (square in read) == (
                    asked.reaches(state, seat, square) and asked.refused_by(state, seat, square, 1, chip) is None
                )
                if chip is not None:
                    for face in FACES[chip]:
                        assert placement.error(state, seat, square, face, False) == asked.error(
                            state, seat, square, face, False
                        )
