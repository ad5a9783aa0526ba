"""A game played by mail: its directory and what is kept there.

::

    DIR/game.jsonl           the log (sealed seed)
    DIR/game.jsonl.seed      the secret seed (owner only)
    DIR/game.jsonl.secrets   sealed decisions not yet revealed (owner only)
    DIR/referee.json         players, hashed secrets, settings, mail state
    DIR/journal.json         a change under way (see :mod:`.referee`); gone once done
    DIR/archive/             every message received, secrets redacted, kept first
    DIR/quarantine/          messages that could not be handled, each with its reason
    DIR/outbox/              mails waiting for the SMTP server to accept them
    DIR/sent/                mails it accepted (secrets redacted)
    DIR/undeliverable/       mails it refused for good (5xx), reported to the master
    DIR/press.jsonl          press between players (not part of the game log)
    DIR/lock, DIR/send.lock, DIR/poll.lock

Everything that changes the game or the mail state happens under ``lock``, so
two deliveries at once are handled one after the other; ``send`` and ``poll``
each hold a lock of their own for the whole run.
"""

from __future__ import annotations

import contextlib
import email.policy
import fcntl
import hashlib
import json
import os
import re
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from .. import files
from ..errors import UsageError
from ..files import sync_folder

#: The referee's own records (settings, journal, delivery state) are small; a
#: larger file, or one that is not a regular file, is refused rather than read.
MAX_RECORD = 4 * 1024 * 1024


class GameDir:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.log = self.path / "game.jsonl"
        self.settings_file = self.path / "referee.json"
        self.journal = self.path / "journal.json"
        self.archive = self.path / "archive"
        self.quarantine_dir = self.path / "quarantine"
        self.outbox = self.path / "outbox"
        self.sent = self.path / "sent"
        self.undeliverable = self.path / "undeliverable"
        self.press = self.path / "press.jsonl"

    def check(self) -> None:
        if not self.settings_file.is_file() or not self.log.is_file():
            raise UsageError(
                f"{self.path}: not a game directory (no referee.json and game.jsonl); see 'tabletop pbem init'"
            )

    # -- settings and mail state ---------------------------------------------
    def load(self) -> dict[str, Any]:
        self.check()
        try:
            return json.loads(files.read_text(self.settings_file, MAX_RECORD, "the referee's settings"))
        except (OSError, ValueError) as exc:
            raise UsageError(f"{self.settings_file}: cannot read ({exc})") from None

    def save(self, settings: dict[str, Any]) -> None:
        write_private(self.settings_file, json.dumps(settings, indent=2, sort_keys=True) + "\n")

    @contextlib.contextmanager
    def locked(self, name: str = "lock") -> Iterator[None]:
        """Hold ``DIR/name`` exclusively (released by the system if the process dies)."""
        try:
            fd = os.open(self.path / name, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise UsageError(f"{self.path}: cannot take the lock ({exc.strerror}); is the folder writable?") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    # -- mail ------------------------------------------------------------------
    def keep(self, raw: bytes) -> tuple[Path, bool]:
        """Archive a message received (before anything else is done with it),
        its secrets redacted; whether these very bytes were archived before."""
        self.archive.mkdir(exist_ok=True)
        path = self.archive / f"{hashlib.sha256(raw).hexdigest()[:24]}.eml"
        if path.exists():
            return path, True
        write_private(path, redact(raw), durable=False)
        return path, False

    def quarantine(self, raw: bytes, reason: str) -> Path:
        """Set aside a message that cannot be handled, with a one-line reason."""
        self.quarantine_dir.mkdir(exist_ok=True)
        name = hashlib.sha256(raw).hexdigest()[:24]
        write_private(self.quarantine_dir / f"{name}.eml", redact(raw), durable=False)
        write_private(self.quarantine_dir / f"{name}.why", one_line(reason) + "\n", durable=False)
        return self.quarantine_dir / f"{name}.eml"

    def queue(self, message: EmailMessage, key: str | None = None) -> Path | None:
        """Put a mail in the outbox; it leaves only when the server accepts it.

        A mail with a ``key`` is queued once only: if a mail of that key is in
        the outbox, sent or set aside, nothing is done (what makes a change
        replayed after a crash mail nobody twice)."""
        self.outbox.mkdir(exist_ok=True)
        name = f"{_safe(key)}.eml" if key else f"{time.time_ns():020d}.eml"
        if key and any((folder / name).exists() for folder in (self.outbox, self.sent, self.undeliverable)):
            return None
        path = self.outbox / name
        # SMTP wants CRLF line ends; smtplib does not fix those of bytes.
        # An address with non-ASCII letters needs SMTPUTF8 (utf8 headers).
        policy = email.policy.SMTP
        if not all(str(message.get(h, "")).isascii() for h in ("To", "From")):
            policy = email.policy.SMTPUTF8
        write_private(path, message.as_bytes(policy=policy))
        return path

    def waiting(self) -> list[Path]:
        if not self.outbox.is_dir():
            return []
        paths = [p for p in self.outbox.glob("*.eml")]
        return sorted(paths, key=lambda p: (_mtime(p), p.name))


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def _safe(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", key)[:120]


def one_line(text: str) -> str:
    return " ".join(str(text).split())[:400]


_SECRET_LINE = re.compile(rb"(?im)^([ \t>]*secret[ \t]*:[ \t]*)\S.*$")
_SECRET_SENT = re.compile(rb"(Your secret: )\S+")


def redact(raw: bytes) -> bytes:
    """``raw`` with every secret replaced: lines ``secret: ...`` in a player's
    mail, the secret in a welcome mail. Parts in base64 or quoted-printable are
    decoded and written again in the clear, redacted."""
    raw = _SECRET_SENT.sub(rb"\1(redacted)", _SECRET_LINE.sub(rb"\1(redacted)", raw))
    if b"base64" not in raw.lower() and b"quoted-printable" not in raw.lower():
        return raw
    try:
        message = email.message_from_bytes(raw, policy=email.policy.default)
        changed = False
        for part in message.walk():
            if part.get_content_maintype() == "text" and not part.is_multipart():
                text = part.get_content()
                clean = _SECRET_SENT.sub(
                    rb"\1(redacted)", _SECRET_LINE.sub(rb"\1(redacted)", text.encode("utf-8"))
                ).decode("utf-8")
                if clean != text:
                    part.set_content(clean, subtype=part.get_content_subtype())
                    changed = True
        return message.as_bytes(policy=email.policy.SMTPUTF8) if changed else raw
    except Exception:  # a message the parser cannot rewrite: the line-level redaction stands
        return raw


def write_private(path: Path, data: str | bytes, durable: bool = True) -> None:
    """Write a whole file readable by its owner only, atomically; ``durable``:
    on disk before this returns (copies kept for the record need not be)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data.encode() if isinstance(data, str) else data)
        out.flush()
        if durable:
            os.fsync(out.fileno())
    os.replace(tmp, path)
    if durable:
        sync_folder(path.parent)
