"""``tabletop pbem seek``: game master, offer a seat to substitutes."""

from __future__ import annotations

import click

from ..common import pass_env
from .common import game_folder, master


@click.command()
@game_folder
@click.argument("seat")
@click.option("--to", "addresses", multiple=True, help="An address to offer the seat to (default: the substitutes).")
@pass_env
def seek(env, directory, seat, addresses):
    """Game master: offer SEAT to substitutes; each address gets a claim
    token of its own, and the first 'claim:' mail takes the seat.

    \b
    Example:
      tabletop pbem seek duel ann --to sub@example.org --to other@example.org
    """
    master(env, directory, "seek", player=seat, addresses=list(addresses))
