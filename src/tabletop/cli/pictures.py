"""``tabletop render``: a picture of the board."""

from __future__ import annotations

from pathlib import Path

import click

from .. import files
from ..engine import Replay
from ..errors import shown
from . import main
from .common import check_viewer, pass_env


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--as", "viewer", help="Show only what this player may know.")
@click.option("--until", type=click.IntRange(min=0), help="The board after event SEQ.")
@click.option("--format", "fmt", help="svg or text (default: from the output's suffix, else text).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write here (default: stdout).")
@pass_env
def render(env, file: Path, viewer, until, fmt, output) -> None:
    """Draw the board of a log, as an SVG picture or as text.

    \\b
    Example:
      tabletop render game.jsonl --as ann -o board.svg
      tabletop render game.jsonl --until 40
    """
    if fmt is None:
        fmt = output.suffix.lstrip(".").lower() if output is not None and output.suffix else "text"
    if fmt == "txt":
        fmt = "text"
    match = Replay(env.registry, file).run(until)
    check_viewer(match, viewer)
    if fmt == "text":
        picture = match.game.render(match.state, viewer) + "\n"
    else:
        picture = env.registry.renderer(match.header.game, fmt).render(match.game, match.state, viewer)
    if output is None:
        click.echo(picture, nl=False)
        return
    # Written beside the old picture and renamed over it: a failure leaves the
    # old one whole.
    files.replace(output, picture.encode("utf-8"))
    click.echo(f"{shown(output)}: {fmt} picture of {shown(file)} after {match.seq} events.")
