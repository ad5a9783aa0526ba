"""Colour on the terminal: ``--color/--no-color``, else only on a terminal
that shows it (not ``TERM=dumb``) and never with ``NO_COLOR`` set (no-color.org)."""

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


def use_color(color: bool | None, output: Path | None = None) -> bool:
    """Whether to colour: as asked, else only when writing to a colour terminal."""
    if color is not None:
        return color
    if output is not None or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return sys.stdout.isatty()
