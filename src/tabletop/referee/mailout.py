"""Writing the referee's mails: each a plain-text body and an HTML part
beside it (:mod:`.html`: the same words laid out, the board as a picture in
the mail), sometimes a picture of the board or the whole log attached."""

from __future__ import annotations

import hashlib
import time
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .settings import Settings


def message(
    settings: Settings,
    to: str,
    subject: str,
    body: str,
    *,
    reply_to: str | None = None,
    attachments: tuple[tuple[str, str, str | bytes], ...] = (),
    first: bool = False,
    html: str | None = None,
    inline: tuple[tuple[str, str, str | bytes], ...] = (),
) -> EmailMessage:
    """A mail from the referee. ``attachments`` are (file name, media type, text or bytes).

    Every mail of a game to one address is one thread in a mail program: the
    same Subject (``[duel] Glüx: ann, ben``), and each mail refers to the
    first one (``first``: this is it, its Message-ID is the thread's) and to
    the mail it answers. What a mail is about (``subject``) is its first line.

    Every mail is multipart/alternative: the text, and ``html`` beside it
    (by default the text laid out by :func:`.html.from_text`). ``inline``
    are the parts the HTML shows (content id, media type, data): they go
    with it in a multipart/related, so a mail program shows them in place
    (``<img src="cid:ID">``) and not as attachments."""
    mail = EmailMessage()
    referee = settings.referee
    domain = referee.partition("@")[2] or None
    mail["From"] = f"tabletop referee <{referee}>"
    mail["To"] = to
    mail["Subject"] = f"[{settings.game_id}] {settings.thread or 'game ' + settings.game_id}"
    mail["Date"] = formatdate(time.time(), localtime=False)
    root = thread_id(settings, to)
    mail["Message-ID"] = root if first else make_msgid("tabletop", domain=domain)
    # Answering machines must not answer the referee (nor the referee them).
    mail["Auto-Submitted"] = "auto-replied" if reply_to else "auto-generated"
    if not first:
        mail["In-Reply-To"] = reply_to or root
        mail["References"] = " ".join([root, reply_to] if reply_to and reply_to != root else [root])
    mail.set_content(subject + "\n\n" + body)
    if html is None:
        from . import html as layout

        html = layout.page(subject, layout.from_text(body))
    mail.add_alternative(html, subtype="html")
    if inline:
        shown = mail.get_payload()[1]
        for cid, media_type, data in inline:
            maintype, subtype = media_type.split("/", 1)
            raw = data.encode("utf-8") if isinstance(data, str) else data
            name = f"board.{'svg' if subtype.startswith('svg') else subtype}"
            shown.add_related(
                raw, maintype=maintype, subtype=subtype, cid=f"<{cid}>", filename=name, disposition="inline"
            )
    for name, media_type, text in attachments:
        maintype, subtype = media_type.split("/", 1)
        data = text.encode("utf-8") if isinstance(text, str) else text
        mail.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return mail


def thread_id(settings: Settings, to: str) -> str:
    """The Message-ID of the first mail of the game to ``to``: the thread's."""
    domain = settings.referee.partition("@")[2] or "localhost"
    who = hashlib.sha256(to.strip().lower().encode("utf-8")).hexdigest()[:16]
    return f"<tabletop.{settings.game_id}.{who}@{domain}>"


def topic(text: str) -> str:
    """A mail's first line: what it is about (the Subject is the game's)."""
    return text.replace("\r\n", "\n").split("\n", 1)[0]


def syntax(game_id: str, example_move: str) -> str:
    """How a move is mailed to the game ``game_id``."""
    return (
        "To play, reply with a plain-text mail whose body says:\n\n"
        f"    game: {game_id}\n"
        "    secret: (your secret)\n"
        f"    move: {example_move}\n\n"
        "Several move: lines are played in order, each for good, until one cannot\n"
        "be played or brings a draw, a roll or anything hidden out. A mail with no\n"
        "move: line gets your view of the game back; write 'help' for the commands."
    )


def _game_and_secret(game_id: str, whose: str) -> str:
    """The two lines every mail to the referee starts with."""
    return f"    game: {game_id}\n    secret: ({whose})\n\n"


def player_help(game_id: str) -> str:
    """What a player can write to the referee about the game ``game_id``:
    every player's command found (:mod:`.commands`)."""
    from . import commands

    return (
        f"Game '{game_id}': every mail needs the lines\n\n"
        + _game_and_secret(game_id, "your secret")
        + "and then any of:\n\n"
        + commands.listing(commands.player_commands())
        + "\n\nOther lines (greetings, comments, the quoted mail) are passed over."
    )


def master_help(game_id: str) -> str:
    """What the game master can write to the referee: every game master's command found."""
    from . import commands

    return (
        f"Game master's commands for game '{game_id}': a mail from your address with\n\n"
        + _game_and_secret(game_id, "the master's secret")
        + "and any of:\n\n"
        + commands.listing(commands.master_commands())
        + f"\n\nThe same on the command line: tabletop pbem {'|'.join(commands.on_the_command_line())} DIR ...;\n"
        "settings (SMTP server, deadlines) with tabletop pbem set DIR KEY=VALUE."
    )
