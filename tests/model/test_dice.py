"""The core's dice (tabletop.model.dice): one die, or several rolled together as
one chance node with the dice's own chances."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from tabletop.model.dice import MOST_OUTCOMES, dice, die, ways


def test_one_die_is_each_face_alike():
    node = die(lambda face: ("roll", face), 6)
    assert node.outcomes == tuple(("roll", f) for f in range(1, 7)) and node.weights is None
    glyphs = die(lambda face: face, ("fire", "water", "air"))
    assert glyphs.outcomes == ("fire", "water", "air")


@pytest.mark.parametrize(("count", "sides"), [(1, 6), (2, 6), (3, 6), (4, 3), (3, 9)])
def test_dice_together_show_each_multiset_as_often_as_the_dice_do(count, sides):
    node = dice(lambda shown: shown, count, sides)
    every = Counter(tuple(sorted(roll)) for roll in product(range(1, sides + 1), repeat=count))
    assert dict(zip(node.outcomes, node.weights)) == every
    assert list(node.outcomes) == sorted(every)  # lowest first, in a fixed order


def test_ordered_dice_are_every_sequence_alike():
    node = dice(lambda shown: shown, 2, 3, ordered=True)
    assert node.outcomes == tuple(product((1, 2, 3), repeat=2)) and node.weights is None


def test_ways():
    assert ways((1, 1, 2)) == 3 and ways((1, 2, 3)) == 6 and ways((4, 4, 4)) == 1 and ways(()) == 1


def test_a_roll_too_large_to_list_is_refused():
    with pytest.raises(ValueError, match=f"at most {MOST_OUTCOMES}"):
        dice(lambda shown: shown, 12, 6, ordered=True)
    with pytest.raises(ValueError, match="outcomes"):
        dice(lambda shown: shown, 30, 9)
    with pytest.raises(ValueError):
        die(lambda face: face, 0)
