"""``tabletop play``: add one decision to a log, or play at this screen (hot-seat)."""

from __future__ import annotations

from pathlib import Path

import click

from ..base.errors import quote, shown
from .adding import add
from .common import pass_env, report, status
from .terminal import color_option, use_color


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.argument("move", required=False)
@click.option("--player", help="Who decides (needed when several players may).")
@click.option(
    "--seed-file",
    "seed_path",
    type=click.Path(path_type=Path),
    help="The secret seed of a sealed game (default FILE.seed).",
)
@color_option
@pass_env
def play(env, file: Path, move: str | None, player: str | None, seed_path: Path | None, color) -> None:
    """Add one decision to a log, then the chance outcomes that follow it.

    The decision and what follows are appended together or not at all. In a
    game at a real table (tabletop new --table) a chance outcome is entered
    the same way, in the game's notation. Without MOVE: play at this screen,
    one decision after another (hot-seat).

    \b
    Example:
      tabletop play game.jsonl 6@b1
      tabletop play game.jsonl "5@start" --player bob
      tabletop play game.jsonl resign --player bob
      tabletop play table.jsonl "draw 2/5" --player ann
      tabletop play game.jsonl
    """
    if move is None:
        from .hotseat import hot_seat  # the game at one screen: not needed to play one move

        hot_seat(env.registry_for_log(file), file, seed_path, use_color(color))
        return
    match, events, who = add(env.registry_for_log(file), file, move, player, seed_path)
    # The decision is in the log now: if the report cannot be printed, say on
    # stderr that it was made, and do not fail.
    lines = [match.describe(event, who) for event in events] + [status(match, who)]
    report(lines, f"{shown(file)}: {quote(move)} was played and logged (event {match.seq - len(events) + 1})")
