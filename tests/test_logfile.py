"""Writing logs: whole lines, all or nothing, one writer at a time."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from tabletop import LogFormatError, UsageError, logfile


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

    from .conftest import REPLAYS

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
