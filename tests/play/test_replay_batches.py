"""A fast replay reads and decodes events a block of the file at a time: its
errors still name the line at fault, and the first error in the file is the
one reported."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import TabletopError
from tabletop.base.errors import IllegalEventError, LogFormatError
from tabletop.log import jsonline
from tabletop.log.logfile import BLOCK
from tabletop.play.engine import Replay

from ..conftest import REPLAYS

LONG = REPLAYS / "glyph_chess" / "three-players-random.jsonl"


def _lines() -> list[str]:
    return LONG.read_text().splitlines(keepends=True)


def _first_of_block(block: int) -> int:
    """The number of the first line that begins in the ``block``-th block read."""
    offset = 0
    for number, line in enumerate(_lines(), start=1):
        if offset >= block * BLOCK:
            return number
        offset += len(line.encode())
    raise AssertionError("the log is shorter than that")


BATCH = _first_of_block(1)


def test_the_log_is_longer_than_a_block(registry):
    assert Replay(registry, LONG).run().seq > BATCH + 100


@pytest.mark.parametrize("line", [5, BATCH - 1, BATCH, BATCH + 1, BATCH + 2, BATCH + 200])
def test_an_illegal_roll_names_its_line(registry, tmp_path, line):
    lines = _lines()
    roll = next(i for i in range(line - 1, len(lines)) if '"kind":"roll"' in lines[i])
    # A die that does not exist (91, 92, ...): illegal whatever the state.
    lines[roll] = lines[roll].replace('"die":', '"die":9', 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(lines))
    with pytest.raises((IllegalEventError, LogFormatError)) as caught:
        Replay(registry, bad).run()
    assert caught.value.where == f"{bad}:{roll + 1}"


def test_an_illegal_event_before_an_unreadable_line_is_the_one_reported(registry, tmp_path):
    lines = _lines()
    first = next(i for i in range(BATCH - 10, len(lines)) if '"kind":"roll"' in lines[i])
    lines[first] = lines[first].replace('"die":', '"die":9', 1)
    lines[first + 3] = "{not json\n"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(lines))
    with pytest.raises((IllegalEventError, LogFormatError)) as caught:
        Replay(registry, bad).run()
    assert caught.value.where == f"{bad}:{first + 1}"
    # With the illegal event put right, the unreadable line is reported, at its line.
    lines[first] = _lines()[first]
    bad.write_text("".join(lines))
    with pytest.raises(LogFormatError) as caught:
        Replay(registry, bad).run()
    assert caught.value.where == f"{bad}:{first + 4}"


def test_a_truncated_last_line_after_a_batch(registry, tmp_path):
    bad = tmp_path / "cut.jsonl"
    bad.write_bytes(LONG.read_bytes()[:-5])
    with pytest.raises(LogFormatError, match="truncated last line") as caught:
        Replay(registry, bad).run()
    assert caught.value.where == f"{bad}:{len(_lines())}"


# -- event numbers read by their text ----------------------------------------------
HEADS = st.one_of(
    st.integers(0, 10**20).map(lambda n: b'{"seq":%d' % n),
    st.sampled_from([b'{"seq":01', b'{"seq":+1', b'{"seq": 1', b'{"seq":1_0', b'{"seq":', b'{"seq":-1', b'{"seq":1.0']),
    st.binary(max_size=12).map(lambda b: b'{"seq":' + b.replace(b",", b"")),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(head=HEADS, repeat=st.booleans())
def test_a_line_read_by_its_number_is_read_as_json_reads_it(registry, head, repeat):
    """A line whose number and event were seen before is read from what the
    codec remembers: the same event and number as reading its JSON, and the
    same refusal for any number not written as tabletop writes it (leading
    zeros, signs, spaces, more than 18 digits)."""
    line = head + b',"kind":"draw","player":"ann","payload":{"chip":"1/6"}}'
    codec = registry.codec
    for _ in range(1 + repeat):  # the second time from what the codec remembers
        try:
            expected = codec.decode("glux", jsonline.loads(line))
        except TabletopError as exc:
            expected = type(exc)
        for read in (lambda: codec.decode_line("glux", line), lambda: _decoded(codec, [line])[0]):
            try:
                got = read()
            except TabletopError as exc:
                got = type(exc)
            assert got == expected
    if isinstance(expected, tuple) and expected[0] >= 10**18:
        # Numbers of more than 18 digits go the long way, and are not remembered.
        assert head not in codec._numbers


def _decoded(codec, lines):
    into: list = []
    codec.decode_lines("glux", lines, into)
    return into
