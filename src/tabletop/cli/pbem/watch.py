"""``tabletop pbem watch``: referee as the mail arrives, over IMAP."""

from __future__ import annotations

import time

import click

from ...base.errors import CheckFailed, TabletopError, UsageError
from ...referee import referee
from ...referee.clock import duration
from ..common import pass_env
from .common import deliver, game_folder, imap_connection, imap_options, registry


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
    from ...referee import imap

    if imap_url is None:
        raise UsageError("watch: name the mailbox: --imap imaps://USER@HOST/MAILBOX")
    step = duration(every, "--every") or 60
    ends = time.monotonic() + duration(max_time, "--max-time") if max_time else None
    stopped: list[int] = []
    ref = referee.Referee.open(registry(env, directory), directory)
    imap.mailbox(imap_url)  # a bad address is refused before any wait
    imap.password(imap_password_file)

    import signal  # only the watching command handles signals

    def stop(signum, frame):  # noqa: ARG001 - the signal handler's signature
        stopped.append(signum)

    def over() -> bool:
        return bool(stopped) or (ends is not None and time.monotonic() >= ends)

    handlers = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        with ref.dir.locked("poll.lock", until=ends):
            connection = None
            while not over():
                try:
                    if connection is None:
                        connection = imap_connection(ref, imap_url, imap_password_file, ca_file, ends)
                    imap.poll(ref, connection, click.echo, ends)
                    for line in ref.tick():
                        click.echo(line)
                    try:
                        deliver(ref.dir, env)
                    except TabletopError as exc:  # the server unreachable, or refused in the clear
                        click.echo(f"not sent now: {exc.message}")
                    wait = step if ends is None else max(0.0, min(step, ends - time.monotonic()))
                    if connection.can_idle():
                        connection.idle(wait, over)
                    else:
                        waited = 0.0
                        while waited < wait and not over() and not connection.noop():
                            time.sleep(min(5.0, wait - waited))
                            waited += 5.0
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
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    click.echo("stopped.")
