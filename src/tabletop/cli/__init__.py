"""The ``tabletop`` command: a click group whose commands live in this package."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import TabletopError
from ..plugins import get_plugin_manager
from ..registry import Registry


class Env:
    """What every command shares: the plugin paths and, once built, the registry."""

    def __init__(self, plugins: tuple[Path, ...]) -> None:
        self.plugins = plugins
        self._registry: Registry | None = None

    @property
    def registry(self) -> Registry:
        if self._registry is None:
            self._registry = Registry(get_plugin_manager(self.plugins))
        return self._registry


class TabletopGroup(click.Group):
    """Turns every :class:`TabletopError` into one line on stderr and its exit code."""

    _plugin_commands_loaded = False

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except TabletopError as exc:
            click.echo(f"tabletop: {exc}", err=True)
            sys.exit(exc.exit_code)
        except BrokenPipeError:  # `tabletop replay ... | head` is fine
            sys.exit(0)

    def _load_plugin_commands(self) -> None:
        # Commands from installed plugins and TABLETOP_PLUGINS; a broken plugin
        # is reported by the command that needs it, not here.
        if self._plugin_commands_loaded:
            return
        self._plugin_commands_loaded = True
        try:
            get_plugin_manager().hook.register_commands(cli=self)
        except TabletopError:
            pass

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None:
            self._load_plugin_commands()
            command = super().get_command(ctx, cmd_name)
        return command

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load_plugin_commands()
        return super().list_commands(ctx)


@click.group(cls=TabletopGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--plugins",
    "plugins",
    multiple=True,
    type=click.Path(path_type=Path),
    help="A plugin .py file or a folder of them (repeatable); also TABLETOP_PLUGINS.",
)
@click.version_option(package_name="tabletop", prog_name="tabletop")
@click.pass_context
def main(ctx: click.Context, plugins: tuple[Path, ...]) -> None:
    """Turn-based board games as event-sourced logs: replay, study, play, referee.

    \b
    Example:
      tabletop replay replays/glux/four-players.jsonl
    """
    ctx.obj = Env(plugins)


def _register() -> None:
    from . import cutting, info, logs, pbem, pictures, selfplaying, study, viewing  # noqa: F401  (each adds its commands)


_register()
