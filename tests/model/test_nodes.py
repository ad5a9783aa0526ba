"""The core's nodes: what a chance node allows."""

from __future__ import annotations

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop import Chance, Event


@attrs.frozen
class Roll(Event):
    kind = "roll"
    origin = "chance"
    face: int


@settings(max_examples=200, deadline=None)
@given(
    weights=st.none() | st.lists(st.integers(0, 3), min_size=6, max_size=6).map(tuple),
    asked=st.lists(st.integers(0, 8), max_size=200),
    fresh=st.booleans(),
)
def test_a_chance_node_allows_exactly_its_outcomes_of_some_weight(weights, asked, fresh):
    """Asked again and again, about the same events or equal new ones, past
    the number of answers it remembers: a node allows an event exactly when
    it is one of its outcomes with a weight above zero."""
    node = Chance(tuple(Roll(face) for face in range(1, 7)), weights)
    kept = [Roll(face) for face in range(9)]
    for face in asked:
        event = Roll(face) if fresh else kept[face]
        expected = 1 <= face <= 6 and (weights is None or weights[face - 1] > 0)
        assert node.allows(event) is expected


def test_an_answer_is_never_given_for_another_event_at_the_same_address():
    node = Chance((Roll(1), Roll(2)), (1, 0))
    for _ in range(1_000):
        # Each event dies before the next is made: CPython often gives the
        # new one the old one's address.
        assert node.allows(Roll(1)) is True
        assert node.allows(Roll(2)) is False
        assert node.allows(Roll(3)) is False
