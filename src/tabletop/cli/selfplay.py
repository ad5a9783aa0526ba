"""``tabletop selfplay``: complete games between bots."""

from __future__ import annotations

import contextlib
import os
import sys
from collections import Counter
from pathlib import Path

import click

from ..api import bot_named
from ..base.errors import UsageError, shown
from ..log import logfile
from ..log.files import reason
from ..log.header import check_seed
from ..many.stats import bot_seat_name
from ..play import live
from .common import game_option, parse_options, pass_env, report, result, seat_count, seats_option, variant_option
from .shapes import emit


@click.command()
@click.argument("game")
@seats_option
@click.option(
    "--bot",
    "bots",
    multiple=True,
    help="A bot for all seats, or one per seat in seat order (NAME or NAME:key=value,...; default random).",
)
@click.option("--games", "games", type=click.IntRange(min=1), default=1, show_default=True, help="How many games.")
@click.option("--seed", default="selfplay", show_default=True, help="Game i uses the seed SEED-i.")
@variant_option
@game_option
@click.option(
    "-o", "--output", type=click.Path(file_okay=False, path_type=Path), help="Write each game's log into this folder."
)
@click.option("--json", "as_json", is_flag=True, help="Print the totals as one JSON object.")
@pass_env
def selfplay(env, game, how_many, old_players, bots, games, seed, variants, options, output, as_json) -> None:
    """Play complete games between bots, optionally keeping their logs.

    \b
    Example:
      tabletop selfplay glux --seats 4 --games 100 -o games/
      tabletop selfplay glux --seats 2 --bot greedy --bot random
      tabletop selfplay glyph-chess --seats 2 --bot mcts:iterations=100 --bot greedy
      tabletop selfplay glux --seats 3 --games 10 --json
    """
    count = seat_count(how_many, old_players)
    registry = env.registry_for(game)
    cls = registry.game_class(game)
    # Checked before the names are made: --seats may be any number.
    if not cls.min_players <= count <= cls.max_players:
        raise UsageError(f"--seats: {cls.name} is for {cls.min_players} to {cls.max_players} players, not {count}")
    check_seed(f"{seed}-{games}")
    names = list(bots) or ["random"]
    if len(names) not in (1, count):
        raise UsageError(f"--bot: give one bot for all seats or one per seat ({count})")
    specs = names * count if len(names) == 1 else names
    seats = [bot_named(registry, spec, game) for spec in specs]
    # Named by seat and bot (p1-greedy), as simulate names them: the logs record who played.
    players = [bot_seat_name(i, spec.partition(":")[0]) for i, spec in enumerate(specs, start=1)]
    opts = parse_options(options)
    written: list[Path] = []
    made = _folder(output) if output is not None else []
    try:
        events, wins = _play(registry, game, players, seats, seed, variants, opts, games, output, written, as_json)
    except BaseException:
        # All or nothing: the games written so far, and folders made, go.
        for path in written:
            with contextlib.suppress(OSError):
                path.unlink()
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise
    if as_json:
        emit(
            {
                "game": game,
                "games": games,
                "events": events,
                "seeds": f"{seed}-1" if games == 1 else f"{seed}-1..{seed}-{games}",
                "bots": {p: b.name for p, b in zip(players, seats)},
                "wins": {p: wins[p] for p in players},
                "logs": str(output) if output is not None else None,
            }
        )
    elif output is not None:
        report([f"Logs written to {shown(output)}/."], f"{games} logs were written to {shown(output)}/")


def _folder(output: Path) -> list[Path]:
    """Make the output folder (and its parents); the folders made, deepest last."""
    missing = []
    here = output
    while not here.exists() and here != here.parent:
        missing.append(here)
        here = here.parent
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        for path in missing:
            with contextlib.suppress(OSError):
                path.rmdir()
        raise UsageError(f"cannot make the folder: {reason(exc)}", where=str(output)) from None
    if not output.is_dir():
        raise UsageError("not a folder", where=str(output))
    return list(reversed(missing))


def _play(
    registry, game, players, seats, seed, variants, opts, games, output, written, quiet_totals=False
) -> tuple[int, Counter[str]]:
    """Play the games (writing their logs into ``output``): the events played and each seat's wins."""
    if output is not None:
        # Checked first: a name already taken stops the run before any game.
        for i in range(1, games + 1):
            path = output / f"{game}-{i:05d}.jsonl"
            if os.path.lexists(path):
                raise UsageError("file exists; choose another folder", where=str(path))
    wins: Counter[str] = Counter()
    events = 0
    # The bar goes to stderr, and only to a terminal; one game needs none.
    stderr = sys.stderr
    quiet = contextlib.nullcontext(stderr) if games > 1 and stderr.isatty() else open(os.devnull, "w")
    batch = live.SelfPlay(registry, game, players, seats, variants, opts)
    with quiet as bar_file, click.progressbar(range(1, games + 1), label=f"{game} self-play", file=bar_file) as bar:
        for i in bar:
            header, match, played = batch.play(f"{seed}-{i}")
            events += len(played)
            outcome = match.game.outcome(match.state)
            for w in outcome.winners:
                wins[w] += 1
            if output is not None:
                path = output / f"{game}-{i:05d}.jsonl"
                logfile.create(path, registry.codec.log(header, played))
                written.append(path)
            if games == 1 and not quiet_totals:
                report(
                    [f"{len(played)} events. {result(match)}"],
                    "the game was played" + (f" and its log written to {shown(output)}/" if output else ""),
                )
    if games > 1 and not quiet_totals:
        table = ", ".join(f"{p} ({b.name}) {wins[p]}" for p, b in zip(players, seats))
        done = "the games were played" + (f" and their logs written to {shown(output)}/" if output else "")
        report([f"{games} games, {events} events. Wins (shared wins count for each): {table}."], done)
    return events, wins
