"""``tabletop pbem watch``: referee as the mail arrives, over IMAP."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path

import click

from ...base.errors import CheckFailed, TabletopError, UsageError
from ...referee import faults
from ..common import pass_env
from .common import game_folder, imap_options


@click.command()
@game_folder
@imap_options
@click.option(
    "--every",
    default="60s",
    show_default=True,
    help="How often deadlines are checked and the outbox is sent while no mail comes.",
)
@click.option("--max-time", help="Stop after this long, like 8h (default: run until stopped).")
@pass_env
def watch(env, directory, imap_url, imap_password_file, ca_file, every, max_time):
    """Referee as the mail arrives: keep a connection to the IMAP mailbox
    open (IDLE; NOOP every few seconds where the server has no IDLE), handle
    each mail at once, send the answers, keep the deadlines. Stops on
    SIGTERM or Ctrl-C (after the mail in hand), or after --max-time.

    \b
    Example:
      TABLETOP_IMAP_PASSWORD=... tabletop pbem watch duel --imap imaps://ref%40example.org@imap.example.org/INBOX
    """
    # The signals are taken first, before the referee loads (the longest part
    # of the start): a SIGTERM from here on ends the watch as usual, however
    # early it comes. Only the watching command handles signals.
    stopped: list[int] = []

    def stop(signum, frame):  # noqa: ARG001 - the signal handler's signature
        stopped.append(signum)

    handlers = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    faults.point("watch-signals")
    try:
        _watch(env, directory, imap_url, imap_password_file, ca_file, every, max_time, stopped)
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    click.echo("stopped.")


def _watch(
    env,
    directory: Path,
    imap_url: str | None,
    password_file: Path | None,
    ca_file: Path | None,
    every: str,
    max_time: str | None,
    stopped: list[int],
) -> None:
    """Watch the mailbox until a signal is in ``stopped`` or ``--max-time`` is over;
    a server that goes away is connected to again after a pause."""
    try:
        from ...referee import imap, referee
        from ...referee.clock import duration
        from .common import imap_connection, registry
    except ImportError as exc:  # as for the other subcommands: the folder locks need POSIX calls
        raise UsageError(f"'pbem' does not work on this system: {exc}") from None

    if imap_url is None:
        raise UsageError("watch: name the mailbox: --imap imaps://USER@HOST/MAILBOX")
    step = duration(every, "--every") or 60
    ends = time.monotonic() + duration(max_time, "--max-time") if max_time else None
    ref = referee.Referee.open(registry(env, directory), directory)
    imap.mailbox(imap_url)  # a bad address is refused before any wait
    imap.password(password_file)

    def over() -> bool:
        return bool(stopped) or (ends is not None and time.monotonic() >= ends)

    with ref.dir.locked("poll.lock", until=ends):
        connection = None
        while not over():
            try:
                if connection is None:
                    connection = imap_connection(ref, imap_url, password_file, ca_file, ends)
                _referee(env, ref, connection, ends)
                _wait(connection, step if ends is None else max(0.0, min(step, ends - time.monotonic())), over)
            except (CheckFailed, imap.ServerFault) as exc:
                # The server went away, or broke the bounds: say so, wait, connect again.
                click.echo(f"{exc.message}; trying again in {min(step, 30)} s")
                if connection is not None:
                    connection.close()
                connection = None
                pause = time.monotonic() + min(step, 30)
                while time.monotonic() < pause and not over():
                    time.sleep(0.5)
        if connection is not None:
            connection.close()


def _referee(env, ref, connection, ends: float | None) -> None:
    """One round: the new mail handled, the deadlines kept, the outbox sent."""
    from ...referee import imap
    from .common import deliver

    imap.poll(ref, connection, click.echo, ends)
    for line in ref.tick():
        click.echo(line)
    try:
        deliver(ref.dir, env)
    except TabletopError as exc:  # the server unreachable, or refused in the clear
        click.echo(f"not sent now: {exc.message}")


def _wait(connection, wait: float, over: Callable[[], bool]) -> None:
    """Wait ``wait`` seconds for mail (or until it is ``over``): in IDLE, or
    asking with NOOP every few seconds where the server has no IDLE."""
    faults.point("watch-waiting")
    if connection.can_idle():
        connection.idle(wait, over)
    else:
        waited = 0.0
        while waited < wait and not over() and not connection.noop():
            time.sleep(min(5.0, wait - waited))
            waited += 5.0
