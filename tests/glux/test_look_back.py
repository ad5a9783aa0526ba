"""Rule 2 checked backward: a placement is checked by looking back from its
square for the first chip in each direction (``Placement.reaches``), no
farther than the highest face in force, since no chip farther away can count
to the square. These hold that bound at its edge, on the plain rules and on
the fast path a replay folds on."""

from __future__ import annotations

from tabletop_glux.events import Place

from .helpers import make_game, position

NO_COUNT = "no chip of yours counts exactly to {} along a clear straight line"


def test_rule_2_a_six_counts_to_the_sixth_square_back_and_no_farther(registry):
    game = make_game(registry)
    state = position(game, {"a1": [("ann", 6)], "m9": [("ben", 3)]}, hands={"ann": "1/6"}, turn="ann")
    for check, on in ((game.check, state), (game.fast().check, game.fast().thaw(state))):
        assert check(on, Place("ann", "a7", 1)) is None
        assert check(on, Place("ann", "g1", 6)) is None
        assert check(on, Place("ann", "a8", 1)) == NO_COUNT.format("a8")
        assert check(on, Place("ann", "h1", 6)) == NO_COUNT.format("h1")
        assert check(on, Place("ann", "a6", 1)) == NO_COUNT.format("a6")


def test_rule_3_the_look_back_stops_at_the_first_chip_in_the_way(registry):
    game = make_game(registry)
    # ben's 1 on a2 stands in the way: ann's 6 on a1 counts no farther up.
    chips = {"a1": [("ann", 6)], "a2": [("ben", 1)], "m9": [("ben", 3)]}
    state = position(game, chips, hands={"ann": "1/6"}, turn="ann")
    assert game.check(state, Place("ann", "a7", 1)) == NO_COUNT.format("a7")
    assert game.check(state, Place("ann", "g1", 1)) is None
