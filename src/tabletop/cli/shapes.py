"""The ``--json`` output of the commands: one JSON document each, whose keys
are documented in docs/guide.md and do not change within log format version 1."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:  # only the diff command needs the diffing, and imports it
    from ..review.diffing import Difference, Side


def emit(data: Any) -> None:
    """Print ``data`` as one line of JSON."""
    click.echo(json.dumps(data, ensure_ascii=False))


def side(item: Side) -> dict[str, Any]:
    return {"file": str(item.path), "line": item.lineno, "event": item.text}


def rows(found: list[tuple[str, str, str]]) -> list[dict[str, str]]:
    return [{"facet": key, "a": a, "b": b} for key, a, b in found]


def difference(d: Difference) -> dict[str, Any]:
    """``diff --json``."""
    return {
        "identical": d.identical,
        "header": [{"field": key, "a": a, "b": b} for key, a, b in d.header],
        "prefix": d.prefix,
        "first": None if d.first is None else {"a": side(d.first[0]), "b": side(d.first[1])},
        "after_first": rows(d.at_first),
        "at_end": rows(d.at_end),
        "events": list(d.lengths),
    }
