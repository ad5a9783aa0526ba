"""The ``tabletop`` command: a click group whose commands live in this
package, one module per command named after it, imported only when that
command runs (``tabletop --help`` imports none of them). A module is a
command when it declares one (see :mod:`.declared`): a new command is a new
module, and no list names them.

May import: base, log, model, host, sight, play, api, testing, many, review, ai, viewer, referee, turnpage.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from ..base.errors import PluginError, TabletopError, UsageError
from ..base.naming import a_value, code_of
from ..log.files import reason

if TYPE_CHECKING:
    from ..host.registry import Registry


def __getattr__(name: str) -> Any:
    # Found when asked for (by tests, by the guide's), not when the CLI starts.
    if name == "COMMANDS":
        return main.commands_table_found()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Env:
    """What every command shares: the plugin paths and, once built, the registry."""

    def __init__(self, plugins: tuple[Path, ...]) -> None:
        self.plugins = plugins
        self._registry: Registry | None = None
        self._game: str | None = None

    @property
    def registry(self) -> Registry:
        # Built by the first command that needs a game: the plugins are loaded then, not before.
        if self._registry is None:
            from ..host.plugins import get_plugin_manager
            from ..host.registry import Registry

            self._registry = Registry(get_plugin_manager(self.plugins, game=self._game))
        return self._registry

    def registry_for(self, game: str | None) -> Registry:
        """The registry for a command on one game only: the installed plugins
        that serve only other games are not loaded (see :mod:`tabletop.host.installed`)."""
        if self._registry is None:
            self._game = game
        return self.registry

    def registry_for_log(self, path: Path) -> Registry:
        """The registry for a command on the log at ``path``: its header's game only."""
        from ..log.logfile import peek_game

        return self.registry_for(peek_game(path))


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


class TableGroup(click.Group):
    """A group whose commands are those the modules of ``package`` declare
    (see :mod:`tabletop.cli.declared`), each imported when it runs, so that
    ``--help`` imports none of them."""

    package = ""
    #: Who is named when a command's module cannot be imported here.
    who = ""

    def _folder(self) -> Path:
        return Path(importlib.import_module(self.package).__file__ or "").parent

    def commands_table_found(self) -> dict[str, str]:
        """Each built-in command and the first paragraph of its help, read without importing any."""
        from .declared import find

        return {name: command.summary for name, command in find(self._folder()).items()}

    def _module_of(self, cmd_name: str) -> str | None:
        from .declared import look_up

        # Only the module that may hold it is read: a command starts without reading the others.
        command = look_up(self._folder(), cmd_name)
        return command.module if command is not None else None

    def _built_in(self, cmd_name: str) -> click.Command | None:
        name = self._module_of(cmd_name)
        if name is None:
            return None
        try:
            module = importlib.import_module(f"{self.package}.{name}")
        except ImportError as exc:  # the referee's folder locks need POSIX calls, say
            raise UsageError(f"'{self.who or cmd_name}' does not work on this system: {exc}") from None
        command = getattr(module, name)
        self.add_command(command, cmd_name)
        return command

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, cmd_name) or self._built_in(cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands_table_found()) | set(self.commands))

    def _table_rows(self, ctx: click.Context, formatter: click.HelpFormatter) -> list[tuple[str, str]]:
        # The lines come from the table, so listing them imports no command.
        limit = formatter.width - 6 - max(map(len, self.list_commands(ctx)))
        table = self.commands_table_found()
        rows = [(name, click.Command(name, help=table[name]).get_short_help_str(limit)) for name in sorted(table)]
        rows += [
            (name, command.get_short_help_str(limit))
            for name, command in sorted(self.commands.items())
            if name not in table and not command.hidden
        ]
        return rows

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl(self._table_rows(ctx, formatter))


class TabletopGroup(TableGroup):
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
        except Exception as exc:  # a house rule's own code (a step, a spell) that failed: one line naming it
            from ..host.plugins import at_fault

            known = ctx.obj._registry if isinstance(ctx.obj, Env) else None
            fault = at_fault(exc, known.variants.values() if known is not None else ())
            if fault is None:
                raise
            fail(fault, fault.exit_code)
        return None

    def _load_plugin_commands(self, paths: tuple[Path, ...] = ()) -> None:
        # Commands from installed plugins, TABLETOP_PLUGINS and the files given
        # with --plugins (read before the command's name is looked up), loaded
        # only for a name that is not built in; a broken plugin is reported by
        # the command that needs it, not here.
        if self._plugin_commands_loaded:
            return
        self._plugin_commands_loaded = True
        from ..host.plugins import get_plugin_manager

        try:
            pm = get_plugin_manager(paths)
        except TabletopError:
            return
        self._misplaced = {}
        # Each plugin in turn (in pluggy's order), so that anything but a
        # command put in the group is named with the plugin that put it there.
        for impl in reversed(pm.hook.register_commands.get_hookimpls()):
            impl.function(**({"cli": self} if "cli" in impl.argnames else {}))
            for name, command in list(self.commands.items()):
                if not isinstance(command, click.Command):
                    del self.commands[name]
                    self._misplaced[name] = (command, impl.function)

    package = __name__

    #: What plugins added to the group that is not a command, by name, with the hook that added it.
    _misplaced: dict[str, tuple[object, object]] = {}

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None:
            self._load_plugin_commands(tuple(ctx.params.get("plugins") or ()))
            command = click.Group.get_command(self, ctx, cmd_name)
        if command is None and cmd_name in self._misplaced:
            thing, function = self._misplaced[cmd_name]
            raise PluginError(
                f"register_commands added {a_value(thing)} as the command '{cmd_name}', not a click command",
                where=code_of(function),
            )
        return command


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

    Plugins may add commands of their own: 'tabletop NAME --help' finds them.
    """
    ctx.obj = Env(plugins)
