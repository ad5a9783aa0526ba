"""The ``tabletop`` command: a click group whose commands live in this package."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from ..errors import TabletopError, UsageError
from ..files import reason
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


def fail(error: TabletopError, code: int) -> NoReturn:
    """Print ``error`` as one line on stderr and exit with ``code``."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        _quiet_stdout()
    try:
        click.echo(f"tabletop: {error}", err=True)
    except OSError:
        pass
    sys.exit(code)


def _quiet_stdout() -> None:
    # Output still buffered for a stdout that failed would fail again at exit,
    # as a second message; it is dropped instead.
    try:
        fd = sys.stdout.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class TabletopGroup(click.Group):
    """Turns every :class:`TabletopError` into one line on stderr and its exit code."""

    _plugin_commands_loaded = False

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        """Run the command; click's own usage errors become one line too
        (still naming the option at fault), like every other error."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)
        except click.ClickException as exc:
            where = exc.ctx.command_path if isinstance(exc, click.UsageError) and exc.ctx else None
            hint = f" (see '{where} --help')" if where else ""
            fail(TabletopError(exc.format_message() + hint), exc.exit_code)
        except click.Abort:
            fail(TabletopError("aborted"), 1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context) -> object:
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()
            return result
        except TabletopError as exc:
            fail(exc, exc.exit_code)
        except BrokenPipeError:  # `tabletop replay ... | head` is fine
            _quiet_stdout()
            sys.exit(0)
        except OSError as exc:  # the output itself failed (a full disk, a closed terminal)
            fail(UsageError(f"cannot write the output: {reason(exc)}"), 2)
        return None

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
    from . import (  # noqa: F401  (each adds its commands)
        analysis,
        cutting,
        info,
        logs,
        pictures,
        selfplaying,
        simulating,
        study,
        tournament,
        viewing,
    )

    # The email referee locks its folder with POSIX calls; where they do not
    # exist, every other command still works.
    try:
        from . import pbem  # noqa: F401
    except ImportError:  # pragma: no cover - Windows
        pass


_register()
