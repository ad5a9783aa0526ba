"""What several ``pbem`` subcommands share: the game folder argument, the
registry of a folder's game, the mail options, sending the outbox and
running a game master's command.

The referee is imported by the functions that use it, not with this
module: ``watch`` takes its signals before the referee loads (the longest
part of its start), so that a SIGTERM then still ends it as usual."""

from __future__ import annotations

import importlib
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ...base.errors import CheckFailed, UsageError

if TYPE_CHECKING:
    from ...referee.gamedir import GameDir

#: The game folder every subcommand works on.
game_folder = click.argument("directory", type=click.Path(file_okay=False, path_type=Path))


def pair(item: str, option: str, form: str) -> tuple[str, str]:
    """``NAME=VALUE`` as its two sides; ``form`` says how to write it when ``item`` is not."""
    name, sep, value = item.partition("=")
    if not sep:
        raise UsageError(f"{option} '{item}': write {form}")
    return name.strip(), value.strip()


def moment(text: str | None) -> float | None:
    """The time ``--now`` names (UTC unless it says its zone)."""
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"--now '{text}': write a time like 2026-11-30T18:00Z") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.timestamp()


class Later(click.Choice):
    """A choice among the values of ``NAME`` in the referee's module
    ``MODULE``, read when the option is used or shown: sending and fetching
    mail (smtplib, ssl, imaplib) is imported only by the commands that do."""

    def __init__(self, module: str, name: str) -> None:
        self._where = (module, name)
        super().__init__(())

    @property
    def choices(self):  # type: ignore[override]
        module, name = self._where
        return tuple(getattr(importlib.import_module(f"...referee.{module}", __package__), name))

    @choices.setter
    def choices(self, value) -> None:  # click sets it; the module says it
        pass


def registry(env, directory: Path):
    """The registry for the game in ``directory``: its game's plugins only."""
    from ...referee.gamedir import GameDir

    return env.registry_for_log(GameDir(directory).log)


def imap_options(command):
    """--imap, --imap-password-file and --ca-file."""
    command = click.option(
        "--ca-file",
        type=click.Path(dir_okay=False, path_type=Path),
        help="CA certificates (PEM) to trust for the IMAP server (default: the game's, else the system's).",
    )(command)
    command = click.option(
        "--imap-password-file",
        type=click.Path(dir_okay=False, path_type=Path),
        help="A file whose first line is the IMAP password (default: TABLETOP_IMAP_PASSWORD).",
    )(command)
    return click.option(
        "--imap",
        "imap_url",
        help="The mailbox to read: imaps://USER@HOST[:PORT]/MAILBOX (imap:// only on this machine).",
    )(command)


def imap_connection(ref, imap_url: str, password_file: Path | None, ca_file: Path | None, deadline=None):
    """A connection to the mailbox ``imap_url`` (the game's CA file unless told another)."""
    from ...referee import imap

    box = imap.mailbox(imap_url)
    secret = imap.password(password_file)
    ca = str(ca_file) if ca_file else ref.settings.ca_file
    return imap.Connection(box, secret, ca, deadline)


def _security(settings) -> dict:
    return {"security": settings.smtp_security or "auto", "ca_file": settings.ca_file}


def deliver(directory: GameDir, env) -> None:
    """Send the outbox of ``directory`` over SMTP, say what was sent, refused
    or kept, and report mail refused for good to the game master."""
    from ...referee import delivery, referee

    settings = directory.load()
    outcome = delivery.send(directory, settings.smtp, **_security(settings))
    for name, rcpts, reason in outcome.refused:
        click.echo(f"{name}: refused for good ({rcpts}: {reason}); moved to undeliverable/")
    for name, reason in outcome.deferred:
        click.echo(f"{name}: refused for now ({reason}); tried again later")
    if outcome.refused and settings.master:
        referee.Referee.open(registry(env, directory.path), directory.path).report_refused(outcome.refused)
        more = delivery.send(directory, settings.smtp, **_security(settings))
        outcome.sent += more.sent
        outcome.waiting = more.waiting
    click.echo(f"{outcome.sent} mail(s) sent, {outcome.waiting} waiting.")
    if outcome.problem:
        raise CheckFailed(
            f"{outcome.waiting} mail(s) kept in the outbox: {outcome.problem}; the next send or tick tries again",
            where=str(directory.path),
        )


def master(env, directory: Path, command: str, **kwargs) -> None:
    """Run the game master's ``command`` on the game in ``directory`` and say what it did."""
    from ...referee import referee

    ref = referee.Referee.open(registry(env, directory), directory)
    click.echo(ref.locked_master(command, **kwargs))
