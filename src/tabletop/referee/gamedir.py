"""A game played by mail: its directory and what is kept there.

::

    DIR/game.jsonl           the log (sealed seed)
    DIR/game.jsonl.seed      the secret seed (owner only)
    DIR/game.jsonl.secrets   sealed decisions not yet revealed (owner only)
    DIR/referee.json         players, hashed secrets, settings, mail state
    DIR/archive/             every raw message received, kept before anything else
    DIR/outbox/              mails waiting for the SMTP server to accept them
    DIR/sent/                mails it accepted
    DIR/lock                 held while a message or a tick is handled

Everything that changes the game or the mail state happens under the lock,
so two deliveries at once are handled one after the other.
"""

from __future__ import annotations

import contextlib
import email.policy
import fcntl
import hashlib
import json
import os
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from ..errors import UsageError


class GameDir:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.log = self.path / "game.jsonl"
        self.settings_file = self.path / "referee.json"
        self.archive = self.path / "archive"
        self.outbox = self.path / "outbox"
        self.sent = self.path / "sent"

    def check(self) -> None:
        if not self.settings_file.is_file() or not self.log.is_file():
            raise UsageError(
                f"{self.path}: not a game directory (no referee.json and game.jsonl); see 'tabletop pbem init'"
            )

    # -- settings and mail state ---------------------------------------------
    def load(self) -> dict[str, Any]:
        self.check()
        try:
            return json.loads(self.settings_file.read_text())
        except (OSError, ValueError) as exc:
            raise UsageError(f"{self.settings_file}: cannot read ({exc})") from None

    def save(self, settings: dict[str, Any]) -> None:
        write_private(self.settings_file, json.dumps(settings, indent=2, sort_keys=True) + "\n")

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        fd = os.open(self.path / "lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    # -- mail ------------------------------------------------------------------
    def keep(self, raw: bytes) -> Path:
        """Archive a raw message received (before anything else is done with it)."""
        self.archive.mkdir(exist_ok=True)
        name = f"{time.strftime('%Y%m%dT%H%M%S')}-{hashlib.sha256(raw).hexdigest()[:16]}.eml"
        path = self.archive / name
        write_private(path, raw)
        return path

    def queue(self, message: EmailMessage) -> Path:
        """Put a mail in the outbox; it leaves only when the server accepts it."""
        self.outbox.mkdir(exist_ok=True)
        stamp = f"{time.time_ns():020d}"
        path = self.outbox / f"{stamp}.eml"
        # SMTP wants CRLF line ends; smtplib does not fix those of bytes.
        write_private(path, message.as_bytes(policy=email.policy.SMTP))
        return path

    def waiting(self) -> list[Path]:
        return sorted(self.outbox.glob("*.eml")) if self.outbox.is_dir() else []


def write_private(path: Path, data: str | bytes) -> None:
    """Write a whole file readable by its owner only, atomically."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data.encode() if isinstance(data, str) else data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
