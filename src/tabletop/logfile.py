"""Game logs on disk: JSON Lines, read as a stream, appended whole lines at a time.

A log is only ever appended to. An append writes all its lines in one write,
flushes and fsyncs; if any of that fails the file is cut back to its old size,
so a reader never meets half a line written by us. Appends hold an exclusive
lock (``flock``) on the file, so two writers never interleave.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from .errors import LogFormatError, TabletopError, UsageError
from .header import Header
from .registry import not_json


def read_lines(path: Path, handle: IO[bytes] | None = None) -> Iterator[tuple[int, bytes]]:
    """Each line of the log, numbered from 1, as bytes without the newline
    (the JSON reader checks that they are UTF-8)."""
    with contextlib.ExitStack() as stack:
        if handle is None:
            try:
                handle = stack.enter_context(open(path, "rb"))
            except OSError as exc:
                raise UsageError(f"cannot read: {exc.strerror}", where=str(path)) from None
        else:
            handle.seek(0)
        lineno = 0
        for lineno, raw in enumerate(handle, start=1):
            if raw.isspace():
                raise LogFormatError("blank line", where=f"{path}:{lineno}")
            if raw[-1:] != b"\n":
                raise LogFormatError("truncated last line (no newline at the end)", where=f"{path}:{lineno}")
            yield lineno, raw[:-1]
        if lineno == 0:
            raise LogFormatError("empty file: no header", where=str(path))


def parse_header(path: Path, line: bytes) -> Header:
    try:
        data = json.loads(line)
    except ValueError:
        raise LogFormatError(not_json(line), where=f"{path}:1") from None
    try:
        return Header.from_json(data)
    except TabletopError as exc:
        raise exc.at(f"{path}:1") from None


def create(path: Path, lines: Sequence[str], *, mode: int = 0o644) -> None:
    """Write a new log, never replacing an existing file; all or nothing."""
    path = Path(path)
    if path.exists():
        raise UsageError("file exists; choose another name", where=str(path))
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise UsageError(f"no such folder: {directory}", where=str(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write("".join(line + "\n" for line in lines).encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        # link() fails if the name was taken meanwhile: never overwrite.
        os.link(tmp, path)
    except FileExistsError:
        raise UsageError("file exists; choose another name", where=str(path)) from None
    finally:
        os.unlink(tmp)


@contextlib.contextmanager
def locked(path: Path) -> Iterator[IO[bytes]]:
    """The log opened for reading and appending, under an exclusive lock."""
    try:
        handle = open(path, "r+b")
    except OSError as exc:
        raise UsageError(f"cannot open: {exc.strerror}", where=str(path)) from None
    with handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield handle
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def append(handle: IO[bytes], lines: Sequence[str]) -> None:
    """Append ``lines`` as one write to a log opened by :func:`locked`."""
    if not lines:
        return
    size = handle.seek(0, os.SEEK_END)
    if size:
        handle.seek(size - 1)
        if handle.read(1) != b"\n":
            raise LogFormatError("the last line is truncated; refusing to append", where=handle.name)
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    try:
        handle.seek(size)
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    except BaseException:
        handle.truncate(size)
        handle.flush()
        os.fsync(handle.fileno())
        raise
