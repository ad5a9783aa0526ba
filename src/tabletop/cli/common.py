"""What several commands share: their options for variants, game options and
pictures, and how a command that changed a file reports it. What they print
about a game (who acts next, the result, a summary) is in
:mod:`tabletop.play.standing`, shared with the viewer."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Iterable
from pathlib import Path

import click

from ..base.errors import UsageError
from ..log.files import reason
from ..play.standing import check_viewer, next_actor, result, status, summary  # noqa: F401  (used by the commands)


def pass_env(command):
    """``click.pass_obj`` for tabletop's commands (the :class:`Env` first),
    which first refuses, in one line, a text option or argument that is not
    UTF-8 (see :func:`check_text`)."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        ctx = click.get_current_context()
        check_text(ctx)
        return command(ctx.obj, *args, **kwargs)

    return run


def check_text(ctx: click.Context) -> None:
    """Refuse a value of a text option or argument of ``ctx``'s command that
    is not UTF-8: the system hands Python bytes that are not UTF-8 as lone
    surrogates, which no text written, printed or hashed can hold. File
    names (``click.Path``, ``click.File``) may be any bytes and are let be."""
    for param in ctx.command.params:
        if isinstance(param.type, (click.Path, click.File)):
            continue
        if not _utf8(ctx.params.get(param.name or "")):
            if isinstance(param, click.Option):
                name = max(param.opts, key=len)
            else:
                name = param.human_readable_name
            raise UsageError(f"{name} is not UTF-8 text")


def check_study_name(log: Path) -> None:
    """A study records its log's name (as UTF-8 JSON): a log whose name is
    not UTF-8 is refused in one line before anything is written."""
    if not _utf8(log.name):
        raise UsageError("a study records its log's name, and this name is not UTF-8: rename the log", where=str(log))


def _utf8(value: object) -> bool:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, (tuple, list)):
        return all(map(_utf8, value))
    return True


#: ``--variant``, as every command that starts games takes it.
variant_option = click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="NAME[:KEY=VALUE,...]",
    help="A variant to enable, with its parameters if it has any (repeatable).",
)
#: ``--option``, a game option.
game_option = click.option("--option", "options", multiple=True, help="A game option KEY=VALUE (repeatable).")
#: ``--workers`` and ``--scheduler``: where the games of a long run are played.
workers_option = click.option(
    "--workers", type=click.IntRange(min=1), help="Processes on this machine (default: one per core)."
)
scheduler_option = click.option(
    "--scheduler", help="Run on a Dask cluster instead: the scheduler's address, tcp://HOST:8786."
)
#: ``--plot``, a picture of a summary.
plot_option = click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Draw win rates and scores (.svg, .png).",
)


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--option '{pair}' must be KEY=VALUE")
        options[key] = value
    return options


def report(lines: Iterable[str], done: str) -> None:
    """Print the report of a command that has changed a file. If the output
    fails (a full disk, a closed terminal), say on stderr that ``done`` was
    done, and do not fail: the change is made."""
    try:
        for line in lines:
            click.echo(line)
        sys.stdout.flush()
    except OSError as exc:
        with contextlib.suppress(OSError):
            click.echo(f"tabletop: {done}; the report could not be printed: {reason(exc)}", err=True)
        # Said once: whatever the command prints after this goes nowhere.
        _quiet_stdout()


def _quiet_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def seats_option(command):
    """``--seats N``, how many players a run of bots has; ``--players N``, its
    old spelling, still works with a notice (``--players`` names players)."""
    command = click.option(
        "--players", "old_players", hidden=True, help="The old spelling of --seats (--players names players)."
    )(command)
    return click.option(
        "--seats", "how_many", type=click.IntRange(min=1), help="How many players (seats p1, p2, ...)."
    )(command)


def seat_count(how_many: int | None, old_players: str | None) -> int:
    """The number of seats from ``--seats`` or the old ``--players N``."""
    if old_players is None:
        if how_many is None:
            raise UsageError("missing option '--seats' (how many players)")
        return how_many
    if how_many is not None:
        raise UsageError("--players N is the old spelling of --seats N: give --seats alone")
    count = old_players.strip()
    if not (count.isdigit() and len(count) <= 9):
        raise UsageError(
            f"--players '{old_players}': the number of players is given with --seats N here "
            "(--players names the players of tabletop new)"
        )
    click.echo(f"tabletop: --players {count} is now written --seats {count} (--players names players)", err=True)
    return int(count)
