"""Writing the referee's mails: each a plain-text body, sometimes a picture of
the board or the whole log attached."""

from __future__ import annotations

import time
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any


def message(
    settings: dict[str, Any],
    to: str,
    subject: str,
    body: str,
    *,
    reply_to: str | None = None,
    attachments: tuple[tuple[str, str, str], ...] = (),
) -> EmailMessage:
    """A mail from the referee. ``attachments`` are (file name, media type, text)."""
    mail = EmailMessage()
    referee = settings["referee"]
    mail["From"] = f"tabletop referee <{referee}>"
    mail["To"] = to
    mail["Subject"] = f"[{settings['game_id']}] {subject}"
    mail["Date"] = formatdate(time.time(), localtime=False)
    mail["Message-ID"] = make_msgid("tabletop", domain=referee.partition("@")[2] or None)
    # Answering machines must not answer the referee (nor the referee them).
    mail["Auto-Submitted"] = "auto-replied" if reply_to else "auto-generated"
    if reply_to:
        mail["In-Reply-To"] = reply_to
        mail["References"] = reply_to
    mail.set_content(body)
    for name, media_type, text in attachments:
        maintype, subtype = media_type.split("/", 1)
        mail.add_attachment(text.encode("utf-8"), maintype=maintype, subtype=subtype, filename=name)
    return mail


def syntax(settings: dict[str, Any], example_move: str) -> str:
    return (
        "To play, reply with a plain-text mail whose body says:\n\n"
        f"    game: {settings['game_id']}\n"
        "    secret: (your secret)\n"
        f"    move: {example_move}\n\n"
        "Several move: lines are played in order, each for good, until one cannot\n"
        "be played or brings a draw, a roll or anything hidden out. A mail with no\n"
        "move: line gets your view of the game back; write 'help' for the commands."
    )


def _game_and_secret(settings: dict[str, Any], whose: str) -> str:
    """The two lines every mail to the referee starts with."""
    return f"    game: {settings['game_id']}\n    secret: ({whose})\n\n"


def player_help(settings: dict[str, Any]) -> str:
    """What a player can write to the referee."""
    return (
        f"Game '{settings['game_id']}': every mail needs the lines\n\n"
        + _game_and_secret(settings, "your secret")
        + "and then any of:\n\n"
        "    move: DECISION    play a decision (several lines: in order)\n"
        "    resign            give up the game (what it means is the game's rule)\n"
        "    press: TEXT       a message to the other players (not in the game log)\n"
        "    history           the whole game so far, as you may see it\n"
        "    legal             every one of your legal decisions now\n"
        "    help              this text\n\n"
        "Other lines (greetings, comments, the quoted mail) are passed over."
    )


def master_help(settings: dict[str, Any]) -> str:
    """What the game master can write to the referee."""
    return (
        f"Game master's commands for game '{settings['game_id']}': a mail from your address with\n\n"
        + _game_and_secret(settings, "the master's secret")
        + "and any of:\n\n"
        "    pause / resume               stop and restart the game and its deadlines\n"
        "    extend: PLAYER 48h           move a player's deadline later\n"
        "    replace: PLAYER ADDRESS      hand a player to a new address, with a new secret\n"
        "    reissue: PLAYER              mail a player a new secret (the old one stops working)\n"
        "    end                          end the game\n\n"
        "The same on the command line: tabletop pbem pause|resume|extend|replace|reissue|end DIR ...;\n"
        "settings (SMTP server, deadlines) with tabletop pbem set DIR KEY=VALUE."
    )
