"""``tabletop pbem resume``: game master, restart a paused game."""

from __future__ import annotations

import click

from ..common import pass_env
from .common import game_folder, master


@click.command()
@game_folder
@pass_env
def resume(env, directory):
    """Game master: restart a paused game; deadlines move on by the pause.

    \b
    Example:
      tabletop pbem resume duel
    """
    master(env, directory, "resume")
