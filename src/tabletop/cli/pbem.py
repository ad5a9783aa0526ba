"""``tabletop pbem``: run a game by email."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import click

from ..errors import CheckFailed, UsageError
from ..referee import delivery, referee
from ..referee.gamedir import GameDir
from . import main
from .common import parse_options, pass_env

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


@main.group()
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
@click.option(
    "--variant",
    "variants",
    multiple=True,
    metavar="NAME[:KEY=VALUE,...]",
    help="A variant to enable, with its parameters if it has any (repeatable).",
)
@click.option("--option", "options", multiple=True, help="A game option KEY=VALUE (repeatable).")
@click.option("--deadline", help="Time for each decision, like 48h or 3d (default: none).")
@click.option("--remind", help="Send a reminder this long before the deadline, like 12h.")
@click.option("--late-bot", help="A bot that decides for a player this long after the deadline (--grace).")
@click.option("--grace", default="0s", show_default=True, help="How long after the deadline the late bot waits.")
@click.option(
    "--referee", "referee_address", default="referee@localhost", show_default=True, help="The referee's own address."
)
@click.option(
    "--smtp", default="localhost:25", show_default=True, help="HOST:PORT of the SMTP server that sends the mail."
)
@click.option("--id", "game_id", help="The game's name in mails (default: the folder's name).")
@pass_env
def init(
    env, directory, game, players, variants, options, deadline, remind, late_bot, grace, referee_address, smtp, game_id
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
    )
    click.echo(
        f"{directory}: new {game} game by mail for {', '.join(n for n, _ in pairs)}; "
        f"{len(pairs)} welcome mails in the outbox (send them with 'tabletop pbem send {directory}')."
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

    \b
    Example:
      tabletop pbem poll duel --maildir ~/Maildir/.duel
    """
    new = maildir / "new"
    if not new.is_dir():
        raise UsageError(f"{maildir}: not a Maildir (no new/ folder)")
    cur = maildir / "cur"
    cur.mkdir(exist_ok=True)
    ref = referee.Referee.open(env.registry, directory)
    count = 0
    for path in sorted(new.iterdir()):
        if path.name.startswith("."):
            continue
        click.echo(f"{path.name}: {ref.receive(path.read_bytes())}")
        path.rename(cur / f"{path.name}:2,S")
        count += 1
    click.echo(f"{count} message(s) handled.")


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
    sent, waiting, problem = delivery.send(directory, settings["smtp"])
    click.echo(f"{sent} mail(s) sent, {waiting} waiting.")
    if problem:
        raise CheckFailed(
            f"{waiting} mail(s) kept in the outbox: {problem}; the next send or tick tries again",
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
