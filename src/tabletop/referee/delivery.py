"""Sending the outbox over SMTP. A mail leaves the outbox only once the server
has accepted it; with the server down nothing is lost, and the next send
tries again."""

from __future__ import annotations

import os
import smtplib
import socket
from email import message_from_bytes, policy
from email.utils import getaddresses

from .gamedir import GameDir


def send(directory: GameDir, smtp: str) -> tuple[int, int, str | None]:
    """Deliver what waits in the outbox: (sent, still waiting, why not all)."""
    waiting = directory.waiting()
    if not waiting:
        return 0, 0, None
    host, _, port = smtp.rpartition(":")
    sent = 0
    try:
        with smtplib.SMTP(host or "localhost", int(port or 25), timeout=30) as server:
            if os.environ.get("TABLETOP_SMTP_STARTTLS") == "1":
                server.starttls()
            user = os.environ.get("TABLETOP_SMTP_USER")
            if user:
                server.login(user, os.environ.get("TABLETOP_SMTP_PASSWORD", ""))
            directory.sent.mkdir(exist_ok=True)
            for path in waiting:
                raw = path.read_bytes()
                mail = message_from_bytes(raw, policy=policy.default)
                sender = [a for _, a in getaddresses([str(mail["From"])])][0]
                rcpts = [a for _, a in getaddresses([str(mail["To"])])]
                server.sendmail(sender, rcpts, raw)
                os.replace(path, directory.sent / path.name)
                sent += 1
    except (OSError, smtplib.SMTPException, socket.timeout) as exc:
        reason = f"cannot deliver through {smtp} ({type(exc).__name__}: {exc})"
        return sent, len(waiting) - sent, reason
    return sent, 0, None
