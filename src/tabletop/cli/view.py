"""``tabletop view``: a step-through viewer of a log, as one HTML page."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import shown
from .common import pass_env


def default_output(file: Path, viewer: str | None) -> Path:
    """``game.jsonl`` gives ``game.html``, or ``game-ann.html`` for ann's view."""
    stem = file.name.removesuffix(".jsonl") if file.name.endswith(".jsonl") else file.stem
    return file.with_name(f"{stem}-{viewer}.html" if viewer else f"{stem}.html")


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--as", "viewer", help="Only what this player may know (the page holds nothing else).")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The page to write (default: FILE with .html, or -PLAYER.html with --as).",
)
@pass_env
def view(env, file: Path, viewer: str | None, output: Path | None) -> None:
    """Write a step-through viewer of a log: one HTML page that opens from
    disk or as a mail attachment, with no network and no server.

    It shows the board after every event and the events in notation; step
    with the buttons, the arrow keys, the slider, or a click on an event.
    With --as the page holds only what that player may see.

    \b
    Example:
      tabletop view game.jsonl -o game.html
      tabletop view game.jsonl --as ann -o game-ann.html
    """
    from ..viewer import write_html  # here: the viewer uses the command line's helpers

    output = output or default_output(file, viewer)
    write_html(env.registry, file, output, viewer)
    click.echo(f"{shown(output)}: a viewer of {shown(file)}" + (f" as {viewer} sees it." if viewer else "."))
