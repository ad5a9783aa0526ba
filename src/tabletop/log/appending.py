"""Rows appended to one results file by the workers that played them, in
game order, on one machine.

Workers finish batches in any order, but a CSV or JSON Lines results file
(or a Parquet run's journal) holds its games in order, so that a file cut
short by a crash holds games 1 to *k* and a rerun continues from *k*. Each
worker takes the file's lock (``flock``) to add a batch: if its batch is
the one due, it appends it, then every batch waiting right after it;
otherwise it leaves its rows waiting beside the file
(``.NAME.waiting/FIRST-LAST``). The waiting folder's ``due`` file says
which game is due next. So the file grows in game order, whichever worker
finishes first, and the command that started the run never touches a row.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

import attrs

from ..base.errors import UsageError
from . import files

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: one process appends at a time anyway
    fcntl = None  # type: ignore[assignment]


def waiting_folder(path: Path) -> Path:
    return path.with_name(f".{path.name}.waiting")


def _name(first: int, last: int) -> str:
    return f"{first:012d}-{last:012d}"


@attrs.frozen
class Appended:
    """Where workers append their rows: ``path`` (absolute), lines ready
    made (:func:`tabletop.many.results.encode_rows`)."""

    path: str
    #: The file as the user named it, for messages.
    shown: str = ""

    def prepare(self, due: int) -> None:
        """Before the workers start: game ``due`` is the next the file takes;
        nothing waits (what waited from a run stopped is played again)."""
        folder = waiting_folder(Path(self.path))
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        _replace(folder / "due", str(due).encode())

    def clear(self) -> None:
        """Once the workers are stopped: the waiting rows go."""
        shutil.rmtree(waiting_folder(Path(self.path)), ignore_errors=True)

    def add(self, first: int, last: int, data: bytes) -> tuple[tuple[int, int], ...]:
        """Add the rows of games ``first`` to ``last``: ``(last game, bytes
        of the file after it)`` for each batch this call appended (none
        when the batch waits for an earlier one)."""
        path = Path(self.path)
        folder = waiting_folder(path)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            raise UsageError(f"cannot write: {exc.strerror or exc}", where=self.shown or str(path)) from None
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            due = int((folder / "due").read_bytes())
            if first != due:
                _replace(folder / _name(first, last), data)
                return ()
            done = [(last, _append(fd, data))]
            waiting = {int(name.partition("-")[0]): name for name in os.listdir(folder) if name[0].isdigit()}
            due = last + 1
            while due in waiting:
                name = waiting.pop(due)
                held = folder / name
                done.append((int(name.partition("-")[2]), _append(fd, held.read_bytes())))
                held.unlink()
                due = done[-1][0] + 1
            _replace(folder / "due", str(due).encode())
            return tuple(done)
        except OSError as exc:
            raise UsageError(f"cannot write: {exc.strerror or exc}", where=self.shown or str(path)) from None
        finally:
            os.close(fd)  # and the lock with it


def _append(fd: int, data: bytes) -> int:
    """Write ``data`` at the end of the file and return the file's new size."""
    files.write_all(fd, data, sync=False)
    return os.fstat(fd).st_size


def _replace(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
