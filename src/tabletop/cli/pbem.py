"""``tabletop pbem``: run a game by email."""

from __future__ import annotations

import contextlib
import mailbox
import re
from datetime import datetime, timezone
from pathlib import Path

import click

from ..errors import CheckFailed, UsageError
from ..referee import delivery, referee
from ..referee.gamedir import GameDir
from .common import game_option, parse_options, pass_env, variant_option

_DURATION = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def duration(text: str | None, option: str) -> int | None:
    if text is None:
        return None
    m = _DURATION.match(text)
    if not m:
        raise UsageError(f"{option} '{text}': write a number and a unit, like 90m, 48h or 3d")
    return int(m.group(1)) * _UNITS[m.group(2)]


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


class _Group(click.Group):
    """Every pbem command: a folder it cannot write is one line, not a traceback."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
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
@click.option("--player", "players", multiple=True, required=True, help="NAME=ADDRESS, in seat order (repeatable).")
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
@click.option("--id", "game_id", help="The game's name in mails (default: the folder's name).")
@click.option("--master", help="The game master's address (gets a secret of their own and the reports).")
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
    game_id,
    master,
):
    """Create a game directory: a sealed log, players with secrets, settings;
    queue a welcome mail to each player (their secret, the syntax, their view).

    \b
    Example:
      tabletop pbem init duel --game glux --player ann=ann@example.org \\
          --player ben=ben@example.org --deadline 48h --remind 12h --referee ref@example.org
    """
    pairs = []
    for item in players:
        name, sep, address = item.partition("=")
        if not sep:
            raise UsageError(f"--player '{item}': write NAME=ADDRESS")
        pairs.append((name.strip(), address.strip()))
    referee.init(
        env.registry,
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
        game_id=game_id,
        master=master,
    )
    click.echo(
        f"{directory}: new {game} game by mail for {', '.join(n for n, _ in pairs)}; "
        f"{len(pairs) + bool(master)} welcome mails in the outbox (send them with 'tabletop pbem send {directory}')."
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
    raw = file.read()
    click.echo(referee.Referee.open(env.registry, directory).receive(raw))


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--maildir", type=click.Path(file_okay=False, path_type=Path), required=True, help="The Maildir to read.")
@pass_env
def poll(env, directory, maildir):
    """Handle every new message in a Maildir, moving each to cur/ once handled.
    One poll of a game runs at a time; a message that cannot be handled is
    quarantined in the game folder and never blocks the others.

    \b
    Example:
      tabletop pbem poll duel --maildir ~/Maildir/.duel
    """
    if not (maildir / "new").is_dir():
        raise UsageError(f"{maildir}: not a Maildir (no new/ folder)")
    ref = referee.Referee.open(env.registry, directory)
    box = mailbox.Maildir(maildir, factory=None, create=False)
    count = 0
    with ref.dir.locked("poll.lock"):
        for key in sorted(_new_keys(box)):
            try:
                message = box.get_message(key)
                raw = box.get_bytes(key)
            except (KeyError, FileNotFoundError):
                continue  # taken by another reader
            click.echo(f"{key}: {ref.receive(raw)}")
            message.set_subdir("cur")
            message.add_flag("S")
            with contextlib.suppress(KeyError, FileNotFoundError):
                box[key] = message
            count += 1
    click.echo(f"{count} message(s) handled.")


def _new_keys(box: mailbox.Maildir) -> list[str]:
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


def _send(directory: GameDir, env) -> None:
    settings = directory.load()
    outcome = delivery.send(directory, settings["smtp"])
    for name, rcpts, reason in outcome.refused:
        click.echo(f"{name}: refused for good ({rcpts}: {reason}); moved to undeliverable/")
    for name, reason in outcome.deferred:
        click.echo(f"{name}: refused for now ({reason}); tried again later")
    if outcome.refused and settings.get("master"):
        referee.Referee.open(env.registry, directory.path).report_refused(outcome.refused)
        more = delivery.send(directory, settings["smtp"])
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
    ref = referee.Referee.open(env.registry, directory)
    for line in ref.tick(moment(now)):
        click.echo(line)
    _send(ref.dir, env)


@pbem.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@pass_env
def status(env, directory):
    """Whose move it is, deadlines, the outbox, the chain head.

    \b
    Example:
      tabletop pbem status duel
    """
    for line in referee.Referee.open(env.registry, directory).status():
        click.echo(line)


def _master(env, directory: Path, command: str, **kwargs) -> None:
    ref = referee.Referee.open(env.registry, directory)
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


_SETTABLE = {
    "smtp": str,
    "referee": str,
    "master": str,
    "late_bot": str,
    "deadline": "duration",
    "remind": "duration",
    "grace": "duration",
}


@pbem.command(name="set")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.argument("settings", nargs=-1, required=True)
@pass_env
def set_(env, directory, settings):
    """Change settings after init: smtp, referee, master, deadline, remind,
    grace, late_bot (KEY=VALUE; an empty VALUE clears an optional one).

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
        if _SETTABLE[key] == "duration":
            changes[key] = duration(value, key) if value else (0 if key == "grace" else None)
        else:
            changes[key] = value or None
    if changes.get("smtp", "") is None or changes.get("referee", "") is None:
        raise UsageError("smtp and referee cannot be cleared")
    for line in referee.Referee.open(env.registry, directory).set(changes):
        click.echo(line)
