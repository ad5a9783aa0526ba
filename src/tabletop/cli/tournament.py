"""``tabletop tournament``: bots against each other in every seat order, rated."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..base.errors import UsageError
from ..base.progress import Progress
from ..many.simulation import Guard
from ..many.tournament import Entry, continued_from, pairs, ratings, run
from .common import game_option, parse_options, pass_env, scheduler_option, variant_option, workers_option


@click.command()
@click.argument("game")
@click.option("--bot", "bots", multiple=True, required=True, help="An entrant: NAME or NAME:key=value,... (repeat).")
@click.option("--games", type=click.IntRange(min=1), required=True, help="How many games in all.")
@click.option(
    "--seats",
    "count",
    type=click.IntRange(min=1),
    help="Seats per game (default: as many as bots, if the game allows).",
)
@variant_option
@game_option
@click.option("--seed", default="tournament", show_default=True, help="Game i is played with the seed SEED-i.")
@workers_option
@scheduler_option
@click.option(
    "--results",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Keep each finished game in this file; run again with it to continue.",
)
@click.option(
    "--continue-anyway",
    is_flag=True,
    help="Add games to a results file made by other code (another tabletop, an edited house rule).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the ratings and win rates as JSON.")
@click.option(
    "--plot", "plot_path", type=click.Path(dir_okay=False, path_type=Path), help="Draw the ratings (.svg, .png)."
)
@pass_env
def tournament(
    env,
    game,
    bots,
    games,
    count,
    variants,
    options,
    seed,
    workers,
    scheduler,
    results,
    continue_anyway,
    as_json,
    plot_path,
) -> None:
    """Play bots against each other in every seat order and rate them.

    Game i seats the bots in seat order number i (every ordered choice of
    PLAYERS bots, in turn; GAMES a multiple of their number keeps it even)
    and is played with the seed SEED-i alone. Ratings are OpenSkill's
    (Plackett-Luce): mu, its uncertainty sigma, and mu - 3 sigma, by which
    the table is sorted. Bots with a time budget (mcts:seconds=0.2) count
    their thinking in CPU time, so a busy machine does not weaken them; the
    table shows each bot's CPU time per decision.

    \b
    Example:
      tabletop tournament glux --bot random --bot greedy --bot mcts:iterations=100 --bot mcts:seconds=0.2 --games 48
      tabletop tournament glyph-chess --seats 2 --bot greedy --bot mcts --games 100 --results duel.jsonl
    """
    if workers is not None and scheduler is not None:
        raise UsageError("--workers and --scheduler exclude each other (Dask decides how many workers)")
    cls = env.registry_for(game).game_class(game)
    if count is None:
        count = min(len(bots), cls.max_players)
    entry = Entry(
        game=cls.name,
        bots=tuple(bots),
        players=count,
        variants=tuple(variants),
        options=tuple(sorted(parse_options(options).items())),
        seed=seed,
        plugins=tuple(str(p) for p in env.plugins),
    )
    if plot_path is not None:
        # Before any game: a picture that cannot be drawn is refused now, not after hours.
        from ..many.plotting import check_target

        check_target(plot_path)
    where = str(results) if results is not None else ""
    with Guard() as guard, Progress(games, f"{game} tournament", sys.stderr) as bar:
        starting = bar.resuming(where)
        played = run(entry, games, workers, scheduler, results, bar.update, guard, starting, continue_anyway)
    rated = ratings(entry, played)
    duels = pairs(entry, played)
    later = continued_from(results) if results is not None else []
    if as_json:
        data = {**entry.head(), "games": len(played), "continued_from": later, "ratings": rated, "pairs": duels}
        click.echo(json.dumps(data, ensure_ascii=False))
    else:
        click.echo(_table(entry, len(played), rated, duels))
        for first in later:
            click.echo(f"Games {first} on were played by other code than those before them (--continue-anyway).")
    if plot_path is not None:
        from ..many.plotting import plot_ratings

        plot_ratings(rated, f"{len(played)} games of {entry.game}, {entry.players} players", plot_path)
        if not as_json:
            click.echo(f"Picture written to {plot_path}.")


def _table(entry: Entry, games: int, rated: list[dict], duels: list[dict]) -> str:
    orders = len(entry.orders())
    lines = [f"{games} games of {entry.game}, {entry.players} players, {orders} seat orders"]
    if games % orders:
        lines[0] += f" (not a multiple of {orders}: some orders were played once more)"
    rows = [["bot", "rating", "mu", "sigma", "games", "wins", "CPU/decision"]]
    for r in rated:
        rows.append(
            [
                r["bot"],
                f"{r['ordinal']:.1f}",
                f"{r['mu']:.1f}",
                f"{r['sigma']:.2f}",
                str(r["games"]),
                f"{r['wins']:g}",
                f"{r['cpu_per_decision'] * 1000:.1f} ms",
            ]
        )
    lines += _columns(rows)
    lines.append("")
    lines.append("Head to head (how often the first finished ahead; a tie counts half; 95% interval):")
    rows = [["bot", "against", "games", "rate", "95% CI"]]
    for d in duels:
        rate = "-" if d["rate"] is None else f"{d['rate']:.1%}"
        low, high = d["ci95"]
        rows.append([d["bot"], d["against"], str(d["games"]), rate, f"{low:.1%} to {high:.1%}"])
    lines += _columns(rows, names=2)
    return "\n".join(lines)


def _columns(rows: list[list[str]], names: int = 1) -> list[str]:
    # The first ``names`` columns are names (to the left), the others numbers (to the right).
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(c.ljust(w) if i < names else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
        for r in rows
    ]
