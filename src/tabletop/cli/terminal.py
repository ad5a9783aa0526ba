"""The terminal: colour (``--color/--no-color``, else only on a terminal that
shows it, not ``TERM=dumb``, and never with ``NO_COLOR`` set: no-color.org),
and clearing it for the next player."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

color_option = click.option(
    "--color/--no-color",
    "color",
    default=None,
    help="Colour the board (default: on a terminal, unless NO_COLOR is set or TERM=dumb).",
)

#: Cursor home, erase the screen, erase the scrollback (xterm's ED 3, which
#: tmux and most terminals understand too). Erasing the screen alone leaves
#: what scrolled off it in the history, where the next player scrolls up to it.
WIPE = "\x1b[H\x1b[2J\x1b[3J"


def wipe() -> None:
    """Clear the screen and the scrollback: nothing shown so far can be scrolled back to."""
    click.echo(WIPE, nl=False, color=True)  # color=True: the codes are written even where click strips them
    sys.stdout.flush()


def use_color(color: bool | None, output: Path | None = None) -> bool:
    """Whether to colour: as asked, else only when writing to a colour terminal."""
    if color is not None:
        return color
    if output is not None or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return sys.stdout.isatty()
