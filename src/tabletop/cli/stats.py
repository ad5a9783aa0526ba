"""``tabletop stats``: many logs summarised."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..base.errors import TabletopError, UsageError
from ..many.rows import rows_from_files
from ..many.stats import GROUPINGS, Summary, parse_by, write_csv
from .common import pass_env, plot_option


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--by",
    default="seat",
    show_default=True,
    help="Win table per " + ", ".join(GROUPINGS) + "; several with commas (start,variant).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--csv", "as_csv", is_flag=True, help="Print one CSV row per game instead of the summary.")
@plot_option
@pass_env
def stats(env, paths: tuple[Path, ...], by: str, as_json: bool, as_csv: bool, plot_path: Path | None) -> None:
    """Summarise logs, results files or results folders (simulate --results): wins per seat,
    player, bot, start player or place in turn order with 95% intervals,
    shared victories, scores and game length.

    Files and folders (searched for *.jsonl) are read one log at a time and
    every log is replayed and checked; a log that cannot be read or breaks
    the rules is named on stderr and left out (exit 2 or 1 at the end). A
    results folder (its _manifest.json) is read part by part.

    \b
    Example:
      tabletop stats games/
      tabletop stats games/ --by bot --plot wins.svg
      tabletop stats games/ --by turn-order,variant
      tabletop stats games/ --csv > games.csv
      tabletop stats results.csv --by turn-order --plot order.png
      tabletop stats study/ --by seat,start
    """
    if as_json and as_csv:
        raise UsageError("--json and --csv exclude each other")
    by = parse_by(by)
    if plot_path is not None:
        from ..many.plotting import check_target

        check_target(plot_path)
    registry = env.registry
    failed: list[TabletopError] = []
    summary = Summary(by)

    def counted(rows):
        for row in rows:
            summary.add(row)
            yield row

    rows = counted(rows_from_files(registry, paths, failed))
    if as_csv:
        write_csv(rows, sys.stdout)
    else:
        for _ in rows:
            pass
    for exc in failed:
        click.echo(f"tabletop: left out: {exc}", err=True)
    if not summary.games:
        raise UsageError("no readable .jsonl logs in " + ", ".join(map(str, paths)))
    if plot_path is not None:
        from ..many.plotting import plot

        plot(summary.sorted_groups(), plot_path)
    if as_json:
        click.echo(json.dumps(summary.as_json(), ensure_ascii=False))
    elif not as_csv:
        click.echo(summary.table())
        if plot_path is not None:
            click.echo(f"Picture written to {plot_path}.")
    if failed:
        sys.exit(max(exc.exit_code for exc in failed))
