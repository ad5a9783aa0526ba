"""``tabletop pbem status``: where a game by mail stands."""

from __future__ import annotations

import json

import click

from ...referee import referee
from ..common import pass_env
from .common import game_folder, registry


@click.command()
@game_folder
@click.option("--json", "as_json", is_flag=True, help="Print it as one JSON object (for scripts and web pages).")
@pass_env
def status(env, directory, as_json):
    """Whose move it is, deadlines, the outbox, the chain head.

    \b
    Example:
      tabletop pbem status duel
      tabletop pbem status duel --json
    """
    ref = referee.Referee.open(registry(env, directory), directory)
    if as_json:
        click.echo(json.dumps(ref.status_data(), ensure_ascii=False, indent=2))
        return
    for line in ref.status():
        click.echo(line)
