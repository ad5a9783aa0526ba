"""``tabletop pbem reissue``: game master, a new secret for a player."""

from __future__ import annotations

import click

from ..common import pass_env
from .common import game_folder, master


@click.command()
@game_folder
@click.argument("player")
@pass_env
def reissue(env, directory, player):
    """Game master: mail PLAYER a new secret (the old one stops working).

    \b
    Example:
      tabletop pbem reissue duel ann
    """
    master(env, directory, "reissue", player=player)
