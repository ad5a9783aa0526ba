"""``tabletop diff``: compare two logs."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..review.diffing import Result
from ..review.diffing import diff as diff_logs
from . import shapes
from .common import pass_env


@click.command()
@click.argument("a", type=click.Path(path_type=Path))
@click.argument("b", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as one JSON object.")
@pass_env
def diff(env, a: Path, b: Path, as_json: bool) -> None:
    """Compare two logs: the common prefix, the first differing event on each
    side, and what differs in the state there and at the end.

    It opens with each game's result: who won (or that it is not over),
    after how many events, and the scores.

    Exits 0 when the games are identical, 1 when they differ.

    \b
    Example:
      tabletop diff mine.jsonl theirs.jsonl
      tabletop diff mine.jsonl theirs.jsonl --json
    """
    d = diff_logs(env.registry, a, b)
    if as_json:
        shapes.emit({"results": [_result(r) for r in d.results or ()], **shapes.difference(d)})
        sys.exit(0 if d.identical else 1)
    for label, found in zip("AB", d.results or ()):
        click.echo(f"{label} {found.line()}")
    for key, va, vb in d.header:
        click.echo(f"header {key}: {va} | {vb}")
    if d.identical:
        click.echo(f"identical: {d.prefix} events")
        return
    click.echo(f"common prefix: {d.prefix} events")
    if d.first is not None:
        click.echo(f"first difference: event {d.prefix + 1}")
        for label, side in zip("AB", d.first):
            where = f"{side.path}:{side.lineno}" if side.lineno else str(side.path)
            click.echo(f"  {label} {where}: {side.text if side.text is not None else '(log ends)'}")
        _facets(f"after event {d.prefix + 1} (A | B):", d.at_first)
        _facets(f"at the end, after {d.lengths[0]} | {d.lengths[1]} events (A | B):", d.at_end)
    sys.exit(1)


def _result(found: Result) -> dict[str, object]:
    """One game's result in ``diff --json``."""
    return {
        "file": str(found.path),
        "events": found.events,
        "over": found.over,
        "winners": list(found.winners),
        "verdict": found.verdict,
        "scores": found.scores,
    }


def _facets(title: str, rows: list[tuple[str, str, str]]) -> None:
    click.echo(title)
    if not rows:
        click.echo("  no difference")
    for key, va, vb in rows:
        click.echo(f"  {key}: {va} | {vb}")
