"""``tabletop pbem tick``: reminders and deadlines, for cron."""

from __future__ import annotations

import click

from ...referee import referee
from ..common import pass_env
from .common import deliver, game_folder, moment, registry


@click.command()
@game_folder
@click.option("--now", help="Act as if it were this time (for catching up or testing), like 2026-11-30T18:00Z.")
@pass_env
def tick(env, directory, now):
    """For cron: reminders and deadlines (and the late bot), then send.

    \b
    Example:
      */15 * * * *  tabletop pbem tick /home/ref/games/duel
    """
    ref = referee.Referee.open(registry(env, directory), directory)
    for line in ref.tick(moment(now)):
        click.echo(line)
    deliver(ref.dir, env)
