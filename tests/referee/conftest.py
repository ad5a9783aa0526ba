"""A real SMTP server on loopback (aiosmtpd) and raw mails for the referee tests."""

from __future__ import annotations

import atexit
import email
import email.policy
import json
import mailbox
import re
import shutil
import socket
import tempfile
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from tabletop.referee import referee as referee_module
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


def topic(mail: EmailMessage) -> str:
    """What a referee's mail is about: its first line (the Subject is the game's, the same in every mail)."""
    return body(mail).split("\n", 1)[0]


def topic_of(raw: bytes) -> str:
    return topic(email.message_from_bytes(raw, policy=email.policy.default))


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
    """A Maildir a mail server delivers into (the standard library's)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.box = mailbox.Maildir(path, create=True)

    def deliver(self, raw: bytes) -> Path:
        key = self.box.add(raw)
        return self.path / self.box._lookup(key)  # noqa: SLF001 - where it lies, for the tests


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
        "--pictures",
        "svg",  # a PNG per view is slow to draw; test_mail_pictures draws them
        *extra,
        plugins=False,
    )
    assert result.exit_code == 0, result.output


MASTER = "gm@example.org"


def plain_registry():
    from tabletop import Registry, get_plugin_manager

    return Registry(get_plugin_manager([], environment=False))


class Game:
    """A game by mail in a folder, driven in-process: receive, send, look."""

    def __init__(self, path: Path, secrets: dict[str, str], registry, smtp: SmtpServer | None) -> None:
        self.path = path
        self.secrets = secrets
        self.registry = registry
        self.smtp = smtp
        if smtp is not None:
            data = json.loads((path / "referee.json").read_text())
            data["smtp"] = smtp.address
            (path / "referee.json").write_text(json.dumps(data))

    def referee(self) -> Referee:
        return Referee.open(self.registry, self.path)

    def receive(self, raw: bytes, now: float | None = None) -> str:
        return self.referee().receive(raw, now)

    def send(self):
        from tabletop.referee import delivery
        from tabletop.referee.gamedir import GameDir

        return delivery.send(GameDir(self.path), self.smtp.address)

    def log(self) -> bytes:
        return (self.path / "game.jsonl").read_bytes()

    def events(self) -> int:
        return len(self.log().splitlines()) - 1

    def outbox(self) -> list[bytes]:
        """The mails waiting, oldest first."""
        from tabletop.referee.gamedir import GameDir

        return [p.read_bytes() for p in GameDir(self.path).waiting()]

    def queued_since(self, names: set[str]) -> list[bytes]:
        from tabletop.referee.gamedir import GameDir

        return [p.read_bytes() for p in GameDir(self.path).waiting() if p.name not in names]

    def names(self) -> set[str]:
        folder = self.path / "outbox"
        return {p.name for p in folder.glob("*.eml")} if folder.is_dir() else set()

    def settings(self) -> dict:
        return json.loads((self.path / "referee.json").read_text())

    def mail(self, player: str, *lines: str, secret: bool = True, **kw) -> bytes:
        address = {"ann": ANN, "ben": BEN, "cat": CAT}[player]
        head = ["game: g"] + ([f"secret: {self.secrets[player]}"] if secret else [])
        return raw_mail(address, head + list(lines), **kw)

    def legal(self, player: str) -> list[str]:
        """``player``'s legal decisions now, in notation (from the log)."""
        from tabletop.play.engine import Replay

        match = Replay(self.registry, self.path / "game.jsonl").run()
        return [match.game.notate(d) for d in match.game.legal(match.state, player)]

    def asked(self, player: str) -> list[str]:
        """The legal decisions listed in the last view mailed to ``player``."""
        mails = self.smtp.inbox.to({"ann": ANN, "ben": BEN, "cat": CAT}[player])
        texts = [body(m) for m in mails if "Your legal decisions:\n" in body(m)]
        if not texts:
            return []
        text = texts[-1]
        found = []
        for line in text.split("Your legal decisions:\n", 1)[1].splitlines():
            if not line.startswith("  ") or line.startswith("  ..."):
                break
            found.append(line.strip())
        return found


CAT = "cat@example.org"
_TEMPLATES: dict[tuple, tuple[Path, dict[str, str]]] = {}


def game_copy(tmp_path: Path, registry, smtp, game: str = "glux", players=("ann", "ben"), **kw) -> Game:
    """A fresh copy of a game made once per session (init costs a few scrypt hashes)."""
    key = (game, players, repr(sorted(kw.items())))
    if key not in _TEMPLATES:
        base = Path(tempfile.mkdtemp(prefix="tabletop-referee-"))
        addresses = {"ann": ANN, "ben": BEN, "cat": CAT}
        kw = {"referee": REF, "game_id": "g", "master": MASTER, "pictures": "svg", **kw}
        secrets = referee_module.init(registry, base / "g", game, [(p, addresses[p]) for p in players], **kw)
        atexit.register(shutil.rmtree, base, True)
        _TEMPLATES[key] = (base / "g", secrets)
    source, secrets = _TEMPLATES[key]
    shutil.copytree(source, tmp_path / "g")
    return Game(tmp_path / "g", dict(secrets), registry, smtp)


@pytest.fixture
def glux(tmp_path, smtp):
    return game_copy(tmp_path, plain_registry_cached(), smtp)


_REGISTRY = []


def plain_registry_cached():
    if not _REGISTRY:
        _REGISTRY.append(plain_registry())
    return _REGISTRY[0]


@pytest.fixture(scope="session")
def certs(tmp_path_factory):
    """A CA of the tests' own and server certificates (see certs.py)."""
    from .certs import make_certs

    return make_certs(tmp_path_factory.mktemp("certs"))


@pytest.fixture
def dovecot():
    """A real IMAP server on 127.0.0.1, stopped after the test (see dovecot.py)."""
    from .dovecot import dovecot_server

    server = dovecot_server(None)
    yield server
    server.stop()
