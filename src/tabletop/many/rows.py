"""The rows of the games named on a command line: logs, results files and
results folders (``simulate --results``) alike, one row at a time."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from ..base.errors import TabletopError, UsageError
from ..host.registry import Registry
from . import parts
from .results import is_results_file, iter_rows, row_from
from .stats import GameRow, rows_from_logs


def rows_from_files(
    registry: Registry, paths: Iterable[Path], failed: list[TabletopError] | None = None
) -> Iterator[GameRow]:
    """The rows of logs (as :func:`rows_from_logs`) and of results files and
    results folders (``simulate --results``) named among ``paths``, one at a time."""
    logs: list[Path] = []
    for path in paths:
        folder = parts.is_folder(Path(path))
        if not folder and (not Path(path).is_file() or not is_results_file(Path(path))):
            logs.append(path)
            continue
        yield from rows_from_logs(registry, logs, failed)
        logs = []
        try:
            if folder:
                yield from map(row_from, parts.records(Path(path)))
            else:
                yield from iter_rows(Path(path))
        except TabletopError as exc:
            if failed is None:
                raise
            failed.append(exc)
        except Exception as exc:
            error = UsageError(f"not a readable results file ({type(exc).__name__})", where=str(path))
            if failed is None:
                raise error from None
            failed.append(error)
    yield from rows_from_logs(registry, logs, failed)
