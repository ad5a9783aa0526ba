"""``tabletop pbem poll``: the new mail of a Maildir or an IMAP mailbox."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import click

from ...base.errors import CheckFailed, TabletopError, UsageError
from ...referee import mailin, referee
from ...referee.clock import duration
from ...referee.gamedir import one_line
from ...referee.settings import CLOCKS_DIFFER
from ..common import pass_env
from .common import game_folder, imap_connection, imap_options, registry

#: How long a poll runs at most, unless told (--max-time): cron's next one is not kept waiting for long.
POLL_TIME = "10m"


@click.command()
@game_folder
@click.option("--maildir", type=click.Path(file_okay=False, path_type=Path), help="The Maildir to read.")
@imap_options
@click.option(
    "--max-time",
    default=POLL_TIME,
    show_default=True,
    help="Stop after this long, waiting for poll.lock included; the mail not yet read waits for the next poll.",
)
@pass_env
def poll(env, directory, maildir, imap_url, imap_password_file, ca_file, max_time):
    """Handle every new message in a Maildir (moving each to cur/ once
    handled) or an IMAP mailbox (flagging each seen once handled). One poll
    of a game runs at a time; a message that cannot be handled is
    quarantined in the game folder and never blocks the others.

    \b
    Example:
      tabletop pbem poll duel --maildir ~/Maildir/.duel
      TABLETOP_IMAP_PASSWORD=... tabletop pbem poll duel --imap imaps://ref%40example.org@imap.example.org/INBOX
    """
    if (maildir is None) == (imap_url is None):
        raise UsageError("poll: name the mail to read: --maildir DIR or --imap imaps://USER@HOST/MAILBOX")
    deadline = time.monotonic() + (duration(max_time, "--max-time") or 0)
    if imap_url is not None:
        from ...referee import imap

        ref = referee.Referee.open(registry(env, directory), directory)
        imap.mailbox(imap_url)  # a bad address is refused before any wait
        imap.password(imap_password_file)
        with ref.dir.locked("poll.lock", until=deadline):
            connection = imap_connection(ref, imap_url, imap_password_file, ca_file, deadline)
            try:
                polled = imap.poll(ref, connection, click.echo, deadline)
            finally:
                connection.close()
        click.echo(f"{polled.handled} message(s) handled.")
        if polled.unfinished:
            click.echo(f"stopped after --max-time {max_time}; the rest waits for the next poll.")
        if polled.failed:
            raise CheckFailed(
                f"{polled.failed} message(s) could not be handled; the next poll tries again", where=imap_url
            )
        return
    if not (maildir / "new").is_dir():
        raise UsageError(f"{maildir}: not a Maildir (no new/ folder)")
    import mailbox

    ref = referee.Referee.open(registry(env, directory), directory)
    box = mailbox.Maildir(maildir, factory=None, create=False)
    count, failed = 0, 0
    created = ref.settings.created
    begun = created - CLOCKS_DIFFER if isinstance(created, (int, float)) else None
    with ref.dir.locked("poll.lock", until=deadline):
        for key in sorted(_new_keys(box)):
            if time.monotonic() >= deadline:
                click.echo(f"stopped after --max-time {max_time}; the rest waits for the next poll.")
                break
            arrived = _delivered(key)
            if begun is not None and arrived is not None and arrived < begun:
                # A Maildir several games share: mail from before this game is the older games' (unread).
                click.echo(f"{key}: arrived before the game began; left in new/ to the games before it")
                continue
            where = maildir / box._toc[key]  # noqa: SLF001 - where it lies
            try:
                # Only the start of a huge mail is read (never the whole file).
                with open(where, "rb") as file:
                    raw, size = mailin.bounded(file)
            except (KeyError, FileNotFoundError):
                continue  # taken by another reader
            try:
                click.echo(f"{key}: {ref.receive(raw, size=size, arrived=arrived)}")
            except Exception as exc:  # noqa: BLE001 - one mail never stops the others
                failed += 1
                why = exc.message if isinstance(exc, TabletopError) else f"{type(exc).__name__}: {exc}"
                click.echo(f"{key}: not handled, left for the next poll: {one_line(why)}")
                continue
            count += 1
            if ref.passed_over:
                continue  # another game's: left in new/ for its own poll
            # Read: moved to cur/ and flagged seen, as a mail program would.
            with contextlib.suppress(FileNotFoundError):
                os.rename(where, maildir / "cur" / f"{where.name.split(':', 1)[0]}:2,S")
    click.echo(f"{count} message(s) handled.")
    if failed:
        raise CheckFailed(f"{failed} message(s) could not be handled; they wait in new/", where=str(maildir))


def _delivered(key: str) -> float | None:
    """When a Maildir message was delivered: its name starts with the time (seconds)."""
    head = key.split(".", 1)[0]
    return float(head) if head.isdigit() and len(head) <= 12 else None


def _new_keys(box) -> list[str]:
    return [key for key in box.iterkeys() if box._toc[key].startswith("new")]  # noqa: SLF001 - the subfolder is only in the table
