"""``tabletop pbem observe``: game master, a new onlooker."""

from __future__ import annotations

import click

from ..common import pass_env
from .common import game_folder, master


@click.command()
@game_folder
@click.argument("address")
@pass_env
def observe(env, directory, address):
    """Game master: mail the game to ADDRESS from now on, as any onlooker
    may see it (no player's hidden chips, draws or secret choices), and the
    whole log at the end.

    \b
    Example:
      tabletop pbem observe duel carol@example.org
    """
    master(env, directory, "observe", address=address)
