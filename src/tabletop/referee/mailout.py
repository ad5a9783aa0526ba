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
        "Several move: lines are played in order, all or none. A mail with no\n"
        "move: line gets your view of the game back."
    )
