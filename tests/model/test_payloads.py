"""Payloads read by the functions made per event class accept and refuse
exactly what the project's cattrs converter does, and write what it writes."""

from __future__ import annotations

import cattrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.model import payloads

#: Values of every JSON type a payload may hold, right and wrong.
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.sampled_from(["a", "g7", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["x", "y"]), inner, max_size=2),
    max_leaves=4,
)


def _kinds(registry):
    return sorted(
        {(game, kind): cls for game, table in registry.codec.kinds.items() for kind, cls in table.items()}.items()
    )


RIGHT = {str: st.sampled_from(["a", "g7", ""]), int: st.integers(-3, 9), bool: st.booleans(), float: st.floats(-1, 1)}


def _right(hint):
    plain = payloads._plain(hint)
    if plain is None:
        return VALUES
    kind, many = plain
    return st.lists(RIGHT[kind], max_size=3) if many else RIGHT[kind]


@st.composite
def _payloads(draw, cls):
    """Payloads near a right one: each field right, wrong or left out, and now and then a key added."""
    hints = payloads._types(cls)
    payload = {}
    for name in (n for n in hints if n not in ("kind", "origin")):
        how = draw(st.sampled_from(["right", "right", "right", "wrong", "missing"]))
        if how != "missing":
            payload[name] = draw(_right(hints[name]) if how == "right" else VALUES)
    if draw(st.integers(0, 9)) == 0:
        payload["extra"] = 1
    return payload


def test_most_event_classes_have_a_reader(registry):
    made = {kind: payloads.compile_reader(cls) is not None for (_, kind), cls in _kinds(registry)}
    # Unseal holds a whole decision (a dict): the converter reads it.
    assert made["unseal"] is False
    assert made["place"] and made["cast"] and made["move"] and made["draw"]


@pytest.mark.parametrize("game", ["glux", "glyph-chess"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_reader_accepts_what_the_converter_accepts(registry, game, data):
    table = registry.codec.kinds[game]
    cls = table[data.draw(st.sampled_from(sorted(table)))]
    read = payloads.compile_reader(cls)
    if read is None:
        return
    payload = data.draw(_payloads(cls))
    try:
        expected = registry.codec.converter.structure(dict(payload), cls)
    except cattrs.BaseValidationError:
        expected = None
    except Exception:  # the class's own validators refuse it: so must the reader
        with pytest.raises(Exception):  # noqa: B017
            read(dict(payload))
        return
    assert read(dict(payload)) == expected
    if expected is not None:
        write = payloads.compile_writer(cls)
        assert write(expected) == registry.codec.converter.unstructure(expected)
