"""``tabletop games``: the installed games."""

from __future__ import annotations

import click

from .common import pass_env
from .shapes import emit


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the games as one JSON array.")
@pass_env
def games(env, as_json: bool) -> None:
    """List the installed games.

    \b
    Example:
      tabletop games
      tabletop games --json
    """
    if as_json:
        emit(
            [
                {
                    "name": name,
                    "title": cls.title or name,
                    "players": [cls.min_players, cls.max_players],
                    "description": cls.description,
                    "options": dict(cls.options),
                }
                for name, cls in sorted(env.registry.games.items())
            ]
        )
        return
    for name, cls in sorted(env.registry.games.items()):
        players = f"{cls.min_players}-{cls.max_players} players"
        click.echo(f"{name:<14} {players:<12} {cls.description}")
