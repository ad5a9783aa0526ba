"""``tabletop pbem send``: deliver the outbox."""

from __future__ import annotations

import click

from ...referee.gamedir import GameDir
from ..common import pass_env
from .common import deliver, game_folder


@click.command()
@game_folder
@pass_env
def send(env, directory):
    """Deliver the outbox over SMTP; what the server does not accept stays for
    the next send or tick.

    \b
    Example:
      tabletop pbem send duel
    """
    deliver(GameDir(directory), env)
