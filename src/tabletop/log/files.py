"""Files a user names: opened only when they are regular files, read with a
cap, written whole or not at all.

A log, a board or position file, a seed file may come from anyone. A FIFO
would block a reader forever and ``/dev/zero`` never ends, so only regular
files are opened, and never read past a cap. A file tabletop writes appears
whole under its name or not at all: it is written to a file with no name (or a
hidden temporary name where the system has no nameless files), synced, then
linked or renamed into place; every failure is one :class:`UsageError`. A
rename only ever puts a regular file where none was or where one was: a
device or a FIFO named as the output (``-o /dev/null``) is written into.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
import time
from pathlib import Path
from typing import IO

from ..base.errors import UsageError, shown

#: Where the system has no nameless files, a temporary file this old (seconds)
#: was left by a process that was killed, and is removed by the next write.
STALE = 600


def reason(exc: OSError) -> str:
    """The words for an OSError, as a user reads them."""
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    if exc.errno == errno.EFBIG:
        return "file too large for this system or its limits"
    return exc.strerror or str(exc)


def open_regular(path: Path, mode: str = "rb", what: str = "cannot read") -> IO[bytes]:
    """``path`` opened in binary ``mode`` ("rb" or "r+b"), only if it is a
    regular file (a FIFO or a device is refused without blocking)."""
    flags = os.O_RDWR if "+" in mode else os.O_RDONLY
    flags |= getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise UsageError(f"{what}: {reason(exc)}", where=str(path)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise UsageError(f"{what}: {kind}", where=str(path))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        handle = os.fdopen(fd, mode)
    except BaseException:
        os.close(fd)
        raise
    handle.raw.name = str(path)  # type: ignore[attr-defined]  # errors name the file, not its number
    return handle


def read_text(path: Path, limit: int, what: str) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes."""
    with open_regular(path, "rb", f"{what}: cannot read") as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise UsageError(f"{what}: cannot read: {reason(exc)}", where=str(path)) from None
    if len(data) > limit:
        raise UsageError(f"{what}: larger than {limit:,} bytes", where=str(path))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{what}: not UTF-8 text", where=str(path)) from None


#: A log's own files beside it, each named from the log's name: its seed
#: (:func:`tabletop.play.live.seed_file`), its sealed decisions
#: (:class:`tabletop.log.secretfile.SecretKeeper`), its snapshot
#: (:func:`tabletop.play.snapshot.path_of`); its study
#: (:func:`tabletop.review.studyfile.default_path`) is named from its stem.
_BESIDE = (("{}.seed", "the seed"), ("{}.secrets", "the sealed decisions"), (".{}.fold", "the snapshot"))
_STUDY = ".study.jsonl"
#: A game folder of the email referee (:mod:`tabletop.referee.gamedir`):
#: its records and the folders of its mail, all its own.
_REFEREE_FILES = (
    "game.jsonl",
    "referee.json",
    "journal.json",
    "imap.json",
    "delivery.json",
    "press.jsonl",
    "lock",
    "send.lock",
    "poll.lock",
)
_REFEREE_FOLDERS = ("archive", "quarantine", "outbox", "sent", "undeliverable")


def own_files(log: Path) -> list[tuple[Path, str]]:
    """The files that belong to ``log`` (the log itself first), each with
    what it is to the log; in the email referee's game folder, the
    referee's files too."""
    log = Path(log)
    stem = log.name[: -len(".jsonl")] if log.name.endswith(".jsonl") else log.name
    found = [(log, "the log itself")]
    found += [(log.with_name(name.format(log.name)), what) for name, what in _BESIDE]
    found.append((log.with_name(stem + _STUDY), "the study"))
    folder = log.parent
    if log.name == "game.jsonl" and os.path.lexists(folder / "referee.json"):
        found += [(folder / name, "one of the referee's files") for name in _REFEREE_FILES[1:]]
    return found


def _log_of(path: Path) -> tuple[Path, str] | None:
    """The log ``path`` is named as a file of, when that log is there: its
    seed, sealed decisions, snapshot, study, or a file of a referee's
    game folder."""
    name = path.name
    candidates = []
    for pattern, what in _BESIDE:
        before, _, after = pattern.partition("{}")
        if name.startswith(before) and name.endswith(after) and len(name) > len(before) + len(after):
            candidates.append((path.with_name(name[len(before) : len(name) - len(after)]), what))
    if name.endswith(_STUDY) and len(name) > len(_STUDY):
        stem = name[: -len(_STUDY)]
        candidates += [(path.with_name(stem + ".jsonl"), "the study"), (path.with_name(stem), "the study")]
    for log, what in candidates:
        if os.path.isfile(log):
            return log, what
    for folder in (path.parent, path.parent.parent):
        game = folder / "game.jsonl"
        if not (os.path.lexists(folder / "referee.json") and os.path.lexists(game)):
            continue
        if (folder == path.parent and name in _REFEREE_FILES) or (
            folder == path.parent.parent and path.parent.name in _REFEREE_FOLDERS
        ):
            return game, "one of the referee's files"
    return None


def _same(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file: the same path once links are
    resolved, or (both there) the same file under two names."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def check_output(output: Path | None, *logs: Path, option: str = "-o", allow: tuple[str, ...] = ()) -> None:
    """Refuse, before anything is written, an ``output`` that is one of the
    own files of the logs a command reads (the log, its seed, its sealed
    decisions, its snapshot, its study, the referee's files of its game
    folder), through links too, or that is named as the own file of any
    log that is there. ``allow``: what of the ``logs``' own the output may
    be (``"the study"`` for the study a command writes). One
    :class:`UsageError`, exit 2."""
    if output is None:
        return
    output = Path(output)
    for log in logs:
        named = own_files(Path(log))
        resolved = own_files(Path(os.path.realpath(log)))
        for path, what in [*named, *resolved]:
            if what not in allow and _same(output, path):
                _refuse(output, Path(log), what, option)
        folder = Path(log).parent
        if os.path.lexists(folder / "referee.json") and Path(log).name == "game.jsonl":
            for sub in _REFEREE_FOLDERS:
                if _inside(output, folder / sub):
                    _refuse(output, Path(log), "one of the referee's files", option)
    for path in (output, Path(os.path.realpath(output))):
        found = _log_of(path)
        if found is not None and not (found[1] in allow and any(_same(found[0], log) for log in logs)):
            _refuse(output, found[0], found[1], option)


def _inside(path: Path, folder: Path) -> bool:
    where, top = os.path.realpath(path), os.path.realpath(folder)
    return where == top or where.startswith(top.rstrip(os.sep) + os.sep)


def _refuse(output: Path, log: Path, what: str, option: str) -> None:
    why = "that is the log itself" if what == "the log itself" else f"that is {what} of {shown(log)}"
    raise UsageError(
        f"{option} {shown(output)}: {why}; a command never writes over a log's own files: choose another name"
    )


def _folder(path: Path) -> Path:
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise UsageError(f"no such folder: {directory}", where=str(path))
    return directory


def write_new(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Write a new file, never replacing an existing one; all or nothing."""
    path = Path(path)
    if os.path.lexists(path):
        raise UsageError("file exists; choose another name", where=str(path))
    directory = _folder(path)
    try:
        fd, tmp = _nameless(directory, mode)
        try:
            write_all(fd, data)
            if hasattr(os, "fchmod"):
                os.fchmod(fd, mode)
            # link() fails if the name was taken meanwhile: never overwrite.
            if tmp is None:
                # linkat() with AT_SYMLINK_FOLLOW (which a folder descriptor
                # makes os.link use) gives the nameless file its name.
                folder = os.open(directory, os.O_RDONLY)
                try:
                    os.link(f"/proc/self/fd/{fd}", path.name, dst_dir_fd=folder, follow_symlinks=True)
                finally:
                    os.close(folder)
            else:
                os.link(tmp, path)
            sync_folder(directory)
        finally:
            os.close(fd)
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
    except FileExistsError:
        raise UsageError("file exists; choose another name", where=str(path)) from None
    except OSError as exc:
        raise UsageError(f"cannot write: {reason(exc)}", where=str(path)) from None


def replace(path: Path, data: bytes, *, mode: int = 0o644, stale: float = STALE) -> None:
    """Write ``path`` whole, replacing what was there only once the new text
    is safely on disk (a failure leaves the old file as it was). Temporary
    files for ``path`` older than ``stale`` seconds, left by a killed process,
    are removed first (0 when the caller holds a lock that excludes any other
    writer of ``path``)."""
    path = Path(path)
    directory = _folder(path)
    if path.is_dir():
        raise UsageError("cannot write: a folder", where=str(path))
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise UsageError(f"cannot write: {reason(exc)}", where=str(path)) from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        # A device or a FIFO is written into, as a shell's '>' would: a
        # rename would put a regular file where /dev/null was.
        _write_into(path, info, data)
        return
    if os.path.islink(path):
        # A link names where the file lives: the new text goes there, the link stays.
        path = Path(os.path.realpath(path))
        directory = path.parent
    tmp: str | None = None
    try:
        clean(directory, path.name, stale)
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
        try:
            write_all(fd, data)
            if hasattr(os, "fchmod"):
                os.fchmod(fd, mode)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        tmp = None
        sync_folder(directory)
    except OSError as exc:
        raise UsageError(f"cannot write: {reason(exc)}", where=str(path)) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _write_into(path: Path, info: os.stat_result, data: bytes) -> None:
    """Write ``data`` into an existing character device or FIFO (never
    blocking on a FIFO nobody reads); anything else that is not a regular
    file is refused."""
    if not (stat.S_ISCHR(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
        raise UsageError("cannot write: not a regular file, a device or a FIFO", where=str(path))
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise UsageError("cannot write: a FIFO that nobody reads", where=str(path)) from None
        raise UsageError(f"cannot write: {reason(exc)}", where=str(path)) from None
    try:
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        write_all(fd, data, sync=False)
    except OSError as exc:
        raise UsageError(f"cannot write: {reason(exc)}", where=str(path)) from None
    finally:
        os.close(fd)


def _nameless(directory: Path, mode: int) -> tuple[int, str | None]:
    """A new file in ``directory``: nameless where the system allows it (a
    killed process then leaves nothing behind), else a hidden temporary name."""
    if hasattr(os, "O_TMPFILE") and os.path.isdir("/proc/self/fd"):
        try:
            return os.open(directory, os.O_TMPFILE | os.O_WRONLY, mode), None
        except OSError as exc:
            if exc.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
                raise
    clean(directory, "", STALE)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tabletop.", suffix=".tmp")
    return fd, tmp


def clean(directory: Path, name: str, stale: float = STALE) -> None:
    """Remove the temporary files a killed process left in ``directory`` while
    writing the file ``name`` ("": a new file), those older than ``stale``
    seconds (no running write owns them)."""
    prefix = f".{name}." if name else ".tabletop."
    now = time.time()
    with contextlib.suppress(OSError):
        for entry in os.scandir(directory):
            if entry.name.startswith(prefix) and entry.name.endswith(".tmp") and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    if now - entry.stat(follow_symlinks=False).st_mtime >= stale:
                        os.unlink(entry.path)


def write_all(fd: int, data: bytes, sync: bool = True) -> None:
    """Write all of ``data`` to ``fd`` (a write may take only part), then
    sync it to the disk unless told not to."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    if sync:
        os.fsync(fd)


def sync_folder(directory: Path) -> None:
    """Make a new name durable (where a folder can be synced)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
