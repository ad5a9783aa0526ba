"""Game logs on disk: JSON Lines, read as a stream, appended whole lines at a time.

A log is only ever appended to. An append writes all its lines in one write,
flushes and fsyncs; if any of that fails the file is cut back to its old size,
so a reader never meets half a line written by us. Appends hold an exclusive
lock (``flock``) on the file, so two writers never interleave.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from ..base.errors import LogFormatError, TabletopError, UsageError
from . import files, jsonline
from .header import Header
from .jsonline import MAX_LINE

#: How many bytes a log is read in at a time.
BLOCK = 1 << 16


def read_lines(
    path: Path, handle: IO[bytes] | None = None, start: tuple[int, int] = (0, 0)
) -> Iterator[tuple[int, bytes]]:
    """Each line of the log, numbered from 1, as bytes without the newline
    (the JSON reader checks that they are UTF-8). Only a regular file is read,
    and no line past :data:`~tabletop.log.jsonline.MAX_LINE` bytes. ``start``:
    begin at that byte offset, which is the end of line number ``start[1]``."""
    for first, lines in read_batches(path, handle, start):
        yield from enumerate(lines, start=first)


def read_batches(
    path: Path, handle: IO[bytes] | None = None, start: tuple[int, int] = (0, 0)
) -> Iterator[tuple[int, list[bytes]]]:
    """The lines of :func:`read_lines` a block of the file at a time: the
    number of the first and the list of them. A line that cannot be read is
    reported (raised) once the lines before it have been given."""
    offset, before = start
    lineno = before  # the last line given
    with contextlib.ExitStack() as stack:
        if handle is None:
            handle = stack.enter_context(files.open_regular(path))
        handle.seek(offset)
        read = handle.read
        rest = b""  # the start of a line whose end is not read yet
        try:
            while True:
                block = read(BLOCK)
                if not block:
                    break
                if rest:
                    block = rest + block
                end = block.rfind(b"\n")
                if end < 0:
                    rest = block
                    if len(rest) > MAX_LINE:
                        raise LogFormatError(f"line longer than {MAX_LINE:,} bytes", where=f"{path}:{lineno + 1}")
                    continue
                rest = block[end + 1 :]
                lines = block[:end].split(b"\n")
                # Every line tabletop writes begins with "{" (past any
                # whitespace byte) and has no CR: a block of such lines,
                # none too long, is given as it is, checked by C loops
                # alone. Any other block is looked at line by line.
                if (
                    b"\r" in block
                    or min(lines)[:1] <= b" "
                    or (len(block) > MAX_LINE and max(map(len, lines)) > MAX_LINE)
                ):
                    for i, line in enumerate(lines):
                        problem = _problem(line)
                        if problem is not None:
                            if i:
                                yield lineno + 1, lines[:i]
                            raise LogFormatError(problem, where=f"{path}:{lineno + i + 1}")
                yield lineno + 1, lines
                lineno += len(lines)
        except OSError as exc:
            raise UsageError(f"cannot read: {files.reason(exc)}", where=f"{path}:{lineno + 1}") from None
        if rest:
            if len(rest) > MAX_LINE:
                raise LogFormatError(f"line longer than {MAX_LINE:,} bytes", where=f"{path}:{lineno + 1}")
            raise LogFormatError("truncated last line (no newline at the end)", where=f"{path}:{lineno + 1}")
        if lineno == 0 and offset == 0:
            raise LogFormatError("empty file: no header", where=str(path))


def _problem(line: bytes) -> str | None:
    if len(line) > MAX_LINE:
        return f"line longer than {MAX_LINE:,} bytes"
    if line[-1:] == b"\r":
        return "the line ends with CR LF; a log's lines end with LF only"
    if not line or line.isspace():
        return "blank line"
    return None


def peek_game(path: Path) -> str | None:
    """The game a log's header names, read from its first line alone, or
    None when that cannot be read (the replay that follows says why)."""
    try:
        with files.open_regular(Path(path)) as handle:
            line = handle.readline(MAX_LINE + 1)
        game = jsonline.loads(line).get("game")
    except (OSError, TabletopError, AttributeError):
        return None
    return game if type(game) is str else None


def parse_header(path: Path, line: bytes) -> Header:
    try:
        return Header.from_json(jsonline.loads(line))
    except TabletopError as exc:
        raise exc.at(f"{path}:1") from None


def create(path: Path, lines: Sequence[str], *, mode: int = 0o644) -> None:
    """Write a new log, never replacing an existing file; all or nothing."""
    files.write_new(Path(path), encode(lines), mode=mode)


def encode(lines: Sequence[str]) -> bytes:
    """Lines as the bytes of a log; a character that UTF-8 cannot hold (a lone
    surrogate from a command line that was not UTF-8) is refused."""
    try:
        return "".join(line + "\n" for line in lines).encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError("not UTF-8 text: a name or value holds bytes that are not characters") from None


@contextlib.contextmanager
def locked(path: Path) -> Iterator[IO[bytes]]:
    """The log opened for reading and appending, under an exclusive lock."""
    handle = files.open_regular(path, "r+b", "cannot open")
    with handle:
        unlock = _lock(handle)
        try:
            yield handle
        finally:
            unlock()


def _lock(handle: IO[bytes]):
    """Take an exclusive lock on an open log; return what releases it. The
    locking module is imported here, not at the top, so that reading logs works
    where it does not exist."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        import msvcrt

        # A lock on one byte far past any log's end: it excludes other writers
        # and leaves the lines readable.
        handle.seek(1 << 40)
        msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)

        def release() -> None:
            handle.seek(1 << 40)
            msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)

        return release
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
    return lambda: fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def append(handle: IO[bytes], lines: Sequence[str]) -> None:
    """Append ``lines`` as one write to a log opened by :func:`locked`.

    On any failure (a full disk, a size limit, an I/O error on sync) the file
    is cut back to its old size and one :class:`UsageError` says why.
    """
    if not lines:
        return
    data = encode(lines)
    size = handle.seek(0, os.SEEK_END)
    if size:
        handle.seek(size - 1)
        if handle.read(1) != b"\n":
            raise LogFormatError("the last line is truncated; refusing to append", where=handle.name)
    # Written through the descriptor, not the buffer: a failed write must not
    # linger in a buffer that a later flush (at close) would try again.
    fd = handle.fileno()
    try:
        handle.seek(size)
        os.lseek(fd, size, os.SEEK_SET)
        files.write_all(fd, data)
        handle.seek(0, os.SEEK_END)
    except OSError as exc:
        _cut_back(handle, size)
        raise UsageError(f"cannot write: {files.reason(exc)}; nothing was added", where=str(handle.name)) from None
    except BaseException:
        _cut_back(handle, size)
        raise


def _cut_back(handle: IO[bytes], size: int) -> None:
    """Undo a failed append: drop what the buffer still holds, cut the file."""
    with contextlib.suppress(OSError):
        os.ftruncate(handle.fileno(), size)
        os.fsync(handle.fileno())
