"""A hand of several chips (``state.py``: ``State.hand``, ``hand_of``,
``hand_size``, ``Work.give``, ``Work.take``, ``Work.put_back``), reached under
the glux-two-chips house rule (``glux_hand_size`` 2) and a hand of three:
every chip held is listed, first drawn first; the chip showing the face
placed leaves the hand, the others keep their order; the draw that fills the
hand ends the turn."""

from __future__ import annotations

import attrs
import pytest

from tabletop import Registry, Variant, get_plugin_manager, hookimpl, rulehook
from tabletop_glux.events import Draw, FirstPlayer, Place, Start
from tabletop_glux.state import freeze, hand_of, hand_size, thaw

from ..conftest import ROOT
from .helpers import make_game, position

HOUSE_RULES = ROOT / "variants" / "house_rules"


class ThreeChips:
    @rulehook
    def glux_hand_size(self, players):
        return 3


class TestVariants:
    @hookimpl
    def register_variants(self):
        return [Variant("three-chips", "glux", "hold three chips", ThreeChips())]


@pytest.fixture(scope="module")
def house() -> Registry:
    pm = get_plugin_manager([HOUSE_RULES / "glux_two_chips.py", HOUSE_RULES / "glux_put_back.py"], environment=False)
    pm.register(TestVariants())
    return Registry(pm)


def holding(game, hands, turn="ann"):
    """A position after setup (ann's start chip on a1 shows 6, ben's on m9 shows 1),
    each player holding the chips named, first drawn first."""
    state = position(
        game,
        {"a1": [("ann", 6)], "m9": [("ben", 1)]},
        hands={p: chips[0] for p, chips in hands.items()},
        turn=turn,
    )
    return attrs.evolve(state, held=tuple(tuple(hands[p][1:]) for p in game.players))


def placing(game, state, player, face):
    """A legal placement of ``player`` showing ``face`` (counting, not the option)."""
    found = [e for e in game.legal(state, player) if isinstance(e, Place) and e.face == face and not e.start]
    assert found, f"{player} cannot place a {face}"
    return found[0]


def test_glux_two_chips_setup_draws_a_hand_of_two_first_drawn_first(house):
    game = make_game(house, variants=["glux-two-chips"])
    assert game.hand_size == 2
    state = game.initial()
    for event in (Draw("ann", "1/6"), Draw("ben", "2/5"), Start("ann", 6), Start("ben", 5)):
        state = game.apply(state, event)
    assert [hand_size(state, seat) for seat in (0, 1)] == [0, 0] and state.hand(0) == ()
    # ann draws her two chips, then ben his; only then the first player.
    state = game.apply(state, Draw("ann", "3/4"))
    assert state.hand(0) == ("3/4",) and hand_size(state, 0) == 1
    assert game.next(state).outcomes[0].player == "ann"
    state = game.apply(state, Draw("ann", "1/6"))
    assert state.hand(0) == ("3/4", "1/6") and hand_size(state, 0) == 2 and state.hands[0] == "3/4"
    assert game.next(state).outcomes[0].player == "ben"
    state = game.apply(state, Draw("ben", "2/5"))
    state = game.apply(state, Draw("ben", "2/5"))
    assert state.hand(1) == ("2/5", "2/5") and hand_size(state, 1) == 2
    assert state.held == (("1/6",), ("2/5",))
    assert game.next(state).outcomes == (FirstPlayer("ann"), FirstPlayer("ben"))
    assert state.bags == ((6, 8, 7), (8, 5, 8))


def test_glux_two_chips_either_chip_is_placed_and_the_draw_fills_the_hand_again(house):
    game = make_game(house, variants=["glux-two-chips"])
    state = holding(game, {"ann": ["1/6", "3/4"], "ben": ["2/5", "2/5"]})
    faces = {e.face for e in game.legal(state, "ann") if isinstance(e, Place) and not e.start}
    assert faces == {1, 6, 3, 4}
    # The second chip placed: the first stays first.
    state = game.apply(state, placing(game, state, "ann", 4))
    assert state.hand(0) == ("1/6",) and hand_size(state, 0) == 1 and state.bags[0] == (5, 5, 5)
    assert state.turn == 0 and state.drawing  # the hand is short: ann draws
    state = game.apply(state, Draw("ann", "2/5"))
    assert state.hand(0) == ("1/6", "2/5") and state.bags[0] == (5, 4, 5)
    assert state.turn == 1 and not state.drawing  # the hand is full again: the turn passes
    # Two chips of one kind: one leaves, one stays.
    state = game.apply(state, placing(game, state, "ben", 2))
    assert state.hand(1) == ("2/5",) and hand_size(state, 1) == 1
    state = game.apply(state, Draw("ben", "1/6"))
    # The first chip placed: the second moves up.
    state = game.apply(state, placing(game, state, "ann", 6))
    assert state.hand(0) == ("2/5",) and state.hands[0] == "2/5" and hand_size(state, 0) == 1


def test_glux_two_chips_the_last_chip_leaves_an_empty_hand(house):
    # The bag empty, the hand not filled: the last chip placed, nothing is held.
    game = make_game(house, variants=["glux-two-chips"])
    state = holding(game, {"ann": ["1/6", "3/4"], "ben": ["2/5", "2/5"]})
    state = attrs.evolve(state, bags=((0, 0, 0), (5, 5, 5)))
    state = game.apply(state, placing(game, state, "ann", 1))
    assert state.hand(0) == ("3/4",) and state.turn == 1 and not state.drawing  # no draw: ben's turn
    state = game.apply(state, placing(game, state, "ben", 5))
    state = game.apply(state, Draw("ben", "3/4"))
    state = game.apply(state, placing(game, state, "ann", 3))
    assert state.hand(0) == () and hand_size(state, 0) == 0 and state.hands[0] is None


def test_a_hand_of_three_keeps_the_order_drawn_when_a_chip_leaves(house):
    game = make_game(house, variants=["three-chips"])
    assert game.hand_size == 3
    state = holding(game, {"ann": ["1/6", "2/5", "3/4"], "ben": ["3/4", "2/5", "1/6"]})
    # The middle chip leaves: the first and last keep their places.
    after = game.apply(state, placing(game, state, "ann", 5))
    assert after.hand(0) == ("1/6", "3/4") and hand_size(after, 0) == 2
    # The first chip leaves: the second moves up to first, the third follows it.
    after = game.apply(state, placing(game, state, "ann", 1))
    assert after.hand(0) == ("2/5", "3/4") and after.hands[0] == "2/5" and after.held[0] == ("3/4",)
    # The last chip leaves.
    after = game.apply(state, placing(game, state, "ann", 3))
    assert after.hand(0) == ("1/6", "2/5")
    assert after.hand(1) == ("3/4", "2/5", "1/6") and hand_size(after, 1) == 3  # ben's hand untouched


def test_a_hand_of_several_chips_gives_and_takes_on_the_twin(house):
    game = make_game(house, variants=["glux-two-chips"])
    state = holding(game, {"ann": ["1/6"], "ben": ["2/5"]})
    work = thaw(state)
    assert work.held is not None and hand_of(work, 0) == ("1/6",) and hand_size(work, 0) == 1
    work.give(0, "3/4")
    assert work.hand(0) == ("1/6", "3/4") and hand_size(work, 0) == 2 and work.hand(1) == ("2/5",)
    with pytest.raises(ValueError, match="^seat 0 holds no 2/5 chip$"):
        work.take(0, "2/5")
    work.take(0, "3/4")
    assert work.hand(0) == ("1/6",)
    work.take(0, "1/6")
    assert work.hand(0) == () and work.hands[0] is None and hand_size(work, 0) == 0
    with pytest.raises(ValueError, match="^seat 0 holds no 1/6 chip$"):
        work.take(0, "1/6")
    # From nothing held at all (the official hand of one): the first chip given goes in hand.
    official = thaw(attrs.evolve(state, hands=(None, "2/5"), held=()))
    assert official.held is None
    official.give(0, "1/6")
    assert official.hands[0] == "1/6" and official.held is None and hand_size(official, 0) == 1
    official.give(0, "2/5")
    assert official.hand(0) == ("1/6", "2/5") and official.held == [["2/5"], []]
    assert freeze(official).hand(0) == ("1/6", "2/5") and freeze(official).held == (("2/5",), ())


def test_a_hand_of_one_is_one_chip_and_none_is_no_chip(registry):
    game = make_game(registry)
    state = position(game, {}, hands={"ann": "2/5", "ben": None})
    assert state.held == () and state.hand(0) == ("2/5",) and state.hand(1) == ()
    assert hand_size(state, 0) == 1 and hand_size(state, 1) == 0
    assert hand_of(thaw(state), 0) == ("2/5",) and hand_size(thaw(state), 1) == 0


def test_glux_put_back_a_chip_of_a_hand_of_two_goes_back_into_the_bag(house):
    game = make_game(house, variants=["glux-two-chips", "glux-put-back"])
    state = holding(game, {"ann": ["1/6", "3/4"], "ben": ["2/5", "2/5"]})
    work = thaw(state)
    work.put_back(0, "3/4", game.chips)
    assert work.hand(0) == ("1/6",) and work.bags[0] == [5, 5, 6]
    work.put_back(0, "1/6", game.chips)
    assert work.hand(0) == () and work.bags[0] == [6, 5, 6]
    # In play: ann puts back her first chip, draws one, and still holds two.
    decision = game.parse("putback 1/6", "ann", state)
    assert game.check(state, decision) is None
    state = game.apply(state, decision)
    assert state.hand(0) == ("3/4",) and state.bags[0] == (6, 5, 5)
    state = game.apply(state, Draw("ann", "2/5"))
    assert state.hand(0) == ("3/4", "2/5") and state.bags[0] == (6, 4, 5) and state.turn == 0
