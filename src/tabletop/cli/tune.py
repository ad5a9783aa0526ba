"""``tabletop tune``: the values of a variant's parameters that come nearest a target."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..base.errors import UsageError
from ..base.progress import Progress
from ..many.simulation import Guard, Plan
from .common import game_option, parse_options, pass_env, scheduler_option, workers_option


@click.command()
@click.argument("game")
@click.option(
    "--variant", required=True, metavar="NAME[:KEY=VALUE,...]", help="The variant to tune (fixed parameters after ':')."
)
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="KEY=LOW..HIGH[:STEP]",
    help="A parameter of the variant and its range (repeatable): whole numbers LOW to HIGH, or a grid for a float.",
)
@click.option(
    "--target",
    required=True,
    help="What to come near: even-seats, even-turn-order, shared=P, length=N (turns), stronger=BOT:P.",
)
@click.option(
    "--seats",
    "how_many",
    type=click.IntRange(min=1),
    help="How many players (default: one per --bot, else the fewest the game takes).",
)
@game_option
@click.option(
    "--bot",
    "bots",
    multiple=True,
    help="A bot for all seats, or one per seat in seat order (NAME or NAME:key=value,...; default random).",
)
@click.option(
    "--budget", type=click.IntRange(min=1), default=2000, show_default=True, help="The most games the search plays."
)
@click.option(
    "--results",
    type=click.Path(file_okay=False, path_type=Path),
    help="Keep every game in this folder (a results file per round, and tune.json); the same command resumes it.",
)
@click.option("--seed", default="tune", show_default=True, help="Round K's game i is played with the seed SEED-rK-i.")
@workers_option
@scheduler_option
@click.option(
    "--batch", "per_batch", type=click.IntRange(min=1), help="Seeds per task (default: about 8 tasks per worker)."
)
@click.option(
    "--continue-anyway",
    is_flag=True,
    help="Add games to a round's results file made by other code (another tabletop, an edited house rule).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Draw the search: each candidate's value with its interval, and the losses round by round (.png, .svg).",
)
@pass_env
def tune(
    env,
    game,
    variant,
    params,
    target,
    how_many,
    options,
    bots,
    budget,
    results,
    seed,
    workers,
    scheduler,
    per_batch,
    continue_anyway,
    as_json,
    plot_path,
) -> None:
    """Find the values of a variant's parameters that come nearest a target
    (even seats or turn order, a share of shared victories, a game length, a
    stronger bot's share), by successive halving on paired seeds.

    Every candidate of a round plays the same seeds; the better half goes on
    to the next round. Prints the best values with the target's value and
    its 95% interval there, and every candidate evaluated.

    Every game is kept in the --results folder as it is played; Ctrl-C stops
    the search, and the same command run again continues it to the answer
    an uninterrupted search gives.

    \b
    Example:
      tabletop --plugins variants/house_rules tune glux --variant glux-stack-height --param height=1..4 \\
          --target stronger=greedy:0.9 --bot greedy --bot random --budget 1600 --results skill/
    """
    from ..many import targets, tuning

    if workers is not None and scheduler is not None:
        raise UsageError("--workers and --scheduler exclude each other (Dask decides how many workers)")
    registry = env.registry_for(game)
    plan = _plan(env, registry, game, how_many, bots, options, seed)
    aim = targets.parse(target, plan.bots)
    search = tuning.search_of(registry, plan, variant, params, aim, budget)
    if results is not None:
        tuning.check_folder(search, results)
    if plot_path is not None:
        # Before any game: a picture that cannot be drawn is refused now, not after hours.
        from ..many.plotting import check_target

        check_target(plot_path)
    planned = sum(n * g for n, g in search.schedule()) * len(search.lineups())
    where = tuning.Where(results, workers, scheduler, per_batch, continue_anyway)

    def note(text: str) -> None:
        click.echo(text, err=True)

    with Guard() as guard, Progress(planned, f"tune {game}", sys.stderr) as bar:
        tuned = tuning.tune(registry, search, where, guard, bar, note)
    _show(tuned, as_json, plot_path, results)


def _plan(env, registry, game: str, how_many: int | None, bots: tuple[str, ...], options, seed: str) -> Plan:
    """The games of the search: its seats (one per --bot, else the fewest the game takes), each with its bot."""
    cls = registry.game_class(game)
    names = list(bots) or ["random"]
    count = how_many if how_many is not None else (len(names) if len(names) > 1 else cls.min_players)
    if len(names) not in (1, count):
        raise UsageError(f"--bot: give one bot for all seats or one per seat ({count})")
    if not cls.min_players <= count <= cls.max_players:
        raise UsageError(f"--seats: {cls.name} is for {cls.min_players} to {cls.max_players} players, not {count}")
    return Plan(
        game=game,
        players=count,
        bots=tuple(names * count if len(names) == 1 else names),
        options=tuple(sorted(parse_options(options).items())),
        seed=seed,
        plugins=tuple(str(p) for p in env.plugins),
    )


def _show(tuned, as_json: bool, plot_path: Path | None, results: Path | None) -> None:
    """Print the answer (text or JSON), draw the search if asked, and say where its games are."""
    from ..many import tuning

    if as_json:
        click.echo(json.dumps(tuned.as_json(), ensure_ascii=False))
    else:
        click.echo(tuned.text())
    if plot_path is not None:
        tuning.plot_search(tuned, plot_path)
        if not as_json:
            click.echo(f"Picture written to {plot_path}.")
    if results is not None and not as_json:
        click.echo(f"Results written to {results} (a results file per round and {tuning.MANIFEST}).")
