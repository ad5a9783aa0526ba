"""``tabletop pbem``: run a game by email."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import time
from datetime import datetime, timezone
from pathlib import Path

import click

from ..errors import CheckFailed, TabletopError, UsageError
from ..referee import mailin, referee
from ..referee.clock import duration
from ..referee.gamedir import GameDir, one_line
from ..referee.settings import CLOCKS_DIFFER
from .common import game_option, parse_options, pass_env, variant_option


def _pair(item: str, option: str, form: str) -> tuple[str, str]:
    name, sep, value = item.partition("=")
    if not sep:
        raise UsageError(f"{option} '{item}': write {form}")
    return name.strip(), value.strip()


def moment(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"--now '{text}': write a time like 2026-11-30T18:00Z") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.timestamp()


class _Later(click.Choice):
    """A choice among the values of ``NAME`` in the referee's module
    ``MODULE``, read when the option is used or shown: sending and fetching
    mail (smtplib, ssl, imaplib) is imported only by the commands that do."""

    def __init__(self, module: str, name: str) -> None:
        self._where = (module, name)
        super().__init__(())

    @property
    def choices(self):  # type: ignore[override]
        module, name = self._where
        return tuple(getattr(importlib.import_module(f"..referee.{module}", __package__), name))

    @choices.setter
    def choices(self, value) -> None:  # click sets it; the module says it
        pass


def _registry(env, directory: Path):
    """The registry for the game in ``directory``: its game's plugins only."""
    return env.registry_for_log(GameDir(directory).log)


class _Group(click.Group):
    """Every pbem command: a folder it cannot write is one line, not a traceback."""

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


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--game", required=True, help="The game to play (tabletop games).")
@click.option(
    "--player",
    "players",
    multiple=True,
    required=True,
    help="NAME=ADDRESS, in seat order (repeatable); NAME=bot:SPEC seats a bot, like bot:mcts:seconds=2.",
)
@variant_option
@game_option
@click.option("--deadline", help="Time for each decision, like 48h or 3d (default: none).")
@click.option("--remind", help="Send a reminder this long before the deadline, like 12h.")
@click.option(
    "--late-bot",
    help="A bot (NAME or NAME:key=value,...) that decides for a player this long after the deadline (--grace).",
)
@click.option("--grace", default="0s", show_default=True, help="How long after the deadline the late bot waits.")
@click.option(
    "--referee", "referee_address", default="referee@localhost", show_default=True, help="The referee's own address."
)
@click.option(
    "--smtp", default="localhost:25", show_default=True, help="HOST:PORT of the SMTP server that sends the mail."
)
@click.option(
    "--smtp-security",
    type=_Later("delivery", "SECURITY"),
    default="auto",
    show_default=True,
    help="TLS to the SMTP server: tls (port 465), starttls (587), none (the clear, never a password to another "
    "machine); auto: tls on 465, else STARTTLS whenever offered, the clear only to a server on this machine.",
)
@click.option(
    "--ca-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="CA certificates (PEM) to trust for the mail servers instead of the system's (a private server).",
)
@click.option("--id", "game_id", help="The game's name in mails (default: the folder's name).")
@click.option("--master", help="The game master's address (gets a secret of their own and the reports).")
@click.option(
    "--tz",
    "zones",
    multiple=True,
    help="NAME=ZONE: show a player's deadlines in their time zone too, like ann=Europe/Berlin (repeatable).",
)
@click.option(
    "--pictures",
    type=click.Choice(referee.PICTURES),
    default="png",
    show_default=True,
    help="The board in each mail: png (a PNG, and the SVG beside it; needs the png extra) or svg.",
)
@click.option(
    "--vote-majority",
    default="all",
    show_default=True,
    help="How many of the players still in the game carry a vote (pause, draw, abandon): all, or a number.",
)
@click.option(
    "--civil-disorder",
    type=int,
    help="After this many missed deadlines a player is in civil disorder: the late bot plays for them at once.",
)
@click.option(
    "--substitute",
    "substitutes",
    multiple=True,
    help="An address 'pbem seek' offers a free seat to when it names none (repeatable).",
)
@click.option(
    "--observer",
    "observers",
    multiple=True,
    help="An address that gets the game as any onlooker may see it, and the log at the end (repeatable).",
)
@pass_env
def init(
    env,
    directory,
    game,
    players,
    variants,
    options,
    deadline,
    remind,
    late_bot,
    grace,
    referee_address,
    smtp,
    smtp_security,
    ca_file,
    game_id,
    master,
    zones,
    pictures,
    vote_majority,
    civil_disorder,
    substitutes,
    observers,
):
    """Create a game directory: a sealed log, players with secrets, settings;
    queue a welcome mail to each player (their secret, the syntax, their view).

    \b
    Example:
      tabletop pbem init duel --game glux --player ann=ann@example.org \\
          --player ben=ben@example.org --deadline 48h --remind 12h --referee ref@example.org
    """
    pairs = [_pair(item, "--player", "NAME=ADDRESS") for item in players]
    referee.init(
        env.registry_for(game),
        directory,
        game,
        pairs,
        variants=variants,
        options=parse_options(options),
        deadline=duration(deadline, "--deadline"),
        remind=duration(remind, "--remind"),
        late_bot=late_bot,
        grace=duration(grace, "--grace") or 0,
        referee=referee_address,
        smtp=smtp,
        smtp_security=smtp_security,
        ca_file=str(ca_file.resolve()) if ca_file else None,
        game_id=game_id,
        master=master,
        zones=dict(_pair(z, "--tz", "NAME=ZONE") for z in zones),
        pictures=pictures,
        vote_majority=vote_majority,
        civil_disorder=civil_disorder,
        substitutes=substitutes,
        observers=observers,
    )
    waiting = len(GameDir(directory).waiting())
    click.echo(
        f"{directory}: new {game} game by mail for {', '.join(n for n, _ in pairs)}; "
        f"{waiting} mails in the outbox (send them with 'tabletop pbem send {directory}')."
    )


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.argument("file", type=click.File("rb"), default="-")
@pass_env
def receive(env, directory, file):
    """Handle one raw message, from FILE or standard input (for procmail or a
    .forward pipe). Every message is archived first; a bad one is answered.

    \b
    Example:
      tabletop pbem receive duel < message.eml
    """
    raw, size = mailin.bounded(file)
    click.echo(referee.Referee.open(_registry(env, directory), directory).receive(raw, size=size))


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


def _imap_connection(ref, imap_url: str, password_file: Path | None, ca_file: Path | None, deadline=None):
    from ..referee import imap

    box = imap.mailbox(imap_url)
    secret = imap.password(password_file)
    ca = str(ca_file) if ca_file else ref.settings.get("ca_file")
    return imap.Connection(box, secret, ca, deadline)


#: How long a poll runs at most, unless told (--max-time): cron's next one is not kept waiting for long.
POLL_TIME = "10m"


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
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
        from ..referee import imap

        ref = referee.Referee.open(_registry(env, directory), directory)
        imap.mailbox(imap_url)  # a bad address is refused before any wait
        imap.password(imap_password_file)
        with ref.dir.locked("poll.lock", until=deadline):
            connection = _imap_connection(ref, imap_url, imap_password_file, ca_file, deadline)
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

    ref = referee.Referee.open(_registry(env, directory), directory)
    box = mailbox.Maildir(maildir, factory=None, create=False)
    count, failed = 0, 0
    created = ref.settings.get("created")
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


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
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
    from ..referee import imap

    if imap_url is None:
        raise UsageError("watch: name the mailbox: --imap imaps://USER@HOST/MAILBOX")
    step = duration(every, "--every") or 60
    ends = time.monotonic() + duration(max_time, "--max-time") if max_time else None
    stopped: list[int] = []
    ref = referee.Referee.open(_registry(env, directory), directory)
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
                        connection = _imap_connection(ref, imap_url, imap_password_file, ca_file, ends)
                    imap.poll(ref, connection, click.echo, ends)
                    for line in ref.tick():
                        click.echo(line)
                    try:
                        _send(ref.dir, env)
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


def _delivered(key: str) -> float | None:
    """When a Maildir message was delivered: its name starts with the time (seconds)."""
    head = key.split(".", 1)[0]
    return float(head) if head.isdigit() and len(head) <= 12 else None


def _new_keys(box) -> list[str]:
    return [key for key in box.iterkeys() if box._toc[key].startswith("new")]  # noqa: SLF001 - the subfolder is only in the table


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@pass_env
def send(env, directory):
    """Deliver the outbox over SMTP; what the server does not accept stays for
    the next send or tick.

    \b
    Example:
      tabletop pbem send duel
    """
    _send(GameDir(directory), env)


def _security(settings: dict) -> dict:
    return {"security": settings.get("smtp_security") or "auto", "ca_file": settings.get("ca_file")}


def _send(directory: GameDir, env) -> None:
    from ..referee import delivery

    settings = directory.load()
    outcome = delivery.send(directory, settings["smtp"], **_security(settings))
    for name, rcpts, reason in outcome.refused:
        click.echo(f"{name}: refused for good ({rcpts}: {reason}); moved to undeliverable/")
    for name, reason in outcome.deferred:
        click.echo(f"{name}: refused for now ({reason}); tried again later")
    if outcome.refused and settings.get("master"):
        referee.Referee.open(_registry(env, directory.path), directory.path).report_refused(outcome.refused)
        more = delivery.send(directory, settings["smtp"], **_security(settings))
        outcome.sent += more.sent
        outcome.waiting = more.waiting
    click.echo(f"{outcome.sent} mail(s) sent, {outcome.waiting} waiting.")
    if outcome.problem:
        raise CheckFailed(
            f"{outcome.waiting} mail(s) kept in the outbox: {outcome.problem}; the next send or tick tries again",
            where=str(directory.path),
        )


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--now", help="Act as if it were this time (for catching up or testing), like 2026-11-30T18:00Z.")
@pass_env
def tick(env, directory, now):
    """For cron: reminders and deadlines (and the late bot), then send.

    \b
    Example:
      */15 * * * *  tabletop pbem tick /home/ref/games/duel
    """
    ref = referee.Referee.open(_registry(env, directory), directory)
    for line in ref.tick(moment(now)):
        click.echo(line)
    _send(ref.dir, env)


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print it as one JSON object (for scripts and web pages).")
@pass_env
def status(env, directory, as_json):
    """Whose move it is, deadlines, the outbox, the chain head.

    \b
    Example:
      tabletop pbem status duel
      tabletop pbem status duel --json
    """
    ref = referee.Referee.open(_registry(env, directory), directory)
    if as_json:
        click.echo(json.dumps(ref.status_data(), ensure_ascii=False, indent=2))
        return
    for line in ref.status():
        click.echo(line)


def _master(env, directory: Path, command: str, **kwargs) -> None:
    ref = referee.Referee.open(_registry(env, directory), directory)
    click.echo(ref.locked_master(command, **kwargs))


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@pass_env
def pause(env, directory):
    """Game master: stop the game and its deadlines (players are told).

    \b
    Example:
      tabletop pbem pause duel
    """
    _master(env, directory, "pause")


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@pass_env
def resume(env, directory):
    """Game master: restart a paused game; deadlines move on by the pause.

    \b
    Example:
      tabletop pbem resume duel
    """
    _master(env, directory, "resume")


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@pass_env
def end(env, directory):
    """Game master: end the game; no more decisions are played.

    \b
    Example:
      tabletop pbem end duel
    """
    _master(env, directory, "end")


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.argument("player")
@click.argument("length")
@pass_env
def extend(env, directory, player, length):
    """Game master: move PLAYER's deadline LENGTH later (like 24h).

    \b
    Example:
      tabletop pbem extend duel ann 24h
    """
    _master(env, directory, "extend", player=player, seconds=duration(length, "LENGTH"))


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.argument("player")
@click.argument("address")
@pass_env
def replace(env, directory, player, address):
    """Game master: hand PLAYER to a new ADDRESS, with a new secret mailed there.

    \b
    Example:
      tabletop pbem replace duel ann anne@example.org
    """
    _master(env, directory, "replace", player=player, address=address)


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.argument("player")
@pass_env
def reissue(env, directory, player):
    """Game master: mail PLAYER a new secret (the old one stops working).

    \b
    Example:
      tabletop pbem reissue duel ann
    """
    _master(env, directory, "reissue", player=player)


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.argument("seat")
@click.option("--to", "addresses", multiple=True, help="An address to offer the seat to (default: the substitutes).")
@pass_env
def seek(env, directory, seat, addresses):
    """Game master: offer SEAT to substitutes; each address gets a claim
    token of its own, and the first 'claim:' mail takes the seat.

    \b
    Example:
      tabletop pbem seek duel ann --to sub@example.org --to other@example.org
    """
    _master(env, directory, "seek", player=seat, addresses=list(addresses))


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.argument("address")
@pass_env
def observe(env, directory, address):
    """Game master: mail the game to ADDRESS from now on, as any onlooker
    may see it (no player's hidden chips, draws or secret choices), and the
    whole log at the end.

    \b
    Example:
      tabletop pbem observe duel carol@example.org
    """
    _master(env, directory, "observe", address=address)


_SETTABLE = {
    "smtp": str,
    "smtp_security": str,
    "ca_file": str,
    "referee": str,
    "master": str,
    "late_bot": str,
    "tz": "zone",
    "pictures": str,
    "deadline": "duration",
    "remind": "duration",
    "grace": "duration",
    "vote_majority": str,
    "civil_disorder": str,
    "substitutes": "list",
}


@pbem.command(name="set")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.argument("settings", nargs=-1, required=True)
@pass_env
def set_(env, directory, settings):
    """Change settings after init: smtp, smtp_security, ca_file, referee,
    master, deadline, remind, grace, late_bot, pictures, tz (tz=NAME=ZONE),
    vote_majority, civil_disorder, substitutes (ADDRESS,ADDRESS) (KEY=VALUE; an empty VALUE clears an optional one).

    \b
    Example:
      tabletop pbem set duel smtp=mail.example.org:587 deadline=72h
    """
    changes = {}
    for item in settings:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in _SETTABLE:
            raise UsageError(f"'{item}': write KEY=VALUE with KEY one of {', '.join(_SETTABLE)}")
        if _SETTABLE[key] == "zone":
            changes[key] = _pair(value, "tz", "tz=NAME=ZONE (an empty ZONE: UTC only)")
        elif _SETTABLE[key] == "list":
            changes[key] = [a.strip() for a in value.split(",") if a.strip()]
        elif _SETTABLE[key] == "duration":
            changes[key] = duration(value, key) if value else (0 if key == "grace" else None)
        else:
            changes[key] = value or None
    if changes.get("smtp", "") is None or changes.get("referee", "") is None:
        raise UsageError("smtp and referee cannot be cleared")
    for line in referee.Referee.open(_registry(env, directory), directory).set(changes):
        click.echo(line)
