"""Action numbers: every legal decision has its own words, and the words
open at each step reach exactly the legal decisions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabletop
from tabletop.ai.actions import Actions, actions_for, numbering_of
from tabletop.api import registry
from tabletop.model.numbering import END

HOUSE = str(Path(__file__).resolve().parents[2] / "variants" / "house_rules")

GAMES = [
    ("glux", 2, ()),
    ("glux", 4, ("glux-room-points:first=6",)),
    ("glux", 3, ("glux-redraw",)),
    ("glyph-chess", 2, ("glyph-advanced-setup",)),
    ("glyph-chess", 3, ("glyph-push",)),
]


def spell_out(actions: Actions, legal):
    """Every legal decision reached by choosing open words, one path at a time."""
    menu = actions.menu(legal)
    reached = []

    def walk(prefix):
        for action in menu.open(prefix):
            after, decision = menu.take(prefix, action)
            if decision is not None:
                reached.append(decision)
            else:
                walk(after)

    walk(())
    return reached


@settings(max_examples=15, deadline=None)
@given(config=st.sampled_from(GAMES), seed=st.integers(0, 10_000), moves=st.integers(0, 60))
def test_the_open_words_reach_exactly_the_legal_decisions(config, seed, moves):
    game, players, variants = config
    reg = registry([HOUSE])
    table = tabletop.start(
        game, [f"p{i}" for i in range(1, players + 1)], variants=variants, seed=str(seed), registry=reg
    )
    actions = actions_for(reg, table.header, table.game)
    rng = random.Random(seed)
    for _ in range(moves):
        if table.over:
            break
        table.play(rng.choice(table.legal(table.deciding[0])))
    if table.over:
        return
    legal = table.legal(table.deciding[0])
    spelt = [actions.of(d) for d in legal]
    assert len(set(spelt)) == len(spelt), "two legal decisions share their words"
    assert all(0 < a < len(actions) for s in spelt for a in s)
    reached = spell_out(actions, legal)
    assert sorted(map(repr, reached)) == sorted(map(repr, legal))


def test_register_numberings_gives_both_games_a_documented_numbering():
    reg = registry()
    table = tabletop.start("glux", ["ann", "ben", "cy"], seed="n")
    actions = actions_for(reg, table.header, table.game)
    # As docs/ai.md and tabletop_glux/numbering.py say: word 0 ends, then 1@a1, 2@a1, ...
    assert actions.words[:3] == (END, "1@a1", "2@a1")
    assert actions.words[-1] == "6@start"
    glyph = tabletop.start("glyph-chess", ["ann", "ben"], seed="n")
    words = actions_for(reg, glyph.header, glyph.game).words
    assert words[:4] == (END, "-", "/", "a1")
    assert words[-2:] == ("ann", "ben")
    assert numbering_of(reg, "glyph-chess").most_outcomes(glyph.game) == 720


def test_numbers_are_the_same_in_every_process_and_state():
    reg = registry()
    one = tabletop.start("glyph-chess", ["ann", "ben"], seed="a")
    two = tabletop.start("glyph-chess", ["ann", "ben"], seed="b")
    a = actions_for(reg, one.header, one.game)
    b = actions_for(reg, two.header, two.game)
    assert a.words == b.words
    decision = one.legal()[0]
    assert a.of(decision) == b.of(decision) == tuple(a.number[w] for w in a.numbering.spell(one.game, decision))


def test_a_game_without_numbering_is_numbered_from_its_events_or_one_clear_error(registry):
    """Pile registers no numbering: the default one asks the values of its
    fields, which it does not give (the error names the first)."""
    table = tabletop.start("pile", ["ann", "ben"], seed="n", registry=registry)
    assert numbering_of(registry, "pile").spell(table.game, table.game.legal(table.state, "ann")[0]) == ("pick 1",)
    with pytest.raises(
        tabletop.UsageError, match="pile has no action numbering: the field 'number' of its 'pick' events"
    ):
        actions_for(registry, table.header, table.game)
