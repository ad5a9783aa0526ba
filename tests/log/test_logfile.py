"""Writing logs: whole lines, all or nothing, one writer at a time."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop import LogFormatError, UsageError
from tabletop.log import logfile
from tabletop.log.jsonline import MAX_LINE


def test_append_writes_whole_lines(tmp_path):
    log = tmp_path / "g.jsonl"
    logfile.create(log, ["header"])
    with logfile.locked(log) as handle:
        logfile.append(handle, ["one", "two"])
    assert log.read_text() == "header\none\ntwo\n"


def test_a_failed_write_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    log = tmp_path / "g.jsonl"
    logfile.create(log, ["header", "one"])
    before = log.read_bytes()
    calls = []

    def broken_fsync(fd):
        calls.append(fd)
        if len(calls) == 1:  # the disk fails once the data is written, before it is safe
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with (
        pytest.raises(UsageError, match="no space left on the device; nothing was added"),
        logfile.locked(log) as handle,
    ):
        logfile.append(handle, ["two", "three"])
    assert log.read_bytes() == before


def test_append_refuses_a_file_whose_last_line_is_cut(tmp_path):
    log = tmp_path / "g.jsonl"
    log.write_text("header\nhalf a li")
    with pytest.raises(LogFormatError, match="truncated"), logfile.locked(log) as handle:
        logfile.append(handle, ["next"])
    assert log.read_text() == "header\nhalf a li"


def test_create_never_replaces_a_file(tmp_path):
    log = tmp_path / "g.jsonl"
    log.write_text("mine\n")
    with pytest.raises(UsageError, match="file exists"):
        logfile.create(log, ["header"])
    assert log.read_text() == "mine\n"
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]


def _writer(path: str, tag: str, count: int) -> None:
    for i in range(count):
        with logfile.locked(Path(path)) as handle:
            # Read-then-append under the lock, as `play` does: numbering must stay gapless.
            n = sum(1 for _ in handle)
            logfile.append(handle, [f"{n} {tag} {'x' * (i % 50)}"])


def test_two_processes_appending_never_interleave(tmp_path):
    log = tmp_path / "g.jsonl"
    logfile.create(log, ["0 header"])
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(log), tag, 150)) for tag in ("a", "b")]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    lines = log.read_text().splitlines()
    assert len(lines) == 301
    assert [int(line.split()[0]) for line in lines] == list(range(301))
    assert {line.split()[1] for line in lines[1:]} == {"a", "b"}


def test_reading_logs_needs_no_fcntl(tmp_path):
    """Where there is no fcntl (Windows), replay, verify and moves still work:
    the locking module is imported only where a lock is taken."""
    import subprocess
    import sys

    from ..conftest import REPLAYS

    log = REPLAYS / "glux" / "two-players.jsonl"
    code = (
        "import sys; sys.modules['fcntl'] = None\n"
        "from tabletop.cli import main\n"
        "for argv in (['replay', sys.argv[1]], ['verify', sys.argv[1]], ['moves', sys.argv[1]]):\n"
        "    try:\n"
        "        main(argv, prog_name='tabletop')\n"
        "    except SystemExit as exc:\n"
        "        assert exc.code in (0, None), (argv, exc.code)\n"
        "assert 'fcntl' not in sys.modules or sys.modules['fcntl'] is None\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(log)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "verified" in result.stdout


# -- reading a block at a time -----------------------------------------------------
def _read_one_by_one(data: bytes) -> tuple[list[tuple[int, bytes]], str | None]:
    """What reading gives, line by line, as the reader is documented: the
    good lines, then the first problem with its line number."""
    good: list[tuple[int, bytes]] = []
    pieces = data.split(b"\n")
    for number, line in enumerate(pieces[:-1], start=1):
        if len(line) > MAX_LINE:
            return good, f"{number}: line longer than"
        if line.endswith(b"\r"):
            return good, f"{number}: the line ends with CR LF"
        if not line or line.isspace():
            return good, f"{number}: blank line"
        good.append((number, line))
    if pieces[-1]:
        number = len(pieces)
        if len(pieces[-1]) > MAX_LINE:
            return good, f"{number}: line longer than"
        return good, f"{number}: truncated last line"
    if not good:
        return good, "empty file"
    return good, None


def _read_in_blocks(path) -> tuple[list[tuple[int, bytes]], str | None]:
    got: list[tuple[int, bytes]] = []
    try:
        for first, lines in logfile.read_batches(path):
            got.extend(enumerate(lines, start=first))
    except LogFormatError as exc:
        where = exc.where.rpartition(":")[2] if exc.where != str(path) else ""
        return got, f"{where}: {exc.message}" if where else exc.message
    return got, None


LINE = st.one_of(
    st.just(b'{"seq":1,"kind":"x"}'),
    st.binary(max_size=40).map(lambda b: b.replace(b"\n", b"")),
    st.sampled_from([b"", b" ", b"\t", b'{"a":1}\r', b' {"a":1}', b"a\rb"]),
)


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(LINE, max_size=30), cut=st.booleans(), block=st.sampled_from([1, 7, 64, 1 << 16]))
def test_reading_in_blocks_gives_what_reading_line_by_line_would(tmp_path_factory, lines, cut, block):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(logfile, "BLOCK", block)
        _compare_readings(tmp_path_factory, lines, cut)


def _compare_readings(tmp_path_factory, lines, cut):
    data = b"\n".join(lines) + (b"" if cut or not lines else b"\n")
    path = tmp_path_factory.mktemp("blocks") / "log.jsonl"
    path.write_bytes(data)
    expected_lines, expected_problem = _read_one_by_one(data)
    got_lines, problem = _read_in_blocks(path)
    assert got_lines == expected_lines
    if expected_problem is None:
        assert problem is None
    else:
        assert problem is not None and problem.startswith(expected_problem)


def test_a_line_too_long_is_refused_without_reading_it_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(logfile, "MAX_LINE", 100)
    path = tmp_path / "long.jsonl"
    path.write_bytes(b'{"a":1}\n' + b"x" * 10_000 + b"\n{}\n")
    reads = []
    real_open = logfile.files.open_regular

    def counting_open(*args, **kwargs):
        handle = real_open(*args, **kwargs)
        read = handle.read
        handle.read = lambda n=-1: reads.append(n) or read(n)  # type: ignore[method-assign]
        return handle

    monkeypatch.setattr(logfile, "BLOCK", 64)
    monkeypatch.setattr(logfile.files, "open_regular", counting_open)
    got, problem = _read_in_blocks(path)
    assert got == [(1, b'{"a":1}')]
    assert problem == "2: line longer than 100 bytes"
    # It stopped once the line had passed the limit, a block or two later.
    assert sum(reads) <= 100 + 3 * 64
