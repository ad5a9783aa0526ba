"""Glüx notation: FACE@SQUARE, FACE@start; read and written by the plugin."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop import NotationError
from tabletop_glux.events import Draw, Exclude, FirstPlayer, Place, Start

from .helpers import make_game, position


@pytest.fixture
def game(registry):
    return make_game(registry)


@pytest.fixture
def state(game):
    return position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]})


@pytest.mark.parametrize(
    ("text", "event"),
    [
        ("6@f7", Place("ann", "f7", 6)),
        (" 3 @ F7 ", Place("ann", "f7", 3)),
        ("4@start", Place("ann", "a1", 4, start=True)),
        ("1@m13", Place("ann", "m13", 1)),
    ],
)
def test_parse(game, state, text, event):
    assert game.parse(text, "ann", state) == event


@pytest.mark.parametrize("text", ["f7", "7@f7", "6f7", "6@", "6@ff", "", "6@f7 please"])
def test_unreadable_notation_is_a_clear_error(game, state, text):
    with pytest.raises(NotationError, match="cannot read"):
        game.parse(text, "ann", state)


def test_in_setup_the_face_alone_or_at_the_start_square_chooses_the_start_chip(game):
    setup = game.apply(game.apply(game.initial(), Draw("ann", "2/5")), Draw("ben", "1/6"))
    assert game.parse("5", "ann", setup) == Start("ann", 5)
    assert game.parse("5@a1", "ann", setup) == Start("ann", 5)
    assert game.parse("5@start", "ann", setup) == Start("ann", 5)
    with pytest.raises(NotationError, match="in setup the start chip goes on a1"):
        game.parse("5@b1", "ann", setup)


def test_every_event_reads_as_a_short_line(game):
    assert game.format(Place("ann", "f7", 6)) == "ann 6@f7"
    assert game.format(Place("ann", "a1", 6, start=True)) == "ann 6@start"
    assert game.format(Start("ben", 4)) == "ben 4@m9"
    assert game.format(Draw("ben", "3/4")) == "ben draws 3/4"
    assert game.format(FirstPlayer("ben")) == "ben is the start player"
    assert game.format(Exclude("ann")) == "ann is excluded (no placement left)"


SQUARES = st.builds(lambda c, r: f"{c}{r}", st.sampled_from("abcdefghijklm"), st.integers(1, 9))


@given(square=SQUARES, face=st.integers(1, 6), start=st.booleans())
def test_notation_round_trips(registry, square, face, start):
    game = make_game(registry)
    state = position(game, {"a1": [("ann", 2)], "m9": [("ben", 3)]})
    event = Place("ann", "a1" if start else square, face, start)
    assert game.parse(game.notate(event), "ann", state) == event
