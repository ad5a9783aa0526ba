"""Dice as chance nodes: one die, or several rolled together.

A die's faces are ``1`` to ``sides`` when given a number, else the faces
given in their order (Glyph Chess's glyphs). ``outcome`` makes the event
a roll shows (``lambda face: Roll(player, face)``), so a game keeps its own
event class and log line::

    die(lambda face: Roll("ann", face), 6)                # 6 outcomes, alike
    dice(lambda faces: Roll("ann", faces), 3, 6)          # 56 outcomes, weighted
    dice(lambda faces: Roll("ann", faces), 2, 6, ordered=True)   # 36, alike

Several dice rolled together are, by default, what shows on them whatever
the order: every multiset of faces, lowest first, each weighted by the
number of ways the dice can show it (``1 1 2`` is three ways of 216 with
three six-sided dice), so that the engine draws it with the dice's own
chances. ``ordered`` keeps which die shows what (the first die, the
second...): every sequence, all alike. One die per chance event (as
Liar's Dice and OpenSpiel roll) is :func:`die`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations_with_replacement, product
from math import comb, factorial, prod
from typing import Any

from .events import Event
from .nodes import Chance

#: The most outcomes one roll may have: a chance node is a tuple of its outcomes.
MOST_OUTCOMES = 100_000


def faces(sides: int | Sequence[Any]) -> tuple[Any, ...]:
    """A die's faces: ``1`` to ``sides``, or the faces given."""
    if isinstance(sides, int):
        if sides < 1:
            raise ValueError(f"a die has at least one face, not {sides}")
        return tuple(range(1, sides + 1))
    return tuple(sides)


def die(outcome: Callable[[Any], Event], sides: int | Sequence[Any]) -> Chance:
    """One die rolled: each face alike."""
    return Chance(tuple(outcome(face) for face in faces(sides)))


def ways(shown: Sequence[Any]) -> int:
    """How many ways the dice can show the multiset ``shown``: its count
    of orders (``3!/2!`` for ``1 1 2``)."""
    return factorial(len(shown)) // prod(factorial(n) for n in Counter(shown).values())


def dice(
    outcome: Callable[[tuple[Any, ...]], Event], count: int, sides: int | Sequence[Any], ordered: bool = False
) -> Chance:
    """``count`` dice rolled together: every multiset of faces (in the order
    of the faces) weighted by :func:`ways`, or with ``ordered`` every
    sequence of faces, all alike."""
    each = faces(sides)
    if count < 0:
        raise ValueError(f"cannot roll {count} dice")
    many = len(each) ** count if ordered else comb(len(each) + count - 1, count)
    if many > MOST_OUTCOMES:
        raise ValueError(f"{count} dice of {len(each)} faces have {many} outcomes (at most {MOST_OUTCOMES})")
    if ordered:
        return Chance(tuple(outcome(shown) for shown in product(each, repeat=count)))
    shows = list(combinations_with_replacement(each, count))
    return Chance(tuple(outcome(shown) for shown in shows), tuple(ways(shown) for shown in shows))
