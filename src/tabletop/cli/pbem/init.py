"""``tabletop pbem init``: a new game by mail."""

from __future__ import annotations

from pathlib import Path

import click

from ...referee import referee
from ...referee.clock import duration
from ...referee.gamedir import GameDir
from ..common import game_option, parse_options, pass_env, variant_option
from .common import Later, game_folder, pair


@click.command()
@game_folder
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
    type=Later("delivery", "SECURITY"),
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
@click.option(
    "--page-url",
    help="The address of the turn pages' server ('tabletop pbem serve'), like https://games.example.org: "
    "every mail links to its reader's page.",
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
    page_url,
):
    """Create a game directory: a sealed log, players with secrets, settings;
    queue a welcome mail to each player (their secret, the syntax, their view).

    \b
    Example:
      tabletop pbem init duel --game glux --player ann=ann@example.org \\
          --player ben=ben@example.org --deadline 48h --remind 12h --referee ref@example.org
    """
    pairs = [pair(item, "--player", "NAME=ADDRESS") for item in players]
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
        zones=dict(pair(z, "--tz", "NAME=ZONE") for z in zones),
        pictures=pictures,
        vote_majority=vote_majority,
        civil_disorder=civil_disorder,
        substitutes=substitutes,
        observers=observers,
        page_url=page_url,
    )
    waiting = len(GameDir(directory).waiting())
    click.echo(
        f"{directory}: new {game} game by mail for {', '.join(n for n, _ in pairs)}; "
        f"{waiting} mails in the outbox (send them with 'tabletop pbem send {directory}')."
    )
