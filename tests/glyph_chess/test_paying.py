"""Paying, as the rule book and RULINGS say, through the one payment
machinery: cost kinds, payment types, what may pay (``glyph_payers``)."""

from __future__ import annotations

import pytest

from tabletop import PluginError
from tabletop_glyph_chess import payment
from tabletop_glyph_chess.payment import Payers


class Position:
    def __init__(self, dice, spent=(), hand=(0, 0, 0, 0, 0, 0)):
        self.dice, self.spent, self.hands = list(dice), list(spent), [list(hand)]


def ways(state, cost, amount, faces, coins=()):
    return list(payment.options(state, 0, cost, amount, Payers(frozenset(faces), frozenset(coins))))


def test_consume_x_dice_first_then_coins_of_the_type():
    state = Position("EESSU", hand=(0, 0, 2, 0, 0, 0))  # dice E E S S U; two E coins
    assert ways(state, "x", 2, "E", "E") == [((1, 2), ()), ((1,), ("E",)), ((), ("E", "E"))]
    assert ways(state, "x", 3, "E", "E") == [((1, 2), ("E",)), ((1,), ("E", "E"))]
    assert ways(state, "x", 5, "E", "E") == []


def test_a_spent_die_does_not_pay():
    state = Position("EESSU", spent=[0])
    assert ways(state, "x", 1, "E") == [((2,), ())]
    assert payment.error(state, 0, "x", 1, (1,), (), Payers(frozenset("E")), "E") == "D1 was spent already this turn"


def test_item_die_and_die_plus_x():
    state = Position("EESSU", hand=(0, 0, 1, 0, 0, 0))
    assert ways(state, "item", 7, "E", "E") == [((1,), ()), ((), ("E",))]
    assert ways(state, "die", 0, "E", "E") == [((1,), ())]
    assert ways(state, "die+x", 1, "E", "E") == [((1, 2), ()), ((1,), ("E",))]
    # A master spell's die is a die: no coin replaces it (FAQ Q4).
    assert ways(Position("SSSSU", hand=(0, 0, 3, 0, 0, 0)), "die+x", 1, "E", "E") == []


def test_coin_costs_take_no_dice():
    state = Position("NNSSU", hand=(0, 0, 0, 0, 1, 0))
    assert ways(state, "coin", 1, "N", "N") == [((), ("N",))]
    assert ways(state, "coin", 2, "N", "N") == []
    paid_by = Payers(frozenset("N"), frozenset("N"))
    assert payment.error(state, 0, "coin", 1, (1,), (), paid_by, "N") == "this is paid in coins, never dice"
    assert payment.error(state, 0, "coin", 1, (), ("N",), paid_by, "N") is None


def test_coin_costs_count_the_coins_given_in_words():
    state = Position("NNSSU", hand=(0, 0, 0, 0, 3, 0))
    paid_by = Payers(frozenset("N"), frozenset("N"))
    assert payment.error(state, 0, "coin", 1, (), ("N", "N"), paid_by, "N") == "this costs 1 coin; 2 given"
    assert payment.error(state, 0, "coin", 2, (), ("N",), paid_by, "N") == "this costs 2 coins; 1 given"


def test_the_coins_of_a_dead_glyph_piece_are_wild_whichever_dies():
    # The types of dead glyph pieces are wild, the last type as the first.
    from tabletop_glyph_chess.pieces import GLYPHS
    from tabletop_glyph_chess.state import ALIVE, BURNT, KILLED

    class Fates:
        def __init__(self, fates):
            self.fates = [tuple(fates)]

    assert payment.official_wild(Fates([ALIVE] * 6), 0) == frozenset()
    for k, glyph in enumerate(GLYPHS):
        for fate in (KILLED, BURNT):
            fates = [ALIVE] * 6
            fates[k] = fate
            assert payment.official_wild(Fates(fates), 0) == {glyph}, (glyph, fate)
    # Several dead at once: every one of their types.
    for k in range(6):
        for fate in (KILLED, BURNT):
            fates = [ALIVE] * k + [fate] * (6 - k)
            assert payment.official_wild(Fates(fates), 0) == set(GLYPHS[k:]), fates


def test_the_scepter_pays_dice_of_any_face():
    state = Position("EESSU")
    assert ways(state, "any-die", 1, ()) == [((1,), ()), ((3,), ()), ((5,), ())]
    assert payment.error(state, 0, "any-die", 1, (1, 2), (), None, "K") == (
        "the scepter moves for exactly 1 die, never coins"
    )


def test_wild_coins_pay_for_any_type_and_sight_blocks_coins():
    state = Position("SSSSU", hand=(0, 1, 0, 0, 0, 0))  # an I coin
    assert ways(state, "x", 1, "E", {"E", "I"}) == [((), ("I",))]  # I is wild
    assert ways(state, "x", 1, "E", {"E"}) == []
    blocked = Payers(frozenset("E"), frozenset(), "in sight of an enemy seeress")
    assert payment.error(state, 0, "x", 1, (), ("I",), blocked, "E") == (
        "in sight of an enemy seeress: no coins may be used"
    )
    assert payment.error(state, 0, "x", 1, (), ("I",), Payers(frozenset("E"), frozenset("E")), "E") == (
        "an I coin pays only for I (it is not wild)"
    )


def test_several_faces_may_pay_and_dice_of_different_faces_differ():
    state = Position("EUEUS")
    found = ways(state, "x", 2, "EU")
    assert sorted(found) == sorted([((1, 3), ()), ((1, 2), ()), ((2, 4), ())])
    assert ways(state, "x", 1, "EU") == [((1,), ()), ((2,), ())]


def test_costs_of_unknown_kinds_or_types_are_refused():
    assert payment.cost_of("the cost of swap", "item") == ("item", None)
    assert payment.cost_of("the cost of swap", ("x", "U")) == ("x", "U")
    with pytest.raises(PluginError, match="the cost of swap: 'two' is not a cost kind"):
        payment.cost_of("the cost of swap", "two")
    with pytest.raises(PluginError, match="'M' is not a payment type"):
        payment.cost_of("the cost of swap", ("x", "M"))


def test_one_die_and_one_item_are_paid_alike_for_every_x():
    # ``payment.FLAT``: a listing counts the casts of a spell of these costs
    # from the ways for X = NEEDED alone, so they must be the ways for every X.
    positions = [Position("EESSU", hand=(0, 1, 2, 0, 0, 0)), Position("EUEUS", spent=[0]), Position("SSSSU")]
    for state in positions:
        for faces, coins in (("E", "E"), ("EU", "EI"), ("S", "")):
            for cost in sorted(payment.FLAT):
                needed = ways(state, cost, payment.NEEDED[cost], faces, coins)
                assert all(ways(state, cost, x, faces, coins) == needed for x in range(6)), (cost, faces)
    # The costs that depend on X are not among them.
    state = Position("EESSU", hand=(0, 0, 2, 0, 0, 0))
    for cost in payment.COST_KINDS - payment.FLAT - {"any-die"}:
        assert ways(state, cost, 1, "E", "E") != ways(state, cost, 2, "E", "E"), cost
