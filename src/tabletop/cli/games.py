"""``tabletop games``: the installed games."""

from __future__ import annotations

import click


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the games as one JSON array.")
@click.pass_obj
def games(env, as_json: bool) -> None:
    """List the installed games.

    \b
    Example:
      tabletop games
      tabletop games --json
    """
    found = sorted(installed_games(env.plugins).items())
    if as_json:
        from .shapes import emit

        emit(
            [
                {
                    "name": name,
                    "title": about.title,
                    "players": list(about.players),
                    "description": about.description,
                    "options": about.options,
                }
                for name, about in found
            ]
        )
        return
    for name, about in found:
        players = f"{about.players[0]}-{about.players[1]} players"
        click.echo(f"{name:<14} {players:<12} {about.description}")


def installed_games(paths) -> dict:
    """Every game, by name, as its ``about`` says or else as its class does:
    a game's plugin is imported only when no ``about`` tells of it."""
    from ..host import installed, plugins, registering

    found = installed.abouts()
    pm = plugins.get_plugin_manager(paths, listing=True)
    for cls, _ in registering.offered(pm, "register_games", "game classes", registering.game):
        found[cls.name] = installed.About(
            cls.name,
            cls.title or cls.name,
            cls.description,
            (cls.min_players, cls.max_players),
            dict(cls.options),
            (),
        )
    return found
