"""``tabletop pbem``: run a game by email. Its subcommands are found, not
listed (``tabletop pbem --help`` imports none of them, nor the referee):

- each module of this package that declares one (see
  :mod:`tabletop.cli.declared`) is a subcommand, imported only when it runs;
  what several share is in :mod:`.common`;
- each game master's command (:class:`tabletop.referee.commands.MasterCommand`)
  is a subcommand of its name, made from its class when it runs, so that
  the mail's command and the command line's are one, help and all.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
from pathlib import Path
from typing import Any

import click

from ...base.errors import UsageError
from .. import TableGroup


def __getattr__(name: str) -> Any:
    """``COMMANDS``: each subcommand a module of this package declares, and
    the first paragraph of its help; ``MODULES``: the module of one not
    named after it (``set``, a Python builtin, is in ``set_``). Found when
    asked for (by tests), not when a subcommand starts."""
    if name in ("COMMANDS", "MODULES"):
        from ..declared import find

        found = find(Path(__file__).parent)
        if name == "COMMANDS":
            return {command: declared.summary for command, declared in found.items()}
        return {command: declared.module for command, declared in found.items() if declared.module != command}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def summary(does: str) -> str:
    """The first paragraph of a game master's command's help on the command
    line, from what it ``does`` (as its mail help says it)."""
    return f"Game master: {' '.join(does.split())}."


def master_help(name: str, does: str, example: str) -> str:
    """The help of the game master's command ``name`` on the command line."""
    return f"{summary(does)}\n\n\b\nExample:\n  {' '.join(['tabletop pbem', name, 'duel', example]).rstrip()}"


@functools.cache
def masters() -> dict[str, str]:
    """The game master's commands that are subcommands too, each with the
    first paragraph of its help: read from the source of the referee's
    command modules, not run, so that listing them imports nothing of the
    referee (the mail's parser and the game engine would come with it)."""
    spec = importlib.util.find_spec("...referee", __package__)  # found; the package is not run
    if spec is None or not spec.submodule_search_locations:
        return {}
    found: dict[str, str] = {}
    for path in sorted((Path(spec.submodule_search_locations[0]) / "commands").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        if "(MasterCommand)" not in source:
            continue  # players' commands only
        for node in ast.parse(source).body:
            if isinstance(node, ast.ClassDef) and [ast.unparse(base) for base in node.bases] == ["MasterCommand"]:
                said = _plain_values(node)
                if isinstance(said.get("name"), str) and not said.get("by_mail_only"):
                    found[said["name"]] = summary(str(said.get("does", "")))
    return found


def _plain_values(node: ast.ClassDef) -> dict[str, Any]:
    """The names a class body gives a plain value (a string, True), and those values."""
    return {
        statement.targets[0].id: statement.value.value
        for statement in node.body
        if isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and isinstance(statement.value, ast.Constant)
    }


class _Group(TableGroup):
    """The subcommands, each imported (or, the game master's, made) when it
    runs; a folder a subcommand cannot write is one line, not a traceback."""

    package = __name__
    who = "pbem"

    def commands_table_found(self) -> dict[str, str]:
        return {**super().commands_table_found(), **masters()}

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in masters():
            command = self._made(cmd_name)
            self.add_command(command, cmd_name)
        return command

    def _made(self, name: str) -> click.Command:
        """``tabletop pbem NAME``: the game master's command ``name``, its
        arguments, options and help as its class says; it says what it did."""
        try:
            from ...referee import commands
            from ..common import pass_env
            from .common import game_folder, master
        except ImportError as exc:  # as for the other subcommands: the folder locks need POSIX calls
            raise UsageError(f"'{self.who}' does not work on this system: {exc}") from None
        command = commands.master_command(name)
        if command is None:  # the source names it, the module does not: as if unknown
            raise UsageError(f"unknown game master command '{name}'")

        def run(env, directory: Path, **values: Any) -> None:
            master(env, directory, name, **command.given(**values))

        # As decorators would stack them, the last first: the folder, the arguments, the options.
        made = pass_env(run)
        for option, keyword, text in reversed(command.repeats):
            made = click.option(option, keyword, multiple=True, help=text)(made)
        for argument in reversed(command.takes):
            made = click.argument(argument)(made)
        return click.command(name, help=master_help(name, command.does, command.example))(game_folder(made))

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            raise  # `pbem status g | head -1`: the reader had enough, nothing failed
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            raise UsageError(f"{where}{exc.strerror or exc}; is the game folder writable?") from None


@click.group(cls=_Group)
def pbem() -> None:
    """Run a game by email: the referee reads moves from mail, checks them,
    keeps the log and mails every player their own view.

    \b
    Example:
      tabletop pbem init duel --game glux --player ann=ann@example.org --player ben=ben@example.org
      tabletop pbem poll duel --maildir ~/Maildir/.duel && tabletop pbem send duel
    """
