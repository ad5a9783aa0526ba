"""``tabletop pbem replace``: game master, hand a seat to a new address."""

from __future__ import annotations

import click

from ..common import pass_env
from .common import game_folder, master


@click.command()
@game_folder
@click.argument("player")
@click.argument("address")
@pass_env
def replace(env, directory, player, address):
    """Game master: hand PLAYER to a new ADDRESS, with a new secret mailed there.

    \b
    Example:
      tabletop pbem replace duel ann anne@example.org
    """
    master(env, directory, "replace", player=player, address=address)
