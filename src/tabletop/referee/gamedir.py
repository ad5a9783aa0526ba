"""A game played by mail: its directory and what is kept there.

::

    DIR/game.jsonl           the log (sealed seed)
    DIR/game.jsonl.seed      the secret seed (owner only)
    DIR/game.jsonl.secrets   sealed decisions not yet revealed (owner only)
    DIR/referee.json         players, hashed secrets, settings, mail state
    DIR/journal.json         a change under way (see :mod:`.referee`); gone once done
    DIR/archive/             every message received, secrets blacked out, kept first
                             (a stranger's oversized mail: its headers only)
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
import tempfile
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING

from ..base.errors import CheckFailed, UsageError
from ..log import files
from ..log.files import sync_folder
from . import blackout
from .botseats import PREFIX

if TYPE_CHECKING:
    from .settings import Settings

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
        #: The answers to posts from the turn pages, shown there and not mailed.
        self.shown = self.path / "shown"

    def check(self) -> None:
        if not self.settings_file.is_file() or not self.log.is_file():
            raise UsageError(
                f"{self.path}: not a game directory (no referee.json and game.jsonl); see 'tabletop pbem init'"
            )
        check_owned(self.path)

    def folder(self, path: Path) -> Path:
        """One of the game's subfolders, made for the owner only if missing."""
        path.mkdir(mode=0o700, exist_ok=True)
        return path

    def tidy(self) -> None:
        """Remove the temporary files a killed run left (see :func:`left_behind`)."""
        for folder in (self.path, self.archive, self.quarantine_dir, self.outbox, self.sent, self.undeliverable):
            for path in left_behind(folder):
                with contextlib.suppress(OSError):
                    path.unlink()

    # -- settings and mail state ---------------------------------------------
    def load(self) -> Settings:
        """The settings record; a file that is not one is one line naming it and the key at fault."""
        from .settings import read

        self.check()
        try:
            data = json.loads(files.read_text(self.settings_file, MAX_RECORD, "the referee's settings"))
        except (OSError, ValueError) as exc:
            raise UsageError(f"{self.settings_file}: cannot read ({exc})") from None
        return read(data, self.settings_file)

    def save(self, settings: Settings) -> None:
        write_private(self.settings_file, json.dumps(settings.to_json(), indent=2, sort_keys=True) + "\n")

    @contextlib.contextmanager
    def locked(self, name: str = "lock", until: float | None = None) -> Iterator[None]:
        """Hold ``DIR/name`` exclusively (released by the system if the process
        dies); with ``until`` (``time.monotonic()``), wait for it no later."""
        try:
            fd = os.open(self.path / name, os.O_RDWR | os.O_CREAT | _NOFOLLOW, 0o600)
        except OSError as exc:
            raise UsageError(f"{self.path}: cannot take the lock ({exc.strerror}); is the folder writable?") from None
        try:
            if until is None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            else:
                while True:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                        break
                    except BlockingIOError:
                        if time.monotonic() >= until:
                            raise CheckFailed(
                                f"{self.path / name}: another run held it for the whole --max-time; nothing was done"
                            ) from None
                        time.sleep(0.1)
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    # -- mail ------------------------------------------------------------------
    def keep(self, raw: bytes) -> tuple[Path, bool]:
        """Archive a message received (before anything else is done with it),
        its secrets redacted; whether these very bytes were archived before."""
        self.folder(self.archive)
        path = self.archive / f"{hashlib.sha256(raw).hexdigest()[:24]}.eml"
        if path.exists():
            return path, True
        write_private(path, blackout.message(raw), durable=False)
        return path, False

    def quarantine(self, raw: bytes, reason: str) -> Path:
        """Set aside a message that cannot be handled, with a one-line reason."""
        self.folder(self.quarantine_dir)
        name = hashlib.sha256(raw).hexdigest()[:24]
        write_private(self.quarantine_dir / f"{name}.eml", blackout.message(raw), durable=False)
        write_private(self.quarantine_dir / f"{name}.why", one_line(reason) + "\n", durable=False)
        return self.quarantine_dir / f"{name}.eml"

    def queue(self, message: EmailMessage, key: str | None = None) -> Path | None:
        """Put a mail in the outbox; it leaves only when the server accepts it.

        A mail with a ``key`` is queued once only: if a mail of that key is in
        the outbox, sent or set aside, nothing is done (what makes a change
        replayed after a crash mail nobody twice). A mail to a seat a bot
        plays (its address ``bot:SPEC``) is not queued: the bot reads no mail."""
        if str(message.get("To", "")).startswith(PREFIX):
            return None
        self.folder(self.outbox)
        name = f"{_safe(key)}.eml" if key else f"{time.time_ns():020d}.eml"
        if key and any((folder / name).exists() for folder in (self.outbox, self.sent, self.undeliverable, self.shown)):
            return None
        path = self.outbox / name
        # SMTP wants CRLF line ends; smtplib does not fix those of bytes.
        # An address with non-ASCII letters needs SMTPUTF8 (utf8 headers).
        policy = email.policy.SMTP
        if not all(str(message.get(h, "")).isascii() for h in ("To", "From")):
            policy = email.policy.SMTPUTF8
        write_private(path, message.as_bytes(policy=policy))
        return path

    def shown_answers(self, key: str, address: str) -> list[tuple[str, str]]:
        """The answers queued under ``key`` (and the keys made from it) to
        ``address``, taken out of the outbox into ``shown/``: a post from a
        turn page is answered on the page. Each answer's first line and
        text. A mail of the same key queued again after a crash is not
        (:meth:`queue` knows ``shown/``)."""
        if not self.outbox.is_dir():
            return []
        stem = _safe(key)
        found = []
        for path in sorted(self.outbox.glob(f"{stem}*.eml"), key=lambda p: (_mtime(p), p.name)):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if str(message.get("To", "")).strip().lower() != address.lower():
                continue  # a note to another reader, made from the same post: mailed
            part = message.get_body(preferencelist=("plain",))
            text = part.get_content() if part is not None else ""
            self.folder(self.shown)
            os.replace(path, self.shown / path.name)
            found.append((text.split("\n", 1)[0], text))
        if found:
            sync_folder(self.path)
        return found

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
    """A file name for a mail's key. A key that is not already a plain name
    (a player called 'zoé', '李明', 'a/b') gets its hash too: two keys that
    read alike once cleaned must never share a file (the second mail would
    be taken as sent)."""
    plain = re.sub(r"[^A-Za-z0-9_.-]", "_", key)
    if plain == key and len(key) <= 120:
        return key
    return plain[:100] + "-" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def one_line(text: str) -> str:
    return " ".join(str(text).split())[:400]


#: Characters that change how text after them is shown: bidirectional
#: embeddings, overrides and isolates, and the marks.
_BIDI = dict.fromkeys(map(ord, "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def printable(text: str) -> str:
    """``text`` from a player, safe to show to another: one line, with no
    control characters (a terminal escape would act on the reader's screen)
    and no bidirectional controls (they make text read as something else)."""
    text = "".join(c if c.isprintable() or c.isspace() else " " for c in str(text).translate(_BIDI))
    return one_line(text)


#: A secret, or a substitute's claim token (it takes a seat as a secret would).
_SECRET_LINE = re.compile(rb"(?im)^([ \t>]*(?:secret|claim)[ \t]*:[ \t]*)\S.*$")
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
    on disk before this returns (copies kept for the record need not be).

    The temporary file has a random name made with O_EXCL (nothing planted
    under a guessed name is followed or written into) that carries the
    process id, so that a later run knows it for a killed writer's leftover."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data.encode() if isinstance(data, str) else data)
            out.flush()
            if durable:
                os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if durable:
        sync_folder(path.parent)


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def append_private(path: Path, data: bytes) -> None:
    """Append to a file readable by its owner only; a link at ``path`` is refused, never followed."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW, 0o600)
    try:
        os.fchmod(fd, 0o600)  # a file made before this rule was readable by all
        os.write(fd, data)
    finally:
        os.close(fd)


def left_behind(folder: Path) -> list[Path]:
    """Temporary files in ``folder`` whose writer is gone: its process is no
    longer running (the id is in the name), or it is older than any write
    takes (:data:`tabletop.log.files.STALE`)."""
    found = []
    now = time.time()
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if not (entry.name.startswith(".") and entry.name.endswith(".tmp")):
                continue
            if not entry.is_file(follow_symlinks=False):
                continue
            pid = next((int(p) for p in reversed(entry.name[:-4].split(".")[-2:]) if p.isdigit()), None)
            try:
                old = now - entry.stat(follow_symlinks=False).st_mtime >= files.STALE
            except OSError:
                continue
            if old or (pid is not None and pid != os.getpid() and not _running(pid)):
                found.append(Path(entry.path))
    return found


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process: running
    return True


def check_owned(path: Path) -> None:
    """Refuse a game folder another user owns or may write to: they could
    plant links that make the referee write where they choose, or read the
    secrets."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the folder ({exc.strerror})") from None
    if hasattr(os, "geteuid") and info.st_uid != os.geteuid():
        raise UsageError(f"{path}: the folder belongs to another user; a game folder must be the referee's own")
    if info.st_mode & 0o022:
        raise UsageError(
            f"{path}: the folder is writable by other users; make it the referee's alone (chmod go-w {path})"
        )
