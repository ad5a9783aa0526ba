"""Results files: one row per game, written as batches finish, in game order.

Three formats, told by the file's suffix: ``.csv`` (lists space-separated),
``.jsonl`` (one JSON object a line) and ``.parquet`` (typed columns; needs
pyarrow, the ``parquet`` extra). Each file starts with the run's metadata
(what was played, see :func:`tabletop.runs.metadata`): the first line of a
CSV or JSON Lines file, the schema metadata of a Parquet file. Rows are
written in game order and whole batches at a time, so a file cut short by an
interrupt holds games 1 to *k* of every arm, and a rerun continues from *k*.
"""

from __future__ import annotations

import csv
import functools
import io
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import orjson

from .errors import UsageError
from .stats import GameRow

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
        raise UsageError(f"a results file ends in {', '.join(SUFFIXES)}", where=str(path))
    return suffix[1:]


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
    """A results file open for appending rows; see the module's docstring."""

    def __init__(self, path: Path, meta: dict[str, Any]) -> None:
        self.path = Path(path)
        self.kind = kind_of(self.path)
        self.meta = meta
        self._handle: Any = None
        self._writer: Any = None
        self._buffer: list[dict[str, Any]] = []
        self._partial: Path | None = None

    # -- reading what is there -------------------------------------------

    def existing(self) -> dict[str, Any] | None:
        """The metadata of the run the file holds, or None if there is no file."""
        if not self.path.exists():
            return None
        if not self.path.is_file():
            raise UsageError("not a regular file; choose another name", where=str(self.path))
        if self.path.stat().st_size == 0:
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

    # -- writing ----------------------------------------------------------

    @_named
    def start(self) -> None:
        """Start a new file."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.kind == "parquet":
            self._open_parquet()
            return
        with open(self.path, "w", encoding="utf-8", newline="") as out:
            self._start_text(out)
        self._append()

    def resume(self, arms: int, limit: int | None = None) -> Iterator[dict[str, Any]]:
        """Continue the file: yield the rows of its complete games (every arm
        of games 1 to *k*, read one at a time), then leave it open after them;
        rows of a game cut short are dropped."""
        if self.kind == "parquet":
            yield from self._resume_parquet(arms, limit)
            return
        keep = games = 0
        group: list[dict[str, Any]] = []
        with open(self.path, "rb") as handle:
            offset = len(handle.readline(MAX_META))
            if self.kind == "csv":
                offset += len(handle.readline(MAX_META))
            keep = offset
            for line in _lines(handle):
                if not line.endswith(b"\n"):
                    break
                if games == limit and self._parse(line.decode("utf-8")) is not None:
                    raise self._longer(limit)
                offset += len(line)
                rec = self._parse(line.decode("utf-8"))
                if rec is None or rec["number"] != games + 1:
                    break
                group.append(rec)
                if len(group) == arms:
                    yield from group
                    group = []
                    games += 1
                    keep = offset
        with open(self.path, "r+b") as handle:
            handle.truncate(keep)
        self._append()

    def _longer(self, games: int | None) -> UsageError:
        return UsageError(
            f"holds more than the {games} games asked for; rerun with the --games it was started with",
            where=str(self.path),
        )

    def _parse(self, text: str) -> dict[str, Any] | None:
        try:
            if self.kind == "csv":
                (flat,) = csv.DictReader(io.StringIO(text), fieldnames=FIELDS)
                return _typed(_unflat(flat))
            return orjson.loads(text)
        except Exception:  # a row written half: the run stops before it
            return None

    def _append(self) -> None:
        self._handle = open(self.path, "a", encoding="utf-8", newline="")

    def _start_text(self, out: Any) -> None:
        meta = orjson.dumps(self.meta).decode()
        if self.kind == "csv":
            out.write(CSV_META + meta + "\n")
            out.write(",".join(FIELDS) + "\n")
        else:
            out.write(orjson.dumps({"run": self.meta}).decode() + "\n")

    def _rows_text(self, out: Any, rows: Sequence[dict[str, Any]]) -> None:
        if self.kind == "csv":
            writer = csv.DictWriter(out, fieldnames=FIELDS, lineterminator="\n")
            writer.writerows(_flat(r) for r in rows)
        else:
            out.write("".join(orjson.dumps(r).decode() + "\n" for r in rows))

    @_named
    def write(self, rows: Sequence[dict[str, Any]]) -> None:
        """Append ``rows`` (whole batches: see the module's docstring)."""
        if self.kind == "parquet":
            self._buffer += rows
            if len(self._buffer) >= PARQUET_GROUP:
                self._flush_parquet()
            return
        self._rows_text(self._handle, rows)
        self._handle.flush()

    @_named
    def sync(self) -> None:
        """Make what is written durable (called now and then, not per row)."""
        if self.kind == "parquet":
            return
        if self._handle is not None:
            self._handle.flush()
            os.fsync(self._handle.fileno())

    @_named
    def close(self) -> None:
        if self.kind == "parquet":
            self._close_parquet()
            return
        if self._handle is not None:
            self.sync()
            self._handle.close()
            self._handle = None

    def discard(self) -> None:
        """Close the file and remove it (a run that played no game)."""
        self.close()
        self.path.unlink(missing_ok=True)

    # -- Parquet ----------------------------------------------------------

    def _open_parquet(self) -> None:
        pq, schema = _parquet(self.meta)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._partial = self.path.with_name(self.path.name + ".partial")
        self._writer = pq.ParquetWriter(str(self._partial), schema)
        self._schema = schema
        self._buffer = []

    def _resume_parquet(self, arms: int, limit: int | None) -> Iterator[dict[str, Any]]:
        # A Parquet file cannot be appended to: its rows are copied into a
        # new one, which replaces it when the run stops.
        pq, _ = _parquet(self.meta)
        try:
            old = pq.ParquetFile(str(self.path))
        except Exception:
            raise UsageError(
                "not a complete Parquet file (the run was killed before closing it); choose another name",
                where=str(self.path),
            ) from None
        self._open_parquet()
        group: list[dict[str, Any]] = []
        seen = 0
        for batch in old.iter_batches(batch_size=PARQUET_GROUP):
            for rec in batch.to_pylist():
                rec["figures"] = orjson.loads(rec["figures"] or "{}")
                if seen == limit:
                    self._writer.close()
                    self._writer = None
                    assert self._partial is not None
                    self._partial.unlink(missing_ok=True)
                    raise self._longer(limit)
                if rec["number"] != seen + 1:
                    return
                group.append(rec)
                if len(group) == arms:
                    self.write(group)
                    yield from group
                    group = []
                    seen += 1

    def _flush_parquet(self) -> None:
        if not self._buffer:
            return
        import pyarrow as pa

        columns = {name: [] for name in FIELDS}
        for rec in self._buffer:
            for name in FIELDS:
                columns[name].append(rec[name] if name != "figures" else orjson.dumps(rec["figures"]).decode())
        self._writer.write_table(pa.table(columns, schema=self._schema))
        self._buffer = []

    def _close_parquet(self) -> None:
        if self._writer is None:
            return
        self._flush_parquet()
        self._writer.close()
        self._writer = None
        assert self._partial is not None
        os.replace(self._partial, self.path)


#: The longest first line (the run's metadata) read.
MAX_META = 1 << 20
#: Rows per Parquet row group.
PARQUET_GROUP = 20_000


def _parquet(meta: dict[str, Any]) -> tuple[Any, Any]:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise UsageError("a .parquet results file needs pyarrow: pip install 'tabletop[parquet]'") from None
    text, whole = pa.string(), pa.int64()
    schema = pa.schema(
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
        metadata={b"tabletop.run": orjson.dumps(meta)},
    )
    return pq, schema


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
        first = handle.readline(MAX_META).decode("utf-8")
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
        for batch in pq.ParquetFile(str(path)).iter_batches(batch_size=PARQUET_GROUP):
            for rec in batch.to_pylist():
                rec["figures"] = orjson.loads(rec["figures"] or "{}")
                yield rec
        return
    read_meta(path)
    with open(path, "rb") as handle:
        handle.readline(MAX_META)
        if kind == "csv":
            handle.readline(MAX_META)
        for line in _lines(handle):
            if not line.endswith(b"\n"):
                if len(line) >= MAX_META:
                    raise UsageError(f"a row longer than {MAX_META} bytes", where=str(path))
                return
            if kind == "csv":
                (flat,) = csv.DictReader(io.StringIO(line.decode("utf-8")), fieldnames=FIELDS)
                yield _typed(_unflat(flat))
            else:
                yield orjson.loads(line)


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
