"""A state's mutable twin derived from its declared fields (``tabletop.model.twin``)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.model.memo import EMPTY, Memo, remember
from tabletop.model.twin import LISTS, LISTS_OR_NONE, SAME, evolver, twin


@attrs.frozen
class Sample:
    stacks: tuple[tuple[int, ...], ...]
    bags: tuple[tuple[int, ...], ...]
    hands: tuple[str | None, ...]
    turn: int | None = None
    memo: Memo = EMPTY
    held: tuple[tuple[str, ...], ...] = ()
    kept: tuple[int, ...] = ()
    last: str = attrs.field(default="", kw_only=True)


@twin(Sample, bags=LISTS, held=LISTS_OR_NONE, kept=SAME)
class Twin:
    """Sample, mutable."""

    fast: Any = None
    count: int = 0
    at: str

    def bag_size(self, seat: int) -> int:
        return sum(self.bags[seat])


small = st.integers(0, 9)
samples = st.builds(
    Sample,
    st.lists(st.lists(small, max_size=3).map(tuple), max_size=3).map(tuple),
    st.lists(st.lists(small, max_size=3).map(tuple), max_size=3).map(tuple),
    st.lists(st.none() | st.sampled_from("abc"), max_size=3).map(tuple),
    st.none() | small,
    st.sampled_from([EMPTY, remember(EMPTY, "v", 1)]),
    st.lists(st.lists(st.sampled_from("xy"), min_size=1, max_size=2).map(tuple), max_size=3).map(tuple),
    st.lists(small, max_size=3).map(tuple),
    last=st.sampled_from(["", "z"]),
)


@given(samples)
def test_freezing_a_thawed_state_gives_the_state(state):
    work = Twin.thaw(state)
    assert Twin.freeze(work) == state


def test_each_field_is_thawed_in_its_shape():
    state = Sample(((1, 2), (3,)), ((1, 0), (2, 2)), ("a", None), held=(("x",), ()), kept=(4,), last="z")
    work = Twin.thaw(state)
    assert work.stacks == [(1, 2), (3,)]  # a tuple field is a list, its items as they are
    assert work.bags == [[1, 0], [2, 2]] and work.hands == ["a", None]
    assert work.held == [["x"], []] and work.kept == (4,) and work.last == "z" and work.turn is None
    assert (work.fast, work.count) == (None, 0) and not hasattr(work, "at")  # the twin's own, as declared
    assert work.bag_size(1) == 4
    work.bags[1][0] -= 2
    work.held[0].pop()
    work.at = "placing"
    assert Twin.freeze(work) == attrs.evolve(state, bags=((1, 0), (0, 2)), held=())
    assert Twin.thaw(Sample((), (), ())).held is None  # none held: None on the twin
    assert Twin.frozen is Sample and Twin.__name__ == "Twin" and Twin.__doc__ == "Sample, mutable."


def test_a_twin_is_slotted_with_the_fields_of_its_state_and_its_own():
    assert Twin.__slots__ == (*(f.name for f in attrs.fields(Sample)), "fast", "count", "at")
    with pytest.raises(AttributeError):
        Twin.thaw(Sample((), (), ())).colour = "red"


def test_a_field_added_to_the_state_is_on_its_twin():
    @attrs.frozen
    class More(Sample):
        extra: tuple[int, ...] = (7,)

    @twin(More)
    class MoreTwin:
        pass

    work = MoreTwin.thaw(More((), (), ()))
    assert work.extra == [7] and work.stacks == []
    assert MoreTwin.freeze(work) == More((), (), ())


def test_what_a_twin_cannot_be_is_refused():
    with pytest.raises(TypeError, match="no field 'colour'"):
        twin(Sample, colour=LISTS)
    with pytest.raises(TypeError, match="every twin would share it"):

        @twin(Sample)
        class Shared:
            reach: list = []  # the mistake refused

    with pytest.raises(TypeError, match="is a field of Sample"):

        @twin(Sample)
        class Clash:
            def turn(self) -> None:
                pass


def test_evolve_written_out_is_attrs_evolve():
    evolve = evolver(Sample)
    state = Sample(((1,),), (), ("a",), last="q")
    assert evolve(state, turn=3, last="r") == attrs.evolve(state, turn=3, last="r")
    assert evolve(state) == state


@pytest.mark.parametrize("module", ["tabletop_glux.state", "tabletop_glyph_chess.state"])
def test_each_games_work_is_the_twin_of_its_state(module):
    """The games' mutable states are derived from their states' fields: a
    field added to a state is on its Work, thawed and frozen, with no more
    edits."""
    import importlib

    state = importlib.import_module(module)
    assert state.Work.frozen is state.State
    assert state.thaw is state.Work.thaw and state.freeze is state.Work.freeze
    fields = tuple(f.name for f in attrs.fields(state.State))
    assert state.Work.__slots__[: len(fields)] == fields
