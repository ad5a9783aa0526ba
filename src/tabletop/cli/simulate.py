"""``tabletop simulate``: many games between bots, summarised; on every core or a Dask cluster."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from ..base.errors import UsageError
from ..base.progress import Progress
from ..many import balance
from ..many.runs import Run, play
from ..many.simulation import Guard, Plan
from ..many.stats import parse_by
from .common import (
    game_option,
    parse_options,
    pass_env,
    plot_option,
    scheduler_option,
    seat_count,
    seats_option,
    variant_option,
    workers_option,
)


@click.command()
@click.argument("game")
@seats_option
@variant_option
@game_option
@click.option(
    "--bot",
    "bots",
    multiple=True,
    help="A bot for all seats, or one per seat in seat order (NAME or NAME:key=value,...; default random).",
)
@click.option("--games", type=click.IntRange(min=1), required=True, help="How many games.")
@click.option("--seed", default="simulate", show_default=True, help="Game i is played with the seed SEED-i.")
@workers_option
@scheduler_option
@click.option(
    "--batch", "per_batch", type=click.IntRange(min=1), help="Games per task (default: about 8 tasks per worker)."
)
@click.option(
    "-o", "--output", type=click.Path(file_okay=False, path_type=Path), help="Write each game's log into this folder."
)
@click.option(
    "--results",
    type=click.Path(path_type=str),
    help="Stream one row per game into this file (.csv, .jsonl, .parquet) as batches finish; "
    "a folder (DIR/): one Parquet part per batch, written by the workers.",
)
@click.option("--compare", help="Also play the same seeds with this variant toggled: a paired comparison.")
@click.option("--sweep", help="Play the same seeds at each value of one variant setting: VARIANT:key=v1,v2,...")
@click.option(
    "--until-interval",
    type=click.FloatRange(min=0, min_open=True, max=1),
    help="Stop early once every seat's 95% interval is at most this wide (--games is the most).",
)
@click.option(
    "--by",
    default="seat",
    show_default=True,
    help="Win tables per seat, bot, start, turn-order (several with commas); turn-order pairs a --compare by it.",
)
@click.option(
    "--continue-anyway",
    is_flag=True,
    help="Add games to a results file or logs folder made by other code (another tabletop, an edited house rule).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@plot_option
@pass_env
def simulate(
    env,
    game,
    how_many,
    old_players,
    variants,
    options,
    bots,
    games,
    seed,
    workers,
    scheduler,
    per_batch,
    output,
    results,
    compare,
    sweep,
    until_interval,
    by,
    continue_anyway,
    as_json,
    plot_path,
) -> None:
    """Play many games between bots and summarise them: wins per seat with
    95% intervals, shared victories, scores, game length.

    Game i uses the seed SEED-i alone, so the same seed gives the same games
    however they are split among workers or machines. Seats are named by
    seat and bot (p1-mcts), so the logs record who played. Results and logs
    are written as games finish; Ctrl-C stops the run, keeping what is
    written, and the same command run again continues it.

    \b
    Example:
      tabletop simulate glux --seats 4 --bot greedy --games 100000 --results games.csv
      tabletop simulate glux --seats 4 --games 1000000 --batch 5000 --results study/
      tabletop simulate glux --seats 2 --compare glux-second-place-2p --games 2000 --plot fair.png
      tabletop --plugins variants/house_rules simulate glux --seats 4 --sweep glux-room-points:first=4,5,6 --games 5000
      tabletop simulate glyph-chess --seats 2 --bot mcts --bot greedy --games 200 --scheduler tcp://10.0.0.5:8786
    """
    count = seat_count(how_many, old_players)
    if workers is not None and scheduler is not None:
        raise UsageError("--workers and --scheduler exclude each other (Dask decides how many workers)")
    if compare is not None and sweep is not None:
        raise UsageError("--compare and --sweep exclude each other")
    arms = balance.arms(_plan(env, game, count, bots, variants, options, seed), compare, sweep)
    run = _run(arms, games, results, output, workers, scheduler, per_batch, until_interval, by, continue_anyway)
    if plot_path is not None:
        # Before any game: a picture that cannot be drawn is refused now, not after hours.
        from ..many.plotting import check_target

        check_target(plot_path)
    label = f"{game} " + " / ".join(", ".join(a.variants) or "official rules" for a in arms)
    where = " and ".join(str(p) for p in (run.results, output) if p is not None)
    with Guard() as guard, Progress(games, label, sys.stderr) as bar:
        done = play(run, bar.update, guard, starting=bar.resuming(where))
    _show(balance.Report(done, compare=compare, sweep=sweep), as_json, plot_path, run.results, output)


def _plan(env, game: str, count: int, bots: tuple[str, ...], variants, options, seed: str) -> Plan:
    """The games to play: ``count`` seats, each with its bot (one for all, or one per seat)."""
    names = list(bots) or ["random"]
    if len(names) not in (1, count):
        raise UsageError(f"--bot: give one bot for all seats or one per seat ({count})")
    return Plan(
        game=game,
        players=count,
        bots=tuple(names * count if len(names) == 1 else names),
        variants=tuple(variants),
        options=tuple(sorted(parse_options(options).items())),
        seed=seed,
        plugins=tuple(str(p) for p in env.plugins),
    )


def _run(arms, games, results, output, workers, scheduler, per_batch, until_interval, by, continue_anyway) -> Run:
    """The run of ``arms``, its results and logs where the options say."""
    # A trailing slash asks for a folder of parts whatever the name (games.parquet/).
    folder = results is not None and results.endswith(("/", os.sep))
    return Run(
        arms=arms,
        games=games,
        results=Path(results) if results is not None else None,
        folder=folder,
        logs=output,
        workers=workers,
        scheduler=scheduler,
        per_batch=per_batch,
        until_interval=until_interval,
        by=parse_by(by),
        continue_anyway=continue_anyway,
    )


def _show(
    report: balance.Report, as_json: bool, plot_path: Path | None, results: Path | None, output: Path | None
) -> None:
    """Print the summary (text or JSON), draw it if asked, and say where the games are."""
    if as_json:
        click.echo(json.dumps(report.as_json(), ensure_ascii=False))
    else:
        click.echo(report.text())
    if plot_path is not None:
        from ..many.plotting import plot_report

        plot_report(report, plot_path)
        if not as_json:
            click.echo(f"Picture written to {plot_path}.")
    if not as_json:
        for what, where in (("Results", results), ("Logs", output)):
            if where is not None:
                click.echo(f"{what} written to {where}.")
