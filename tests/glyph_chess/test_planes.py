"""Glyph Chess's observation planes (``planes.py``), for networks: the hex board
laid on a square grid by its axial coordinates (row 0 gold's edge, the cells
off the hexagon 0), seats counted from the viewer, everything read from the
viewer's view."""

from __future__ import annotations

import attrs
import numpy as np

from tabletop.log.header import Header
from tabletop_glyph_chess.events import Shuffle
from tabletop_glyph_chess.planes import KINDS, PHASES
from tabletop_glyph_chess.state import ACT, DISCARD, GLIMPSE, OVER, ROLLING, SETUP, Step

from .helpers import act, game_at, position, to_action

S, E, F, N, U = 0, 2, 3, 4, 5  # the glyph types in plane order (S I E F N U)


def filled(game, state, viewer):
    planes = game.planes()
    out = {name: np.zeros(shape, np.float32) for name, shape, _ in planes.describe()}
    planes.fill(game.view(state, viewer), viewer, out)
    return out


def cell(game, name):
    """Where a spot lies on the grid of the board planes: [r + R, q + R]."""
    q, r = game.geo.coords[game.geo.spot(name)]
    return r + game.geo.radius, q + game.geo.radius


def at(registry, pieces, players=("ann", "ben"), **kw):
    game, state = game_at(registry, position(pieces, players=players, **kw))
    return game, to_action(game, state)


def test_planes_pieces_each_kind_of_each_seat_where_it_stands(registry):
    game, state = at(registry, {"ann": {"g7": "E", "g8": "M"}, "ben": {"g5": "N"}}, fates={"ann": {"F": "killed"}})
    assert (cell(game, "g7"), cell(game, "a1"), cell(game, "m7")) == ((6, 6), (0, 6), (12, 6))
    for viewer, mine, theirs in (("ann", 0, 1), ("ben", 1, 0)):
        pieces = filled(game, state, viewer)["pieces"]
        assert pieces.shape == (8, 2, 13, 13)
        assert pieces[(KINDS.index("E"), mine, *cell(game, "g7"))] == 1
        assert pieces[(KINDS.index("M"), mine, *cell(game, "g8"))] == 1  # a minion: the last kind
        assert pieces[(KINDS.index("N"), theirs, *cell(game, "g5"))] == 1
        assert pieces[:, :, 6, 6].sum() == 1  # one piece on g7, nothing else there
        # Every piece once: ann's scepter, five glyph pieces left and a minion; ben's seven.
        assert pieces[:, mine].sum() == 7 and pieces[:, theirs].sum() == 7
        assert pieces[KINDS.index("F"), mine].sum() == 0  # ann's force mage is dead
        for spot, piece in enumerate(state.board):
            if piece is not None:
                name = game.geo.names[spot]
                seat = mine if piece[0] == 0 else theirs
                assert pieces[(KINDS.index(piece[1]), seat, *cell(game, name))] == 1, name


def test_planes_spots_the_hexagon_on_its_square_grid(registry):
    game, state = at(registry, {})
    spots = filled(game, state, "ann")["spots"]
    radius = game.geo.radius
    expected = np.array(
        [[abs((q - radius) + (r - radius)) <= radius for q in range(13)] for r in range(13)], np.float32
    )
    assert spots.sum() == 127 and (spots == expected).all()
    assert spots[0, 0] == 0 and spots[12, 12] == 0 and spots[0, 12] == 1 and spots[6, 6] == 1


def test_planes_fates_an_incinerated_piece_of_its_seat_and_type_and_none_while_alive(registry):
    # (What holds whether or not the killed cell is set: see the test below.)
    game, state = at(registry, {})
    assert filled(game, state, "ann")["fates"].sum() == 0  # every glyph piece alive
    game, state = at(registry, {}, fates={"ann": {"U": "burnt"}})
    fates = filled(game, state, "ben")["fates"]  # seats from ben: ben, ann
    assert fates[1, U, 1] == 1
    assert fates[0].sum() == 0 and fates[1, :U].sum() == 0


def test_planes_fates_killed_and_incinerated_apart_per_seat(registry):
    game, state = at(registry, {}, fates={"ann": {"F": "killed", "U": "burnt"}, "ben": {"S": "burnt"}})
    fates = filled(game, state, "ben")["fates"]  # seats from ben: ben, ann
    expected = np.zeros((2, 6, 2), np.float32)
    expected[1, F, 0] = 1  # killed
    expected[1, U, 1] = 1  # incinerated
    expected[0, S, 1] = 1
    assert (fates == expected).all()


def test_planes_coins_in_hand_bag_and_used_from_the_viewer(registry):
    hands = {"ann": "S S I E E", "ben": "S N N U"}
    game, state = at(registry, {}, hands=hands, used={"ben": "E F"})
    out = filled(game, state, "ann")
    assert list(out["coins"]) == [2, 1, 2, 0, 0, 0]
    assert list(out["in hand"]) == [5, 4]
    assert [list(b) for b in out["used"]] == [[0] * 6, [0, 0, 1, 1, 0, 0]]
    # ben's bag is shown with his hand: his coins not used, wherever they are.
    assert [list(b) for b in out["bag"]] == [list(state.bags[0]), [2, 2, 1, 1, 2, 2]]
    out = filled(game, state, "ben")
    assert list(out["coins"]) == [1, 0, 0, 0, 2, 1] and list(out["in hand"]) == [4, 5]
    assert [list(b) for b in out["used"]] == [[0, 0, 1, 1, 0, 0], [0] * 6]
    assert [list(b) for b in out["bag"]] == [list(state.bags[1]), [2] * 6]


def test_planes_dice_rolling_spent_and_the_phase(registry):
    game, state = at(registry, {}, dice="E S N S S")
    out = filled(game, state, "ann")
    expected = np.zeros((5, 6), np.float32)
    for die, glyph in enumerate((E, S, N, S, S)):
        expected[die, glyph] = 1
    assert (out["dice"] == expected).all()
    assert out["phase"].tolist() == [float(p == ACT) for p in PHASES]
    assert out["rolling"].sum() == 0 and out["spent"].sum() == 0
    rolling = attrs.evolve(state, phase=ROLLING, dice=("E", None, None, "S", "S"), rolling=(1, 2), spent=(1, 2, 4))
    out = filled(game, rolling, "ben")
    assert out["dice"][1].sum() == 0 and out["dice"][2].sum() == 0 and out["dice"][0, E] == 1
    assert list(out["rolling"]) == [0, 1, 1, 0, 0] and list(out["spent"]) == [0, 1, 1, 0, 1]
    assert out["phase"][PHASES.index(ROLLING)] == 1 and out["phase"].sum() == 1


def test_planes_turn_eliminated_and_winner(registry):
    game, state = at(registry, {}, players=("ann", "ben", "cat"))
    state = game.resign(state, "cat")
    out = filled(game, state, "ben")  # seats from ben: ben, cat, ann
    assert list(out["turn"]) == [0, 0, 1] and list(out["eliminated"]) == [0, 1, 0]
    assert out["winner"].sum() == 0
    over = game.resign(state, "ann")
    assert over.phase == OVER and over.winner == 1
    out = filled(game, over, "cat")  # seats from cat: cat, ann, ben
    assert list(out["turn"]) == [0, 0, 0]  # nobody's turn once the game is over
    assert list(out["winner"]) == [0, 0, 1] and list(out["eliminated"]) == [1, 1, 0]
    assert out["phase"][PHASES.index(OVER)] == 1


def test_planes_target_and_glimpsed_while_the_seeress_looks(registry):
    game, state = at(registry, {"ann": {"g3": "S"}}, hands={"ben": "S N N U E"})
    state = act(game, state, "ann", "foresee g3 ben / D1")
    assert state.phase == GLIMPSE
    out = filled(game, state, "ann")
    assert list(out["target"]) == [0, 1] and out["glimpsed"].sum() == 0  # not yet seen
    state = game.apply(state, game.next(state).event)
    assert state.phase == DISCARD
    out = filled(game, state, "ann")
    assert list(out["target"]) == [0, 1] and list(out["glimpsed"]) == [1, 0, 1, 0, 2, 1]
    out = filled(game, state, "ben")  # ben sees his own coins in "coins", not as glimpsed
    assert list(out["target"]) == [1, 0] and out["glimpsed"].sum() == 0
    assert list(out["coins"]) == [1, 0, 1, 0, 2, 1]


def test_planes_landing_from_onto_and_whether_it_incinerates(registry):
    game, state = at(registry, {"ann": {"g3": "E"}, "ben": {"g4": "F"}})
    g3, g4, g5 = (game.geo.spot(s) for s in ("g3", "g4", "g5"))
    landing = attrs.evolve(state, steps=(Step(g3, g4, True), Step(g4, g5, True)))
    out = filled(game, landing, "ben")
    expected = np.zeros((2, 13, 13), np.float32)
    expected[(0, *cell(game, "g3"))] = 1
    expected[(1, *cell(game, "g4"))] = 1  # the next landing only
    assert (out["landing"] == expected).all() and list(out["incinerates"]) == [1]
    out = filled(game, attrs.evolve(state, steps=(Step(g4, g3, False),)), "ann")
    assert out["landing"][(0, *cell(game, "g4"))] == 1 and out["landing"][(1, *cell(game, "g3"))] == 1
    assert list(out["incinerates"]) == [0]
    assert filled(game, state, "ann")["landing"].sum() == 0


def test_planes_placed_and_owed_during_the_setup(registry):
    game = registry.game(Header("glyph-chess", ("ann", "ben", "cat")))
    state = game.initial()
    out = filled(game, state, "ben")  # seats from ben: ben, cat, ann
    assert list(out["placed"]) == [0, 0, 0] and list(out["owed"]) == [1, 2, 0]
    assert out["phase"][PHASES.index(SETUP)] == 1
    state = game.apply(state, Shuffle("ann", ("S", "I", "E", "F", "N", "U")))
    out = filled(game, state, "ben")
    assert list(out["placed"]) == [0, 0, 1] and out["pieces"][:, 2].sum() == 7 and out["pieces"][:, :2].sum() == 0
