"""``tabletop pbem extend``: game master, move a player's deadline."""

from __future__ import annotations

import click

from ...referee.clock import duration
from ..common import pass_env
from .common import game_folder, master


@click.command()
@game_folder
@click.argument("player")
@click.argument("length")
@pass_env
def extend(env, directory, player, length):
    """Game master: move PLAYER's deadline LENGTH later (like 24h).

    \b
    Example:
      tabletop pbem extend duel ann 24h
    """
    master(env, directory, "extend", player=player, seconds=duration(length, "LENGTH"))
