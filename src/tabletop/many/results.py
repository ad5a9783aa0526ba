"""Results files: one row per game, written as batches finish, in game order.

Three formats, told by the file's suffix: ``.csv`` (lists space-separated),
``.jsonl`` (one JSON object a line) and ``.parquet`` (typed columns; needs
pyarrow, the ``parquet`` extra). Each file starts with the run's metadata
(what was played, see :func:`tabletop.many.runs.metadata`): the first line of a
CSV or JSON Lines file, the schema metadata of a Parquet file. Rows are
written in game order and whole batches at a time, so a file cut short by an
interrupt holds games 1 to *k* of every arm, and a rerun continues from *k*.
On one machine the workers append the rows themselves, in game order, under
the file's lock (:mod:`tabletop.log.appending`); a folder of Parquet parts is
:mod:`tabletop.many.parts`.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import os
from collections.abc import Callable, Generator, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from ..base.errors import UsageError, quote
from .stats import GameRow

if TYPE_CHECKING:
    pass

#: The columns, in order.
FIELDS = (
    "number",
    "seed",
    "game",
    "players",
    "bots",
    "variants",
    "start",
    "turn_order",
    "scores",
    "winners",
    "events",
    "turns",
    "finished",
    "figures",
    "digest",
)
#: Columns that hold a list (one item per seat, winner or variant).
LISTS = ("players", "bots", "variants", "turn_order", "scores", "winners")
SUFFIXES = (".csv", ".jsonl", ".parquet")
#: The first line of a CSV results file starts with this, then the metadata as JSON.
CSV_META = "# tabletop run "


def record(row: GameRow) -> dict[str, Any]:
    """A game as a results row (lists as lists)."""
    return {
        "number": row.number,
        "seed": row.seed,
        "game": row.game,
        "players": list(row.players),
        "bots": [b or "-" for b in row.bots],
        "variants": list(row.variants),
        "start": row.start,
        "turn_order": list(row.order),
        "scores": list(row.scores),
        "winners": list(row.winners),
        "events": row.events,
        "turns": row.turns,
        "finished": row.finished,
        "figures": dict(row.figures),
        "digest": row.digest,
    }


def row_from(rec: dict[str, Any]) -> GameRow:
    """The :class:`GameRow` a results row records."""
    return GameRow(
        game=rec["game"],
        variants=tuple(rec["variants"]),
        players=tuple(rec["players"]),
        bots=tuple(None if b == "-" else b for b in rec["bots"]),
        scores=tuple(int(s) for s in rec["scores"]),
        winners=tuple(rec["winners"]),
        events=int(rec["events"]),
        finished=bool(rec["finished"]),
        number=int(rec["number"]),
        seed=rec["seed"],
        order=tuple(rec["turn_order"]),
        turns=int(rec["turns"]),
        figures=tuple(sorted((k, float(v)) for k, v in (rec["figures"] or {}).items())),
        digest=rec["digest"] or "",
    )


def kind_of(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise UsageError(
            f"a results file ends in {', '.join(SUFFIXES)} (a folder of Parquet parts: end it with /)", where=str(path)
        )
    return suffix[1:]


def encode_rows(kind: str, rows: Sequence[dict[str, Any]]) -> bytes:
    """Rows as the lines of a ``csv`` or ``jsonl`` results file (or a
    Parquet run's journal, ``jsonl``): the same bytes wherever they are made."""
    if kind == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
        writer.writerows(_flat(r) for r in rows)
        return out.getvalue().encode("utf-8")
    return b"".join(orjson.dumps(r) + b"\n" for r in rows)


def _flat(rec: dict[str, Any]) -> dict[str, Any]:
    out = dict(rec)
    for key in LISTS:
        out[key] = " ".join(map(str, rec[key]))
    out["finished"] = int(rec["finished"])
    out["figures"] = " ".join(f"{k}={v:g}" for k, v in rec["figures"].items())
    return out


def _unflat(flat: dict[str, str]) -> dict[str, Any]:
    rec: dict[str, Any] = dict(flat)
    for key in LISTS:
        rec[key] = flat[key].split()
    rec["figures"] = dict(item.split("=", 1) for item in flat["figures"].split())
    return rec


def _named(method: Callable) -> Callable:
    """A failing disk (full, read-only, gone) as one line naming the file."""

    @functools.wraps(method)
    def wrapped(self: Results, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except OSError as exc:
            raise UsageError(f"cannot write: {exc.strerror or exc}", where=str(self.path)) from None

    return wrapped


class Results:
    """A results file open for appending rows; see the module's docstring.

    A Parquet file cannot be appended to, nor read before it is closed: while
    a run goes on, its rows go to a journal beside it (``FILE.partial``, JSON
    Lines: the run's line, then one row per line, flushed batch by batch),
    and closing the run writes the Parquet file whole from the file as it
    was and the journal. A run that fails, or is killed, leaves the journal:
    every game it played stays readable, and a rerun continues from it."""

    def __init__(self, path: Path, meta: dict[str, Any]) -> None:
        self.path = Path(path)
        self.kind = kind_of(self.path)
        self.meta = meta
        self._handle: Any = None
        #: Parquet: the journal, and how many games of the Parquet file it follows.
        self.journal = self.path.with_name(self.path.name + ".partial")
        self._after = 0
        #: Games the journal holds (Parquet), so that closing knows whether to rewrite.
        self._journaled = 0

    # -- reading what is there -------------------------------------------

    def existing(self) -> dict[str, Any] | None:
        """The metadata of the run the file holds, or None if there is no file."""
        if self.kind == "parquet":
            # A journal that continues the Parquet file (or stands alone) is
            # the newest word on the run: a continuation by other code is noted there.
            journal = self._journal_meta()
            if journal is not None and (not self._present() or journal[1] == self._parquet_games(journal[0])):
                return journal[0]
        if not self._present():
            return None
        try:
            return read_meta(self.path)
        except UsageError:
            raise
        except OSError as exc:
            raise UsageError(f"cannot read it: {exc.strerror or exc}", where=str(self.path)) from None
        except Exception as exc:  # cut short before its first line, or not ours
            raise UsageError(
                f"not a tabletop results file ({type(exc).__name__}); choose another name", where=str(self.path)
            ) from None

    def _present(self) -> bool:
        if not self.path.exists():
            return False
        if not self.path.is_file():
            raise UsageError("not a regular file; choose another name", where=str(self.path))
        return self.path.stat().st_size > 0

    # -- writing ----------------------------------------------------------

    @_named
    def start(self) -> None:
        """Start a new file."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.kind == "parquet":
            self._start_journal(0)
            return
        with open(self.path, "w", encoding="utf-8", newline="") as out:
            self._start_text(out)
        self._append()

    def resume(
        self,
        arms: int,
        limit: int | None = None,
        seed: str | None = None,
        stamp: Callable[[int], dict[str, Any]] | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Continue the file: yield the rows of its complete games (every arm
        of games 1 to *k*, read one at a time), then leave it open after them.
        Only rows cut short by a crash (a last line without its end, the
        first arms of a last game) are dropped; any other row that cannot be
        read, or is not the game due (its number, its ``seed``), is refused
        with its line, leaving the file as it was. ``stamp(games)``: the
        metadata to record from now on, given the games kept (a run continued
        by other code)."""
        if self.kind == "parquet":
            yield from self._resume_parquet(arms, limit, seed, stamp)
            return
        heading = 2 if self.kind == "csv" else 1
        keep, games = yield from self._rows(self.path, heading, arms, limit, seed, 0)
        self._cut(self.path, heading, keep, stamp(games) if stamp else None)
        self._append()

    def _rows(
        self, path: Path, heading: int, arms: int, limit: int | None, seed: str | None, before: int
    ) -> Generator[dict[str, Any], None, tuple[int, int]]:
        """Yield the rows of a text file's complete games, games ``before`` + 1
        on, checked; return the offset after the last complete game, and
        how many games are complete."""
        games = before
        group: list[dict[str, Any]] = []
        with open(path, "rb") as handle:
            offset = sum(len(handle.readline(MAX_META)) for _ in range(heading))
            keep = offset
            for number, line in enumerate(_lines(handle), start=heading + 1):
                if not line.endswith(b"\n"):
                    if len(line) >= MAX_META:
                        raise UsageError(f"line {number}: a row longer than {MAX_META} bytes", where=str(path))
                    break  # cut short by a crash: dropped
                rec = parse_row(self.kind, line, number, path)
                if games == limit:
                    raise self._longer(limit)
                due = games + 1
                if rec["number"] != due:
                    raise UsageError(
                        f"line {number}: game {rec['number']} where game {due} is due (rows out of order or missing)",
                        where=str(path),
                    )
                if seed is not None and rec["seed"] != f"{seed}-{due}":
                    raise UsageError(
                        f"line {number}: game {due} has the seed {quote(str(rec['seed']))}, "
                        f"not {quote(f'{seed}-{due}')} (a row of another run)",
                        where=str(path),
                    )
                offset += len(line)
                group.append(rec)
                if len(group) == arms:
                    yield from group
                    group = []
                    games += 1
                    keep = offset
        return keep, games

    def _cut(self, path: Path, heading: int, keep: int, stamp: dict[str, Any] | None) -> None:
        """Drop what follows the last complete game; with ``stamp``, write
        the file again with that metadata first (whole, then renamed)."""
        if stamp is None:
            with open(path, "r+b") as handle:
                handle.truncate(keep)
            return
        self.meta = stamp
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            with open(path, "rb") as old, open(tmp, "w", encoding="utf-8", newline="") as out:
                skip = sum(len(old.readline(MAX_META)) for _ in range(heading))
                if path == self.journal:
                    out.write(orjson.dumps({"run": stamp, "after": self._after}).decode() + "\n")
                else:
                    self._start_text(out)
                out.flush()
                left = keep - skip
                while left > 0:
                    chunk = old.read(min(left, 1 << 20))
                    if not chunk:
                        break
                    out.buffer.write(chunk)
                    left -= len(chunk)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()

    def _longer(self, games: int | None) -> UsageError:
        return UsageError(
            f"holds more than the {games} games asked for; rerun with the --games it was started with",
            where=str(self.path),
        )

    def _append(self) -> None:
        self._handle = open(self.path, "ab")

    def _start_text(self, out: Any) -> None:
        meta = orjson.dumps(self.meta).decode()
        if self.kind == "csv":
            out.write(CSV_META + meta + "\n")
            out.write(",".join(FIELDS) + "\n")
        else:
            out.write(orjson.dumps({"run": self.meta}).decode() + "\n")

    @property
    def appended(self) -> Path:
        """The file rows are appended to: the file itself, or a Parquet run's journal."""
        return self.journal if self.kind == "parquet" else self.path

    @property
    def line_kind(self) -> str:
        """How the appended rows are written: ``csv`` or ``jsonl`` (a Parquet run's journal)."""
        return "jsonl" if self.kind == "parquet" else self.kind

    def size(self) -> int:
        """The bytes of the appended file: where the rows written next begin."""
        self._handle.flush()
        return os.fstat(self._handle.fileno()).st_size

    @_named
    def write(self, rows: Sequence[dict[str, Any]]) -> None:
        """Append ``rows`` (whole batches: see the module's docstring)."""
        self.write_bytes(encode_rows(self.line_kind, rows), len(rows))

    @_named
    def write_bytes(self, data: bytes, rows: int) -> None:
        """Append ``rows`` rows already written as lines (:func:`encode_rows`)."""
        self._handle.write(data)
        self._handle.flush()
        self.added(rows)

    def added(self, rows: int) -> None:
        """Note ``rows`` rows appended to the file by others (the workers)."""
        if self.kind == "parquet":
            self._journaled += rows

    @_named
    def cut_at(self, offset: int) -> None:
        """Drop whatever follows byte ``offset`` of the appended file (games
        written beyond those the run counts: a batch finished after a stop)."""
        self._handle.flush()
        if os.fstat(self._handle.fileno()).st_size > offset:
            os.ftruncate(self._handle.fileno(), offset)

    @_named
    def sync(self) -> None:
        """Make what is written durable (called now and then, not per row)."""
        if self._handle is not None:
            self._handle.flush()
            os.fsync(self._handle.fileno())

    def close(self) -> None:
        """Make what is written durable and close it; a Parquet run's file is
        written whole from the file as it was and the journal, which goes."""
        if self._handle is not None:
            handle, self._handle = self._handle, None
            try:
                self._sync_and_close(handle)
            finally:
                handle.close()
            if self.kind == "parquet":
                self._close_parquet()

    @_named
    def _sync_and_close(self, handle: Any) -> None:
        handle.flush()
        os.fsync(handle.fileno())

    # -- Parquet ----------------------------------------------------------

    def _journal_meta(self) -> tuple[dict[str, Any], int] | None:
        """The journal's run and the games of the Parquet file it follows;
        None when there is no journal, or a file there that is not one (a
        Parquet file half written by an older tabletop: nothing in it can be read)."""
        if self.journal.is_symlink() or (self.journal.exists() and not self.journal.is_file()):
            raise UsageError("not a regular file; move it away", where=str(self.journal))
        try:
            with open(self.journal, "rb") as handle:
                first = orjson.loads(handle.readline(MAX_META))
            return dict(first["run"]), int(first["after"])
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise UsageError(f"cannot read it: {exc.strerror or exc}", where=str(self.journal)) from None
        except Exception:
            return None

    def _parquet_games(self, meta: dict[str, Any]) -> int:
        pq, _ = _parquet(meta)
        try:
            rows = pq.ParquetFile(str(self.path)).metadata.num_rows
        except Exception:
            raise UsageError("not a complete Parquet file; choose another name", where=str(self.path)) from None
        return rows // max(1, len(meta.get("arms") or [[]]))

    @_named
    def _start_journal(self, after: int) -> None:
        self._after = after
        self._journaled = 0
        with open(self.journal, "w", encoding="utf-8") as out:
            out.write(orjson.dumps({"run": self.meta, "after": after}).decode() + "\n")
        self._handle = open(self.journal, "ab")

    def _resume_parquet(
        self, arms: int, limit: int | None, seed: str | None, stamp: Callable[[int], dict[str, Any]] | None
    ) -> Generator[dict[str, Any], None, None]:
        games = 0
        group: list[dict[str, Any]] = []
        if self._present():
            pq, _ = _parquet(self.meta)
            try:
                old = pq.ParquetFile(str(self.path))
            except Exception:
                raise UsageError("not a complete Parquet file; choose another name", where=str(self.path)) from None
            for rec in _parquet_rows(old):
                if games == limit:
                    raise self._longer(limit)
                if rec["number"] != games + 1:
                    raise UsageError(
                        f"row {games * arms + len(group) + 1}: game {rec['number']} where game {games + 1} is due",
                        where=str(self.path),
                    )
                group.append(rec)
                if len(group) == arms:
                    yield from group
                    group = []
                    games += 1
            if group:
                raise UsageError(f"game {games + 1} lacks a rule set's row", where=str(self.path))
        journal = self._journal_meta()
        if journal is not None:
            there, after = journal
            if after == games:
                self._after = after
                keep, games = yield from self._rows(self.journal, 1, arms, limit, seed, games)
                self._journaled = games - after
                self._cut(self.journal, 1, keep, stamp(games) if stamp else None)
                self._handle = open(self.journal, "ab")
                return
            if after < games:
                # Written into the Parquet file already (a run killed before it
                # removed its journal): nothing of it is new.
                pass
            else:
                raise UsageError(
                    f"continues game {after} of {self.path.name}, which holds {games}; move one of them away",
                    where=str(self.journal),
                )
        if stamp is not None:
            self.meta = stamp(games)
        self._start_journal(games)

    def _close_parquet(self) -> None:
        """Write the Parquet file whole: its rows so far, then the journal's."""
        if not self._journaled and self._present() and self.meta == read_meta(self.path):
            self.journal.unlink(missing_ok=True)
            return
        pq, schema = _parquet(self.meta)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            writer = pq.ParquetWriter(str(tmp), schema)
            try:
                chunk: list[dict[str, Any]] = []
                for rec in self._merged():
                    chunk.append(rec)
                    if len(chunk) == PARQUET_GROUP:
                        _write_group(writer, schema, chunk)
                        chunk = []
                if chunk:
                    _write_group(writer, schema, chunk)
            finally:
                writer.close()
            with open(tmp, "rb") as written:
                os.fsync(written.fileno())
            os.replace(tmp, self.path)
        except Exception as exc:  # a full disk, or a journal damaged since it was read
            why = exc.strerror or str(exc) if isinstance(exc, OSError) else type(exc).__name__
            raise UsageError(
                f"cannot write: {why}; its games are kept in {self.journal.name}, and the same command continues them",
                where=str(self.path),
            ) from None
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
        self.journal.unlink(missing_ok=True)

    def _merged(self) -> Iterator[dict[str, Any]]:
        if self._present():
            pq, _ = _parquet(self.meta)
            yield from _parquet_rows(pq.ParquetFile(str(self.path)))
        with open(self.journal, "rb") as handle:
            handle.readline(MAX_META)
            for line in _lines(handle):
                if not line.endswith(b"\n"):
                    break
                yield orjson.loads(line)


def parse_row(kind: str, line: bytes, number: int, path: Path) -> dict[str, Any]:
    """Line ``number`` of a ``csv`` or ``jsonl`` results file, typed and
    checked: one that cannot be read is one error naming its line."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"line {number}: not UTF-8 text (byte {exc.start + 1})", where=str(path)) from None
    try:
        if kind == "csv":
            (flat,) = csv.DictReader(io.StringIO(text), fieldnames=FIELDS, strict=True)
            rec = _typed(_unflat(flat))
        else:
            rec = orjson.loads(text)
            rec["figures"] = dict(rec["figures"] or {})
        row_from(rec)
    except Exception as exc:  # any field missing, of the wrong type, or not JSON / CSV
        raise UsageError(f"line {number}: not a results row ({_what(exc)})", where=str(path)) from None
    return rec


def _write_group(writer: Any, schema: Any, rows: list[dict[str, Any]]) -> None:
    import pyarrow as pa

    columns: dict[str, list[Any]] = {name: [] for name in FIELDS}
    for rec in rows:
        for name in FIELDS:
            columns[name].append(rec[name] if name != "figures" else orjson.dumps(rec["figures"]).decode())
    writer.write_table(pa.table(columns, schema=schema), row_group_size=len(rows))


def _parquet_rows(parquet: Any) -> Iterator[dict[str, Any]]:
    for batch in parquet.iter_batches(batch_size=PARQUET_GROUP):
        for rec in batch.to_pylist():
            rec["figures"] = orjson.loads(rec["figures"] or "{}")
            yield rec


def _what(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"no {exc.args[0]!r}" if exc.args else "a field is missing"
    if isinstance(exc, orjson.JSONDecodeError):
        return "not JSON"
    return type(exc).__name__


#: The longest first line (the run's metadata) read.
MAX_META = 1 << 20
#: Rows per Parquet row group.
PARQUET_GROUP = 20_000


def require_pyarrow() -> Any:
    """``pyarrow.parquet``, or the one line saying how to install it."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise UsageError("Parquet results need pyarrow: pip install 'tabletop[parquet]'") from None
    return pq


def parquet_rows(parquet: Any) -> Iterator[dict[str, Any]]:
    """The rows of an open ``pyarrow.parquet.ParquetFile``, a row group at a time."""
    return _parquet_rows(parquet)


def _parquet(meta: dict[str, Any]) -> tuple[Any, Any]:
    return require_pyarrow(), schema(orjson.dumps(meta))


def schema(meta: bytes) -> Any:
    """The columns of a Parquet results file or part, with the run's metadata (JSON)."""
    require_pyarrow()
    import pyarrow as pa

    text, whole = pa.string(), pa.int64()
    return pa.schema(
        [
            ("number", whole),
            ("seed", text),
            ("game", text),
            ("players", pa.list_(text)),
            ("bots", pa.list_(text)),
            ("variants", pa.list_(text)),
            ("start", text),
            ("turn_order", pa.list_(text)),
            ("scores", pa.list_(whole)),
            ("winners", pa.list_(text)),
            ("events", whole),
            ("turns", whole),
            ("finished", pa.bool_()),
            ("figures", text),
            ("digest", text),
        ],
        metadata={b"tabletop.run": meta},
    )


def read_meta(path: Path) -> dict[str, Any]:
    """The metadata of a results file (its first line, or the Parquet schema's)."""
    path = Path(path)
    kind = kind_of(path)
    if kind == "parquet":
        pq, _ = _parquet({})
        try:
            schema = pq.read_schema(str(path))
        except Exception:
            raise UsageError(
                "not a complete Parquet file (the run was killed before closing it); choose another name",
                where=str(path),
            ) from None
        return orjson.loads((schema.metadata or {})[b"tabletop.run"])
    with open(path, "rb") as handle:
        raw = handle.readline(MAX_META)
    try:
        first = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("line 1: not UTF-8 text; not a tabletop results file", where=str(path)) from None
    if kind == "csv":
        if not first.startswith(CSV_META):
            raise ValueError("no run line")
        return orjson.loads(first[len(CSV_META) :])
    return orjson.loads(first)["run"]


def read(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The metadata and the rows of a results file (all in memory: for a
    few; :func:`records` streams them)."""
    return read_meta(path), list(records(path))


def records(path: Path) -> Iterator[dict[str, Any]]:
    """The rows of a results file, one at a time. A last line cut short (the
    run was killed) is left out."""
    path = Path(path)
    kind = kind_of(path)
    if kind == "parquet":
        pq, _ = _parquet({})
        try:
            parquet = pq.ParquetFile(str(path))
        except Exception:
            journal = path.with_name(path.name + ".partial")
            hint = f" (its games so far are in {journal.name}: the same simulate command finishes it)"
            raise UsageError(
                "not a complete Parquet file" + (hint if journal.is_file() else ""), where=str(path)
            ) from None
        yield from _parquet_rows(parquet)
        return
    read_meta(path)
    heading = 2 if kind == "csv" else 1
    with open(path, "rb") as handle:
        for _ in range(heading):
            handle.readline(MAX_META)
        for number, line in enumerate(_lines(handle), start=heading + 1):
            if not line.endswith(b"\n"):
                if len(line) >= MAX_META:
                    raise UsageError(f"line {number}: a row longer than {MAX_META} bytes", where=str(path))
                return
            yield parse_row(kind, line, number, path)


def _lines(handle: Any) -> Iterator[bytes]:
    # Lines of at most MAX_META bytes: a longer one comes cut (no newline).
    return iter(lambda: handle.readline(MAX_META), b"")


def _typed(rec: dict[str, Any]) -> dict[str, Any]:
    for key in ("number", "events", "turns"):
        rec[key] = int(rec[key])
    rec["finished"] = rec["finished"] == "1"
    rec["scores"] = [int(s) for s in rec["scores"]]
    rec["figures"] = {k: float(v) for k, v in rec["figures"].items()}
    return rec


def iter_rows(path: Path) -> Iterator[GameRow]:
    """The games of a results file, as :class:`GameRow` (for ``tabletop stats``)."""
    for rec in records(path):
        yield row_from(rec)


def is_results_file(path: Path) -> bool:
    """Whether ``path`` is a results file of ``simulate --results`` (not a log)."""
    suffix = path.suffix.lower()
    if suffix in (".csv", ".parquet"):
        return True
    if suffix != ".jsonl":
        return False
    try:
        with open(path, "rb") as handle:
            return handle.read(7) == b'{"run":'
    except OSError:
        return False
