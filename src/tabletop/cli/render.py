"""``tabletop render``: a picture of the board."""

from __future__ import annotations

from pathlib import Path

import click

from ..base.errors import UsageError, shown
from ..log import files
from ..sight import seen
from .common import check_viewer, pass_env, report
from .history import open_replay, run_until
from .terminal import color_option, use_color


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--as", "viewer", help="Show only what this player may know.")
@click.option("--until", type=click.IntRange(min=0), help="The board after event SEQ.")
@click.option("--format", "fmt", help="svg, png or text (default: from the output's suffix, else text).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write here (default: stdout).")
@color_option
@pass_env
def render(env, file: Path, viewer, until, fmt, output, color) -> None:
    """Draw the board of a log, as an SVG or PNG picture or as text.

    \b
    Example:
      tabletop render game.jsonl --as ann -o board.svg
      tabletop render game.jsonl -o board.png
      tabletop render game.jsonl --until 40
    """
    files.check_output(output, file)
    if fmt is None:
        fmt = output.suffix.lstrip(".").lower() if output is not None and output.suffix else "text"
    if fmt == "txt":
        fmt = "text"
    match, events = run_until(open_replay(env.registry_for_log(file), file), until)
    check_viewer(match, viewer, where=str(file))
    drawn = sorted(f for g, f in env.registry.renderers if g == match.header.game)
    formats = ["text", *drawn, *(["png"] if "svg" in drawn else [])]
    if fmt not in formats:
        raise UsageError(f"no {fmt} picture for {match.header.game} (formats: {', '.join(formats)})")
    picture: str | bytes
    color = use_color(color, output)
    if fmt == "text":
        picture = seen.text(match.game, match.state, viewer, color) + "\n"
    elif fmt == "png":
        from ..sight.pictures import png

        renderer = env.registry.renderer(match.header.game, "svg")
        picture = png(seen.picture(renderer, match.game, match.state, viewer, events))
    else:
        picture = seen.picture(env.registry.renderer(match.header.game, fmt), match.game, match.state, viewer, events)
    if output is None:
        if isinstance(picture, bytes):
            raise UsageError("a PNG picture goes to a file: add -o board.png")
        click.echo(picture, nl=False, color=color)
        return
    # Written beside the old picture and renamed over it: a failure leaves the
    # old one whole.
    files.replace(output, picture if isinstance(picture, bytes) else picture.encode("utf-8"))
    report(
        [f"{shown(output)}: {fmt} picture of {shown(file)} after {match.seq} events."], f"{shown(output)} was written"
    )
