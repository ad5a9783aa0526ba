"""``tabletop games`` and ``tabletop variants``: what is installed."""

from __future__ import annotations

import click

from . import main
from .common import pass_env


@main.command()
@pass_env
def games(env) -> None:
    """List the installed games.

    \b
    Example:
      tabletop games
    """
    for name, cls in sorted(env.registry.games.items()):
        players = f"{cls.min_players}-{cls.max_players} players"
        click.echo(f"{name:<14} {players:<12} {cls.description}")


@main.command()
@click.argument("game", required=False)
@pass_env
def variants(env, game: str | None) -> None:
    """List the installed variants (of GAME, or of every game), each with its
    parameters, their types and defaults.

    \b
    Example:
      tabletop variants glux
      tabletop new glux --players ann,ben --variant glux-room-points:first=6
    """
    registry = env.registry
    names = [registry.game_class(game).name] if game else sorted(registry.games)
    for name in names:
        for variant in registry.variants_of(name):
            click.echo(f"{variant.name:<24} {name:<12} {variant.description}")
            for parameter in registry.parameters[variant.name]:
                help = f"  {parameter.help}" if parameter.help else ""
                click.echo(f"{'':<24} {'':<12}   {parameter.describe()}{help}")
