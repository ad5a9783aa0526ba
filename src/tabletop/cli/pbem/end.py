"""``tabletop pbem end``: game master, end a game."""

from __future__ import annotations

import click

from ..common import pass_env
from .common import game_folder, master


@click.command()
@game_folder
@pass_env
def end(env, directory):
    """Game master: end the game; no more decisions are played.

    \b
    Example:
      tabletop pbem end duel
    """
    master(env, directory, "end")
