"""A results folder: one Parquet file per batch of games, written by the
worker that played it, and a manifest kept by the command that started the run.

``--results study/`` (a name ending in ``/``, or an existing folder) holds::

    study/_manifest.json                              the run, its batches done, their totals
    study/part-000000000001-000000000200.parquet      games 1 to 200, every rule set
    study/part-000000000201-000000000400.parquet      ...

A part holds the rows of its games in game order (each game's rule sets
in order), with the run's metadata in its schema (``tabletop.run``), as a
whole ``.parquet`` results file does: the folder is one Parquet dataset
(pyarrow, pandas, Dask and Spark read it as such; files beginning with
``_`` or ``.`` are not data). A part appears whole or not at all (written
under a hidden name, synced, renamed).

The manifest (JSON, replaced whole) is the word on what is done: the run's
metadata, the batches whose games are counted (``segments``: runs of
batches of one size), and the totals of those games (:class:`Totals`), so
that a rerun resumes without reading a row. A part that the manifest does
not list was written after it was last saved (a run killed): a rerun
deletes it and plays its games again; ``tabletop stats`` leaves it out.

Workers write their parts straight into the folder when they see it (the
same machine, or a filesystem every machine shares): the command leaves a
marker ``.run-TOKEN`` in the folder for the run it is making, and a worker
that finds it writes there. A worker that does not (another machine, its
own folder of that name, or a run since ended) sends the part's bytes back,
and the command writes them.
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import orjson

from ..base.errors import UsageError
from ..log import files
from .results import FIELDS, parquet_rows, require_pyarrow, schema

MANIFEST = "_manifest.json"
#: What the manifest's ``format`` says (a later layout would say another).
FORMAT = "tabletop results folder 1"
PREFIX = "part-"
SUFFIX = ".parquet"
MARKER = ".run-"


def part_name(first: int, last: int) -> str:
    """The part of games ``first`` to ``last`` (names sort in game order)."""
    return f"{PREFIX}{first:012d}-{last:012d}{SUFFIX}"


def parsed(name: str) -> tuple[int, int] | None:
    """The games a part's file name covers, or None for another file."""
    if not (name.startswith(PREFIX) and name.endswith(SUFFIX)):
        return None
    first, sep, last = name[len(PREFIX) : -len(SUFFIX)].partition("-")
    if not (sep and first.isdigit() and last.isdigit()):
        return None
    return int(first), int(last)


def is_folder(path: Path) -> bool:
    """Whether ``path`` is a results folder (one that holds a manifest)."""
    return path.is_dir() and (path / MANIFEST).is_file()


def encode(rows: Sequence[dict[str, Any]], meta: bytes) -> bytes:
    """A part's bytes: ``rows`` (results rows, :func:`tabletop.many.results.record`)
    with the run's metadata ``meta`` (JSON) in its schema. The same rows and
    metadata give the same bytes wherever they are written."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns: dict[str, list[Any]] = {name: [] for name in FIELDS}
    for rec in rows:
        for name in FIELDS:
            columns[name].append(rec[name] if name != "figures" else orjson.dumps(rec["figures"]).decode())
    table = pa.table(columns, schema=schema(meta))
    out = io.BytesIO()
    pq.write_table(table, out, row_group_size=max(1, len(rows)))
    return out.getvalue()


def write_part(folder: Path, first: int, last: int, data: bytes, shown: str = "") -> None:
    """Put a part's bytes in ``folder``, whole or not at all, synced (the
    manifest lists a part only once it is on disk). ``shown``: the folder as
    the user named it, for messages."""
    path = folder / part_name(first, last)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        try:
            files.write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)
        tmp = ""
    except OSError as exc:
        raise UsageError(
            f"cannot write: {files.reason(exc)}", where=os.path.join(shown, path.name) if shown else str(path)
        ) from None
    finally:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


@attrs.frozen
class Sink:
    """Where a worker puts the part of a batch: ``folder`` (absolute) if it
    sees the run's marker there, else back to the command (see the module)."""

    folder: str
    token: str
    #: The run's metadata as JSON, for each part's schema.
    meta: bytes
    #: The folder as the user named it, for messages.
    shown: str = ""

    def seen(self) -> bool:
        """Whether this process sees the folder the command writes (its marker)."""
        return os.path.exists(os.path.join(self.folder, MARKER + self.token))

    def put(self, first: int, last: int, rows: Sequence[dict[str, Any]]) -> bytes | None:
        """Write the part of games ``first`` to ``last``; its bytes when the
        folder is not seen here (the command writes them)."""
        data = encode(rows, self.meta)
        if not self.seen():
            return data
        write_part(Path(self.folder), first, last, data, self.shown)
        return None


@attrs.frozen
class Segment:
    """Batches of ``size`` games from game ``first`` to game ``last`` (the last
    batch may be shorter): what one stretch of a run played."""

    first: int
    last: int
    size: int

    def parts(self) -> Iterator[tuple[int, int]]:
        for start in range(self.first, self.last + 1, self.size):
            yield start, min(start + self.size - 1, self.last)


def segments_of(done: Sequence[tuple[int, int]]) -> list[Segment]:
    """Consecutive batches (``(first, last)`` each, in order) as segments."""
    out: list[Segment] = []
    for first, last in done:
        size = last - first + 1
        if out:
            seg = out[-1]
            # A batch goes on a segment whose batches are all whole so far.
            if first == seg.last + 1 and size <= seg.size and (seg.last - seg.first + 1) % seg.size == 0:
                out[-1] = Segment(seg.first, last, seg.size)
                continue
        out.append(Segment(first, last, size))
    return out


class Folder:
    """A results folder, as the command that runs its games keeps it."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.manifest = self.path / MANIFEST
        self.token = secrets.token_hex(8)

    # -- what is there --------------------------------------------------------

    def existing(self) -> dict[str, Any] | None:
        """The manifest, or None for a folder that is not there or empty
        (anything else in a folder without a manifest is refused)."""
        if self.path.exists() and not self.path.is_dir():
            raise UsageError(
                "not a folder; choose another name (a results file ends in .csv, .jsonl, .parquet)",
                where=str(self.path),
            )
        if not self.path.exists():
            return None
        if not self.manifest.exists():
            if any(self.path.iterdir()):
                raise UsageError("the folder is not empty and holds no results; choose another", where=str(self.path))
            return None
        return read_manifest(self.path)

    def done(self, manifest: dict[str, Any]) -> list[tuple[int, int]]:
        """The parts the manifest lists, each checked to be there."""
        listed = [p for seg in _segments(manifest, self.manifest) for p in seg.parts()]
        present = set(os.listdir(self.path))
        for first, last in listed:
            if part_name(first, last) not in present:
                raise UsageError(
                    f"{part_name(first, last)} is listed in {MANIFEST} but missing; "
                    "restore it, or choose another folder",
                    where=str(self.path),
                )
        return listed

    # -- writing --------------------------------------------------------------

    def start(self) -> None:
        """Make the folder if need be, and drop what a stopped run left that
        its manifest does not count (its workers' parts, temporary files),
        then leave the marker by which workers know they see the folder."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot make the folder: {files.reason(exc)}", where=str(self.path)) from None

    def open(self, listed: Sequence[tuple[int, int]]) -> None:
        keep = {part_name(first, last) for first, last in listed}
        for name in os.listdir(self.path):
            stale = (parsed(name) is not None and name not in keep) or name.startswith((MARKER, f".{PREFIX}"))
            if stale:
                with contextlib.suppress(OSError):
                    os.unlink(self.path / name)
        marker = self.path / (MARKER + self.token)
        try:
            marker.write_bytes(b"")
        except OSError as exc:
            raise UsageError(f"cannot write: {files.reason(exc)}", where=str(self.path)) from None

    def close(self, listed: Sequence[tuple[int, int]]) -> None:
        """The run is over (the workers stopped): the marker goes, and so do
        parts beyond those counted (a batch finished after a stop)."""
        with contextlib.suppress(OSError):
            os.unlink(self.path / (MARKER + self.token))
        keep = {part_name(first, last) for first, last in listed}
        for name in os.listdir(self.path):
            if parsed(name) is not None and name not in keep:
                with contextlib.suppress(OSError):
                    os.unlink(self.path / name)

    def save(self, meta: dict[str, Any], listed: Sequence[tuple[int, int]], totals: dict[str, Any]) -> None:
        """Replace the manifest: ``listed`` parts are done (every one on disk)."""
        files.sync_folder(self.path)
        games = listed[-1][1] if listed else 0
        body = {
            "format": FORMAT,
            "run": meta,
            "games": games,
            "segments": [[s.first, s.last, s.size] for s in segments_of(listed)],
            "totals": totals,
        }
        files.replace(self.manifest, orjson.dumps(body, option=orjson.OPT_INDENT_2) + b"\n", stale=0)

    def sink(self, meta: dict[str, Any]) -> Sink:
        return Sink(str(self.path.resolve()), self.token, orjson.dumps(meta), str(self.path))

    def put(self, first: int, last: int, data: bytes) -> None:
        """Write a part a worker sent back (it did not see the folder)."""
        write_part(self.path, first, last, data, str(self.path))


def read_manifest(folder: Path) -> dict[str, Any]:
    """A results folder's manifest, checked to be one."""
    path = Path(folder) / MANIFEST
    try:
        text = files.read_text(path, 64 << 20, "cannot read it")
        manifest = orjson.loads(text)
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise ValueError
        if not isinstance(manifest.get("run"), dict) or not isinstance(manifest.get("games"), int):
            raise ValueError
    except UsageError:
        raise
    except ValueError:
        raise UsageError("not the manifest of a tabletop results folder", where=str(path)) from None
    return manifest


def _segments(manifest: dict[str, Any], where: Path) -> list[Segment]:
    try:
        segments = [Segment(int(a), int(b), int(c)) for a, b, c in manifest.get("segments") or []]
        if any(s.size < 1 or s.last < s.first for s in segments):
            raise ValueError
    except (TypeError, ValueError):
        raise UsageError("its segments are not [first, last, size] lists", where=str(where)) from None
    games = 0
    for s in segments:
        if s.first != games + 1:
            raise UsageError(f"its segments leave out games {games + 1} to {s.first - 1}", where=str(where))
        games = s.last
    if games != manifest["games"]:
        raise UsageError(f"its segments end at game {games}, not {manifest['games']}", where=str(where))
    return segments


def listed_parts(folder: Path) -> list[Path]:
    """The parts a results folder's manifest counts, in game order."""
    manifest = read_manifest(folder)
    return [
        Path(folder) / part_name(a, b) for seg in _segments(manifest, Path(folder) / MANIFEST) for a, b in seg.parts()
    ]


def unlisted(folder: Path) -> list[str]:
    """Part files in ``folder`` that its manifest does not count."""
    keep = {p.name for p in listed_parts(folder)}
    return sorted(name for name in os.listdir(folder) if parsed(name) is not None and name not in keep)


def records(folder: Path) -> Iterator[dict[str, Any]]:
    """The rows of a results folder, in game order: the parts its manifest
    counts, read a row group at a time with pyarrow."""
    pq = require_pyarrow()
    for path in listed_parts(folder):
        try:
            parquet = pq.ParquetFile(str(path))
        except OSError as exc:
            raise UsageError(f"cannot read it: {files.reason(exc)}", where=str(path)) from None
        except Exception:
            raise UsageError("not a complete Parquet file", where=str(path)) from None
        yield from parquet_rows(parquet)
