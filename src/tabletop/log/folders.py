"""Finding the logs in folders: a walk that streams, goes as deep as the
folders do, and reports what it cannot read instead of skipping it."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..base.errors import UsageError
from .files import reason

SUFFIX = ".jsonl"
#: A study beside a log (``game.study.jsonl``, :mod:`tabletop.review.study`) is no log: a folder's walk leaves it out.
STUDY = ".study.jsonl"


def logs(paths: Iterable[Path]) -> Iterator[Path | UsageError]:
    """Each path given, and every ``*.jsonl`` file under each folder given
    (studies aside), in name order, one at a time; a folder that cannot be
    read is yielded as the error that says so (the walk goes on)."""
    for path in paths:
        if path.is_dir():
            yield from _walk(path)
        else:
            yield path


def _walk(top: Path) -> Iterator[Path | UsageError]:
    # An explicit stack, not recursion: a folder may be thousands of levels deep.
    # Each level holds only its own sorted names; symbolic links to folders are
    # not followed (a link may loop back).
    stack: list[Iterator[tuple[str, bool, str]]] = []
    entries = _entries(top)
    if isinstance(entries, UsageError):
        yield entries
        return
    stack.append(entries)
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            continue
        name, is_folder, path = item
        if is_folder:
            entries = _entries(Path(path))
            if isinstance(entries, UsageError):
                yield entries
            else:
                stack.append(entries)
        elif name.endswith(SUFFIX) and not name.endswith(STUDY):
            yield Path(path)


def _entries(folder: Path) -> Iterator[tuple[str, bool, str]] | UsageError:
    try:
        with os.scandir(folder) as scan:
            found = []
            for entry in scan:
                try:
                    is_folder = entry.is_dir(follow_symlinks=False)
                except OSError:
                    is_folder = False
                found.append((entry.name, is_folder, entry.path))
    except OSError as exc:
        return UsageError(f"cannot read the folder: {reason(exc)}", where=str(folder))
    found.sort()
    return iter(found)
