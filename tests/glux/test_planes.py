"""Glüx's observation planes (``planes.py``), for networks: each plane's
contents, read from a player's view, seats counted from the viewer."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from tabletop import Registry, get_plugin_manager
from tabletop_glux import board as boards

from ..conftest import ROOT
from .helpers import make_game, position

HOUSE_RULES = ROOT / "variants" / "house_rules"


def filled(game, state, viewer):
    planes = game.planes()
    out = {name: np.zeros(shape, np.float32) for name, shape, _ in planes.describe()}
    planes.fill(game.view(state, viewer), viewer, out)
    return out


def at(game, name):
    """The (row, column) of a square in the board planes."""
    return divmod(game.board.square(name), game.board.width)


def drawn(letters):
    """The two-player side as its drawing shows it, bottom row first: a plane
    with 1 where the square's letter is one of ``letters``."""
    rows = [line.split()[1:] for line in boards.built_in_text("two-players").splitlines() if line[:1].isdigit()]
    return np.array([[cell in letters for cell in row] for row in reversed(rows)], np.float32)


@pytest.fixture(scope="module")
def house() -> Registry:
    return Registry(get_plugin_manager([HOUSE_RULES / "glux_two_chips.py"], environment=False))


def test_planes_chips_the_top_chip_of_each_square_by_face_and_seat_from_the_viewer(registry):
    game = make_game(registry)
    chips = {"a1": [("ann", 6)], "m9": [("ben", 1)], "c3": [("ann", 2), ("ben", 5)], "g5": [("ben", 4), ("ann", 3)]}
    state = position(game, chips)
    for viewer, mine, theirs in (("ann", 0, 1), ("ben", 1, 0)):
        top = filled(game, state, viewer)["chips"]
        assert top.shape == (6, 2, 9, 13)
        expected = np.zeros_like(top)
        expected[(5, mine, *at(game, "a1"))] = 1  # ann's 6
        expected[(0, theirs, *at(game, "m9"))] = 1  # ben's 1
        expected[(4, theirs, *at(game, "c3"))] = 1  # ben's 5 on top of ann's 2
        expected[(2, mine, *at(game, "g5"))] = 1  # ann's 3 on top of ben's 4
        assert (top == expected).all(), viewer
        # Board planes are rows by columns: c3 is row 2, column 2; m9 row 8, column 12.
        assert top[4, theirs, 2, 2] == 1 and top[0, theirs, 8, 12] == 1


def test_planes_covered_counts_the_chips_under_the_top_chip(registry):
    game = make_game(registry)
    chips = {"a1": [("ann", 6)], "c3": [("ann", 2), ("ben", 5)], "e7": [("ben", 1), ("ann", 2), ("ben", 3), ("ann", 4)]}
    covered = filled(game, position(game, chips), "ben")["covered"]
    expected = np.zeros((9, 13), np.float32)
    expected[at(game, "c3")] = 1
    expected[at(game, "e7")] = 3
    assert (covered == expected).all()
    assert game.planes().planes[1].name == "covered" and game.planes().planes[1].high == 48


def test_planes_room_and_middle_the_board_as_drawn(registry):
    game = make_game(registry)
    out = filled(game, position(game, {}), "ann")
    assert (out["room"] == drawn("ABCDEFGHI")).all() and out["room"].sum() == 55
    assert (out["middle"] == drawn("E")).all() and out["middle"].sum() == 9
    assert out["room"][at(game, "g5")] == 1 and out["room"][at(game, "d7")] == 0
    assert out["middle"][at(game, "g5")] == 1 and out["middle"][at(game, "a1")] == 0


def test_planes_start_each_seats_start_square_from_the_viewer(registry):
    game = make_game(registry, ("ann", "ben", "cat"))
    start = filled(game, position(game, {}), "ben")["start"]
    expected = np.zeros((3, 13, 13), np.float32)
    expected[(2, *at(game, "a1"))] = 1  # ann is two seats after ben
    expected[(0, *at(game, "m1"))] = 1  # ben's own
    expected[(1, *at(game, "g13"))] = 1  # cat is next
    assert (start == expected).all()


def test_planes_hand_and_held_what_the_viewer_holds_and_how_many_each_holds(house):
    game = make_game(house, ("ann", "ben", "cat"), variants=["glux-two-chips"])
    state = position(game, {}, hands={"ann": "2/5", "ben": "3/4", "cat": None}, bags={"ann": (1, 2, 3)})
    state = attrs.evolve(state, held=(("2/5",), ("1/6",), ()))
    out = filled(game, state, "ann")
    assert list(out["hand"]) == [0, 2, 0]  # two 2/5 chips; kinds in the order 1/6, 2/5, 3/4
    assert list(out["held"]) == [2, 2, 0]  # ann, ben, cat
    assert [list(row) for row in out["bag"]] == [[1, 2, 3], [6, 5, 6], [5, 5, 5]]  # ben's hand counted in his bag
    out = filled(game, state, "ben")
    assert list(out["hand"]) == [1, 0, 1]
    assert list(out["held"]) == [2, 0, 2]  # ben, cat, ann
    assert [list(row) for row in out["bag"]] == [[5, 5, 5], [5, 5, 5], [1, 4, 3]]
    out = filled(game, state, "cat")
    assert list(out["hand"]) == [0, 0, 0] and list(out["held"]) == [0, 2, 2]


def test_planes_hand_of_one_under_the_official_rules(registry):
    game = make_game(registry)
    state = position(game, {}, hands={"ann": "1/6", "ben": None})
    out = filled(game, state, "ann")
    assert list(out["hand"]) == [1, 0, 0] and list(out["held"]) == [1, 0]
    out = filled(game, state, "ben")
    assert list(out["hand"]) == [0, 0, 0] and list(out["held"]) == [0, 1]


def test_planes_flags_per_seat_and_the_turn(registry):
    game = make_game(registry, ("ann", "ben", "cat"))
    state = position(game, {}, turn="cat", option_used=["ben"], excluded=["ann"])
    out = filled(game, state, "ben")  # seats from ben: ben, cat, ann
    assert list(out["excluded"]) == [0, 0, 1] and list(out["option used"]) == [1, 0, 0]
    assert list(out["started"]) == [1, 1, 1] and list(out["turn"]) == [0, 1, 0]
    assert list(out["drawing"]) == [0] and list(out["began"]) == [1]
    drawing = filled(game, attrs.evolve(state, drawing=True), "cat")
    assert list(drawing["drawing"]) == [1] and list(drawing["turn"]) == [1, 0, 0]
    over = filled(game, attrs.evolve(state, turn=None), "ann")
    assert list(over["turn"]) == [0, 0, 0]
    setup = filled(game, game.initial(), "ann")
    assert list(setup["began"]) == [0] and list(setup["started"]) == [0, 0, 0] and setup["turn"].sum() == 0
