"""Glüx's action numbers (``numbering.py``), for OpenSpiel and PettingZoo:
every decision is one word ``FACE@SQUARE``, faces 1 to 6 at each square in
the board's order, then ``FACE@start``; action 0 is the core's end word. The
two faces of a chip are two words, two actions."""

from __future__ import annotations

import pytest

from tabletop.ai.actions import actions_for, numbering_of
from tabletop.log.header import Header
from tabletop_glux.chips import FACES
from tabletop_glux.events import Place, Start
from tabletop_glux.numbering import words

from .helpers import make_game, position


def actions(registry, players=("ann", "ben")):
    header = Header("glux", tuple(players))
    game = registry.game(header)
    return game, actions_for(registry, header, game)


def test_numbering_faces_one_to_six_at_every_square_then_at_start(registry):
    game = make_game(registry)
    found = words(game)
    squares = [*game.board.names, "start"]
    assert len(squares) == 13 * 9 + 1 and len(found) == 6 * len(squares)
    assert found[:7] == ["1@a1", "2@a1", "3@a1", "4@a1", "5@a1", "6@a1", "1@b1"]
    assert found[-6:] == ["1@start", "2@start", "3@start", "4@start", "5@start", "6@start"]
    assert found == [f"{face}@{square}" for square in squares for face in (1, 2, 3, 4, 5, 6)]
    assert not any(w.startswith(("0@", "7@")) for w in found)
    # The board of three or four players: 169 squares and start, 6 x 170 words.
    assert len(words(make_game(registry, ("ann", "ben", "cat")))) == 6 * 170


def test_numbering_faces_the_two_faces_of_each_chip_are_two_actions(registry):
    game, space = actions(registry)
    assert space.words[0] != "1@a1" and space.of(Start("ann", 1)) == (1,)
    assert [space.of(Start("ann", face)) for face in (1, 2, 3, 4, 5, 6)] == [(1,), (2,), (3,), (4,), (5,), (6,)]
    c3 = 6 * game.board.square("c3")
    for low, high in FACES.values():
        assert space.of(Place("ann", "c3", low)) == (c3 + low,)
        assert space.of(Place("ann", "c3", high)) == (c3 + high,)
    start = 6 * len(game.board.names)
    assert space.of(Place("ann", "a1", 6, start=True)) == (start + 6,)
    assert space.of(Place("ann", "a1", 6)) == (6,)  # counted onto a1, not the option
    assert len(space) == 1 + 6 * (len(game.board.names) + 1)
    # ben's start chip is written on his start square, m9.
    assert space.words[space.of(Start("ben", 1))[0]] == "1@m9"


def test_numbering_faces_a_hand_spells_each_legal_placement_once(registry):
    game, space = actions(registry)
    state = position(game, {"a1": [("ann", 6)], "m9": [("ben", 1)]}, hands={"ann": "2/5"})
    legal = game.legal(state, "ann")
    menu = space.menu(legal)  # refuses two decisions spelt alike
    assert {d.face for d in legal} == {2, 5}
    spelt = {space.words[a] for (a,) in (entry[0] for entry in menu.entries)}
    assert spelt == {game.notate(d) for d in legal} and len(spelt) == len(legal)
    assert all(game.parse(w, "ann", state) in legal for w in spelt)


@pytest.mark.parametrize(("players", "most"), [(2, 3), (3, 3), (4, 4)])
def test_numbering_faces_a_chance_node_has_at_most_a_kind_of_chip_or_a_player_each(registry, players, most):
    game = make_game(registry, ["ann", "ben", "cat", "dan"][:players])
    assert numbering_of(registry, "glux").most_outcomes(game) == most
