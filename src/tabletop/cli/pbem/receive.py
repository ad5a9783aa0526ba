"""``tabletop pbem receive``: one mail, from a pipe."""

from __future__ import annotations

import click

from ...base.errors import UsageError, shown
from ...referee import mailin, referee
from ..common import pass_env
from .common import game_folder, registry


@click.command()
@game_folder
@click.argument("file", type=click.File("rb"), default="-")
@pass_env
def receive(env, directory, file):
    """Handle one raw message, from FILE or standard input (for procmail or a
    .forward pipe). Every message is archived first; a bad one is answered.

    \b
    Example:
      tabletop pbem receive duel < message.eml
    """
    raw, size = mailin.bounded(file)
    if not raw.strip():
        # Nothing to archive nor to answer: no mail came (an empty pipe, a file of nothing).
        where = "standard input" if file.name in ("-", "<stdin>") else shown(file.name)
        raise UsageError(f"{where}: empty: no mail to receive; nothing was done")
    click.echo(referee.Referee.open(registry(env, directory), directory).receive(raw, size=size))
