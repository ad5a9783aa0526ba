"""``tabletop pbem pause``: game master, stop a game."""

from __future__ import annotations

import click

from ..common import pass_env
from .common import game_folder, master


@click.command()
@game_folder
@pass_env
def pause(env, directory):
    """Game master: stop the game and its deadlines (players are told).

    \b
    Example:
      tabletop pbem pause duel
    """
    master(env, directory, "pause")
