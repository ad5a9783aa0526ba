"""``tabletop bots``: the installed bots and their settings."""

from __future__ import annotations

from typing import Any

import click

from ..host.extensions import Bot
from .common import pass_env
from .shapes import emit

#: A setting's type, in words.
KINDS = {int: "whole number", float: "number", str: "text", bool: "yes or no"}


@click.command()
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the bots as one JSON array.")
@pass_env
def bots(env, game: str | None, as_json: bool) -> None:
    """List the installed bots (those that play GAME, or every one), each
    with the games it plays and its settings, their types and defaults.

    A bot with settings is named with them wherever a bot is asked for:
    NAME:key=value,... (mcts:iterations=400,exploration=1).

    \b
    Example:
      tabletop bots
      tabletop bots glux --json
      tabletop selfplay glux --seats 2 --bot mcts:iterations=50 --games 2
    """
    registry = env.registry_for(game)
    games = [registry.game_class(game).name] if game else sorted(registry.games)
    found = [
        (bot, [g for g in games if bot.game in (None, g)])
        for name in sorted(registry.bots)
        for bot in registry.bots[name]
        if bot.game is None or bot.game in games
    ]
    if as_json:
        emit(
            [
                {
                    "name": bot.name,
                    "description": bot.description,
                    "game": bot.game,
                    "games": plays,
                    "reads_state": bot.reads_state,
                    "settings": [
                        {"name": key, "type": kind.__name__, "default": default} for key, kind, default in settings(bot)
                    ],
                }
                for bot, plays in found
            ]
        )
        return
    for bot, _plays in found:
        where = "any game" if bot.game is None else bot.game
        click.echo(f"{bot.name:<12} {where:<12} {bot.description}")
        for key, kind, default in settings(bot):
            shown = "unset by default: the bot decides" if default is None else f"default {default}"
            click.echo(f"{'':<12} {'':<12}   {key}: {KINDS.get(kind, kind.__name__)} ({shown})")


def settings(bot: Bot) -> list[tuple[str, type, Any]]:
    """The settings ``NAME:key=value`` may give ``bot``: each one's name, its
    type and its default (None: the bot decides it for the game it plays),
    as the bot's own ``PARAMETERS`` declare them (none for a bot without)."""
    choose = bot.choose
    declared = getattr(choose, "PARAMETERS", None)
    if not isinstance(declared, dict) or getattr(choose, "configured", None) is None:
        return []
    return [(key, kind, getattr(choose, key, None)) for key, kind in declared.items()]
