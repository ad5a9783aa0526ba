"""``tabletop variants``: the installed variants and their parameters."""

from __future__ import annotations

import attrs
import click

from .common import pass_env
from .shapes import emit


@click.command()
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the variants as one JSON array.")
@pass_env
def variants(env, game: str | None, as_json: bool) -> None:
    """List the installed variants (of GAME, or of every game), each with its
    parameters, their types and defaults.

    \b
    Example:
      tabletop variants glux
      tabletop --plugins variants/house_rules variants glux
      tabletop --plugins variants/house_rules new glux --players ann,ben \\
          --variant glux-room-points:first=6 -o house.jsonl
    """
    registry = env.registry_for(game)
    names = [registry.game_class(game).name] if game else sorted(registry.games)
    if as_json:
        emit(
            [
                {
                    "name": v.name,
                    "game": name,
                    "description": v.description,
                    "parameters": [
                        {
                            "name": p.name,
                            "type": p.type.__name__,
                            "default": None if p.default is attrs.NOTHING else p.default,
                            "help": p.help,
                        }
                        for p in registry.parameters[v.name]
                    ],
                }
                for name in names
                for v in registry.variants_of(name)
            ]
        )
        return
    for name in names:
        for variant in registry.variants_of(name):
            click.echo(f"{variant.name:<24} {name:<12} {variant.description}")
            for parameter in registry.parameters[variant.name]:
                help = f"  {parameter.help}" if parameter.help else ""
                click.echo(f"{'':<24} {'':<12}   {parameter.describe()}{help}")
