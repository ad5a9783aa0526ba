"""``tabletop simulate``: many games between bots, summarised; on every core or a Dask cluster."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path

import click

from .. import logfile
from ..errors import UsageError
from ..intervals import difference
from ..simulation import Plan, Played, log_name, run
from ..stats import Group, Summary
from .common import game_option, parse_options, pass_env, plot_option, seat_count, seats_option, variant_option


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
@click.option("--workers", type=click.IntRange(min=1), help="Processes on this machine (default: one per core).")
@click.option("--scheduler", help="Run on a Dask cluster instead: the scheduler's address, tcp://HOST:8786.")
@click.option(
    "--batch", "per_batch", type=click.IntRange(min=1), help="Games per task (default: about 8 tasks per worker)."
)
@click.option(
    "-o", "--output", type=click.Path(file_okay=False, path_type=Path), help="Write each game's log into this folder."
)
@click.option("--compare", help="Also play the same seeds with this variant toggled, and compare seat win rates.")
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
    compare,
    as_json,
    plot_path,
) -> None:
    """Play many games between bots and summarise them: wins per seat with
    95% intervals, shared victories, scores, game length.

    Game i uses the seed SEED-i alone, so the same seed gives the same games
    however they are split among workers or machines. Seats are named by
    seat and bot (p1-mcts), so the logs record who played.

    \b
    Example:
      tabletop simulate glux --seats 4 --bot greedy --games 1000
      tabletop simulate glux --seats 2 --compare glux-second-place-2p --games 2000 --plot fair.svg
      tabletop simulate glyph-chess --seats 2 --bot mcts --bot greedy --games 200 --scheduler tcp://10.0.0.5:8786
    """
    count = seat_count(how_many, old_players)
    if workers is not None and scheduler is not None:
        raise UsageError("--workers and --scheduler exclude each other (Dask decides how many workers)")
    names = list(bots) or ["random"]
    if len(names) not in (1, count):
        raise UsageError(f"--bot: give one bot for all seats or one per seat ({count})")
    plan = Plan(
        game=game,
        players=count,
        bots=tuple(names * count if len(names) == 1 else names),
        variants=tuple(variants),
        options=tuple(sorted(parse_options(options).items())),
        seed=seed,
        plugins=tuple(str(p) for p in env.plugins),
        logs=output is not None,
    )
    arms = [plan]
    if compare is not None:
        if compare in variants:
            arms = [plan.with_variants([v for v in variants if v != compare]), plan]
        else:
            arms = [plan, plan.with_variants([*variants, compare])]
    if output is not None:
        if output.exists() and any(output.iterdir()):
            raise UsageError("the output folder is not empty; choose another", where=str(output))
        output.mkdir(parents=True, exist_ok=True)
    summaries = []
    stderr = sys.stderr
    quiet = contextlib.nullcontext(stderr) if stderr.isatty() else open(os.devnull, "w")
    with quiet as bar_file:
        for k, arm in enumerate(arms):
            label = f"{game} " + (", ".join(arm.variants) or "official rules")
            with click.progressbar(length=games, label=label, file=bar_file) as bar:
                played = run(arm, games, workers, scheduler, bar.update, per_batch)
            if output is not None:
                _write_logs(output / f"{k + 1}-{_slug(arm)}" if len(arms) > 1 else output, arm, played)
            summaries.append(Summary().extend(p.row for p in played))
    groups = [next(iter(s.groups.values())) for s in summaries]
    if as_json:
        data = {"summaries": [s.as_json() for s in summaries]}
        if compare is not None:
            data["compare"] = _comparison(*groups)
        click.echo(json.dumps(data, ensure_ascii=False))
    else:
        click.echo("\n\n".join(s.table() for s in summaries))
        if compare is not None:
            click.echo("\n" + _comparison_table(*groups))
    if plot_path is not None:
        from ..plotting import plot

        title = f"{games} games of {game}, {count} players, bots: {' '.join(plan.bots)}"
        plot(groups, plot_path, title)
        if not as_json:
            click.echo(f"Picture written to {plot_path}.")
    if output is not None and not as_json:
        click.echo(f"Logs written to {output}/.")


def _slug(plan: Plan) -> str:
    return "-".join(v.partition(":")[0] for v in plan.variants) or "official"


def _write_logs(folder: Path, plan: Plan, played: list[Played]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for p in played:
        assert p.lines is not None
        logfile.create(folder / log_name(plan, p.number), p.lines)


def _comparison(base: Group, other: Group) -> list[dict]:
    out = []
    for seat, (a, b) in enumerate(zip(base.seats, other.seats), start=1):
        d, low, high = difference(b.wins, b.games, a.wins, a.games)
        out.append(
            {
                "seat": seat,
                "without": a.wins / a.games if a.games else None,
                "with": b.wins / b.games if b.games else None,
                "difference": d,
                "ci95": [low, high],
            }
        )
    return out


def _comparison_table(base: Group, other: Group) -> str:
    name = ", ".join(v for v in other.variants if v not in base.variants) or "the variant"
    lines = [f"Seat win rates with and without {name} (same seeds; difference with its 95% interval):"]
    rows = [["seat", "without", "with", "difference", "95% CI"]]
    for entry in _comparison(base, other):
        low, high = entry["ci95"]
        rows.append(
            [
                str(entry["seat"]),
                f"{entry['without']:.1%}",
                f"{entry['with']:.1%}",
                f"{entry['difference']:+.1%}",
                f"{low:+.1%} to {high:+.1%}",
            ]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines += [
        "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip() for r in rows
    ]
    significant = [e["seat"] for e in _comparison(base, other) if e["ci95"][0] > 0 or e["ci95"][1] < 0]
    if significant:
        lines.append("The interval excludes 0 (a real change) for seat " + ", ".join(map(str, significant)) + ".")
    else:
        lines.append("Every interval includes 0: no change in seat win rates is shown at this number of games.")
    return "\n".join(lines)
