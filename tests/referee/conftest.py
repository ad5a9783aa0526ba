"""A real SMTP server on loopback (aiosmtpd) and raw mails for the referee tests."""

from __future__ import annotations

import email
import email.policy
import re
import socket
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from tabletop.referee.referee import Referee


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Inbox:
    """What the SMTP server received: parsed mails, in order."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        mail = email.message_from_bytes(envelope.content, policy=email.policy.default)
        mail["X-Envelope-To"] = ", ".join(envelope.rcpt_tos)
        self.mails.append(mail)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.mails if address in m["X-Envelope-To"]]

    def last(self, address: str) -> EmailMessage:
        return self.to(address)[-1]


def body(mail: EmailMessage) -> str:
    return mail.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")


def secret_in(mail: EmailMessage) -> str:
    return re.search(r"Your secret: (\S+)", body(mail)).group(1)


class SmtpServer:
    def __init__(self, port: int) -> None:
        self.port = port
        self.inbox = Inbox()
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=port)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()


@pytest.fixture
def smtp():
    server = SmtpServer(free_port())
    server.start()
    yield server
    server.stop()


def raw_mail(
    sender: str,
    lines: list[str] | str,
    *,
    subject: str = "move",
    to: str = "ref@example.org",
    headers: dict[str, str] | None = None,
    message_id: str | None = None,
) -> bytes:
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = to
    mail["Subject"] = subject
    mail["Message-ID"] = message_id or make_msgid("player")
    for key, value in (headers or {}).items():
        mail[key] = value
    mail.set_content(lines if isinstance(lines, str) else "\n".join(lines) + "\n")
    return bytes(mail)


class Maildir:
    def __init__(self, path: Path) -> None:
        self.path = path
        for sub in ("new", "cur", "tmp"):
            (path / sub).mkdir(parents=True, exist_ok=True)

    def deliver(self, raw: bytes) -> Path:
        name = f"{time.time_ns()}.test"
        (self.path / "tmp" / name).write_bytes(raw)
        (self.path / "tmp" / name).rename(self.path / "new" / name)
        return self.path / "new" / name


@pytest.fixture
def maildir(tmp_path) -> Maildir:
    return Maildir(tmp_path / "Maildir")


def open_referee(registry, path) -> Referee:
    return Referee.open(registry, path)


ANN, BEN, REF = "ann@example.org", "ben@example.org", "ref@example.org"


def init_glux(cli, smtp_address: str, *extra: str) -> None:
    """A two-player Glüx game by mail, in the folder g/."""
    result = cli(
        "pbem",
        "init",
        "g",
        "--game",
        "glux",
        "--player",
        f"ann={ANN}",
        "--player",
        f"ben={BEN}",
        "--referee",
        REF,
        "--smtp",
        smtp_address,
        *extra,
        plugins=False,
    )
    assert result.exit_code == 0, result.output
