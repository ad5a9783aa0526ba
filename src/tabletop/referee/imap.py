"""Mail where organisers have it: reading the referee's IMAP mailbox.

``imaps://USER@HOST[:PORT]/MAILBOX`` (or ``imap://`` for a server on this
machine only: the password would travel in the clear), the password from
``TABLETOP_IMAP_PASSWORD`` or a file. The server's certificate and name are
checked against the system's trust store, or a CA file for a private
server.

Each mail is handled exactly once, across crashes: it is fetched without
marking it (``BODY.PEEK``), handed to the referee (which archives it first
and knows a mail it handled by its Message-ID or, without one, its content),
then the mail is flagged ``\\Seen``, then the mailbox's UIDVALIDITY and the
mail's UID are recorded in ``DIR/imap.json`` (the last UID handled). The
next run reads the mails after that UID, whatever their flags (a mail a
person opened in the mailbox is still refereed). A kill anywhere before
the record fetches the mail again on the next run, and the referee answers
"handled before; nothing to do". A mail
larger than the referee reads (256 KiB) is fetched as its headers alone.

``watch`` keeps the connection open in IMAP IDLE (RFC 2177) where the
server offers it, so a mail is refereed as it arrives; a server without
IDLE is asked with NOOP every few seconds instead.
"""

from __future__ import annotations

import imaplib
import ipaddress
import json
import os
import re
import select
import socket
import ssl
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlsplit

import attrs

from .. import files
from ..errors import CheckFailed, TabletopError, UsageError
from . import faults, mailin
from .delivery import tls_context
from .gamedir import MAX_RECORD, GameDir, one_line, write_private

#: Longest wait for the server to answer one command (seconds).
TIMEOUT = 60
#: An IDLE is ended and begun again after this long (RFC 2177 asks for less than 29 minutes).
IDLE_RENEW = 25 * 60


@attrs.frozen
class Mailbox:
    """Where the referee's mail is: parsed from an ``imap(s)://`` address."""

    secure: bool
    user: str
    host: str
    port: int
    name: str

    def __str__(self) -> str:
        scheme = "imaps" if self.secure else "imap"
        return f"{scheme}://{self.user}@{self.host}:{self.port}/{self.name}"


def mailbox(url: str) -> Mailbox:
    """``imaps://USER@HOST[:PORT]/MAILBOX``: one UsageError for anything else."""
    shown = one_line(url)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise UsageError(f"--imap '{shown}': write imaps://USER@HOST[:PORT]/MAILBOX") from None
    if parts.scheme not in ("imap", "imaps") or not parts.hostname or not parts.username:
        raise UsageError(f"--imap '{shown}': write imaps://USER@HOST[:PORT]/MAILBOX")
    if parts.password is not None:
        raise UsageError(f"--imap '{shown}': no password in the address; set TABLETOP_IMAP_PASSWORD")
    secure = parts.scheme == "imaps"
    if not secure and not _loopback(parts.hostname):
        raise UsageError(
            f"--imap '{shown}': imap:// sends the password in the clear; it is only for a server on this "
            "machine (use imaps://)"
        )
    name = unquote(parts.path.lstrip("/")) or "INBOX"
    if not name.isprintable() or '"' in name or "\\" in name:
        raise UsageError(f"--imap '{shown}': the mailbox name has characters it cannot have")
    return Mailbox(secure, unquote(parts.username), parts.hostname, port or (993 if secure else 143), name)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def password(file: Path | None) -> str:
    """The IMAP password: the first line of ``file``, else ``TABLETOP_IMAP_PASSWORD``."""
    if file is not None:
        text = files.read_text(Path(file), 4096, "--imap-password-file").splitlines()
        if not text or not text[0]:
            raise UsageError("--imap-password-file: the first line is empty", where=str(file))
        return text[0]
    secret = os.environ.get("TABLETOP_IMAP_PASSWORD")
    if not secret:
        raise UsageError("--imap needs the password: set TABLETOP_IMAP_PASSWORD or name --imap-password-file")
    return secret


class _Lines:
    """imaplib's reader of the server's answers, with the buffer in sight: an
    IDLE must know whether an answer is already in hand before it waits on
    the socket (a buffered file object would hide it)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = bytearray()

    def _more(self) -> bool:
        data = self.sock.recv(65536)
        self.buffer += data
        return bool(data)

    def readline(self, limit: int = -1) -> bytes:
        while b"\n" not in self.buffer and (limit < 0 or len(self.buffer) < limit):
            if not self._more():
                break
        end = self.buffer.find(b"\n") + 1 or len(self.buffer)
        if limit >= 0:
            end = min(end, limit)
        line = bytes(self.buffer[:end])
        del self.buffer[:end]
        return line

    def read(self, size: int) -> bytes:
        while len(self.buffer) < size:
            if not self._more():
                break
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data

    def ready(self) -> bool:
        pending = self.sock.pending() if isinstance(self.sock, ssl.SSLSocket) else 0
        return bool(self.buffer) or pending > 0

    def close(self) -> None:
        pass


class _Plain(imaplib.IMAP4):
    def open(self, host: str = "", port: int = 143, timeout: float | None = None) -> None:
        super().open(host, port, timeout)
        self.file = _Lines(self.sock)  # type: ignore[assignment]


class _Secure(imaplib.IMAP4_SSL):
    def open(self, host: str = "", port: int = 993, timeout: float | None = None) -> None:
        super().open(host, port, timeout)
        self.file = _Lines(self.sock)  # type: ignore[assignment]


def _why(exc: BaseException) -> str:
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"its certificate is not trusted: {one_line(exc.verify_message or str(exc))}"
    if isinstance(exc, imaplib.IMAP4.error):
        text = exc.args[0] if exc.args else exc
        return one_line(text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text))
    return f"{type(exc).__name__}: {one_line(str(exc))}"


class Connection:
    """One logged-in connection to the mailbox, selected for reading and writing."""

    def __init__(self, box: Mailbox, secret: str, ca_file: str | None = None) -> None:
        self.box = box
        try:
            if box.secure:
                self.imap: imaplib.IMAP4 = _Secure(
                    box.host, box.port, ssl_context=tls_context(ca_file), timeout=TIMEOUT
                )
            else:
                self.imap = _Plain(box.host, box.port, timeout=TIMEOUT)
            self.imap.login(box.user, secret)
            kind, data = self.imap.select(_quoted(box.name))
            if kind != "OK":
                raise imaplib.IMAP4.error(f"cannot open the mailbox {box.name}: {_text(data)}")
            self.validity = int(_text(self.imap.response("UIDVALIDITY")[1]) or 0)
        except TabletopError:
            raise
        except (OSError, imaplib.IMAP4.error, ValueError) as exc:
            raise CheckFailed(f"cannot read the mail at {box}: {_why(exc)}") from None

    def uids(self, after: int) -> list[int]:
        """The UIDs of the mails after UID ``after``, in order."""
        kind, data = self.imap.uid("SEARCH", f"UID {after + 1}:*")
        self._ok(kind, data, "SEARCH")
        # "N:*" names the last mail even when its UID is below N: drop it.
        return sorted(u for u in (int(w) for w in _text(data).split()) if u > after)

    def fetch(self, uid: int) -> tuple[bytes, int]:
        """The mail of ``uid`` (left unseen) and its whole size; a mail too large
        for the referee comes as its headers only."""
        kind, data = self.imap.uid("FETCH", str(uid), "(RFC822.SIZE)")
        self._ok(kind, data, "FETCH")
        found = re.search(rb"RFC822\.SIZE (\d+)", b" ".join(d if isinstance(d, bytes) else b"" for d in data))
        size = int(found.group(1)) if found else 0
        part = "BODY.PEEK[HEADER]" if size > mailin.MAX_BYTES else "BODY.PEEK[]"
        kind, data = self.imap.uid("FETCH", str(uid), f"({part})")
        self._ok(kind, data, "FETCH")
        raw = b"".join(item[1] for item in data if isinstance(item, tuple))
        return raw[: mailin.MAX_BYTES + 1], max(size, len(raw))

    def seen(self, uid: int) -> None:
        kind, data = self.imap.uid("STORE", str(uid), "+FLAGS.SILENT", r"(\Seen)")
        self._ok(kind, data, "STORE")

    def can_idle(self) -> bool:
        return "IDLE" in self.imap.capabilities

    def idle(self, seconds: float, stop: Callable[[], bool]) -> bool:
        """Wait in IDLE up to ``seconds`` (or until ``stop()``): whether new mail came."""
        try:
            return self._idle(seconds, stop)
        except (OSError, imaplib.IMAP4.error) as exc:
            raise CheckFailed(f"lost the connection to {self.box}: {_why(exc)}") from None

    def _idle(self, seconds: float, stop: Callable[[], bool]) -> bool:
        imap = self.imap
        reader: _Lines = imap.file  # type: ignore[assignment]
        tag = imap._new_tag()  # noqa: SLF001 - IDLE is a command imaplib does not know
        imap.send(tag + b" IDLE\r\n")
        first = reader.readline()
        if not first.startswith(b"+"):
            imap.tagged_commands.pop(tag, None)
            raise CheckFailed(f"{self.box}: the server refused IDLE: {one_line(first.decode('utf-8', 'replace'))}")
        arrived = False
        deadline = time.monotonic() + seconds
        while not stop():
            left = deadline - time.monotonic()
            if left <= 0:
                break
            if not reader.ready() and not select.select([imap.sock], [], [], min(left, 1.0))[0]:
                continue
            line = reader.readline()
            if not line:
                raise CheckFailed(f"{self.box}: the server closed the connection")
            if re.match(rb"\* \d+ (EXISTS|RECENT)", line):
                arrived = True
                break
        imap.send(b"DONE\r\n")
        while True:
            line = reader.readline()
            if not line:
                raise CheckFailed(f"{self.box}: the server closed the connection")
            if re.match(rb"\* \d+ EXISTS", line):
                arrived = True
            if line.startswith(tag + b" "):
                break
        imap.tagged_commands.pop(tag, None)
        return arrived

    def noop(self) -> bool:
        """Ask the server for news: whether new mail came."""
        try:
            kind, data = self.imap.noop()
            self._ok(kind, data, "NOOP")
        except (OSError, imaplib.IMAP4.error) as exc:
            raise CheckFailed(f"lost the connection to {self.box}: {_why(exc)}") from None
        return bool(self.imap.untagged_responses.pop("EXISTS", None))

    def close(self) -> None:
        try:
            self.imap.logout()
        except (OSError, imaplib.IMAP4.error):
            pass

    def _ok(self, kind: str, data, what: str) -> None:
        if kind != "OK":
            raise imaplib.IMAP4.error(f"{what}: {_text(data)}")


def _quoted(name: str) -> str:
    return '"' + name + '"'


def _text(data) -> str:
    parts = []
    for item in data or []:
        if isinstance(item, bytes):
            parts.append(item.decode("utf-8", "replace"))
        elif isinstance(item, tuple):
            parts.append(" ".join(i.decode("utf-8", "replace") for i in item if isinstance(i, bytes)))
    return " ".join(parts)


# -- where the reading stands -------------------------------------------------------
def _state_file(directory: GameDir) -> Path:
    return directory.path / "imap.json"


def load_state(directory: GameDir, box: Mailbox) -> dict:
    try:
        state = json.loads(files.read_text(_state_file(directory), MAX_RECORD, "the IMAP state"))
    except (OSError, ValueError, TabletopError):
        return {}
    return state if isinstance(state, dict) and state.get("mailbox") == str(box) else {}


def poll(
    referee,
    connection: Connection,
    echo: Callable[[str], None],
) -> tuple[int, int]:
    """Handle every mail after the last one handled, in UID order: how many
    were handled, and how many could not be (left for the next poll)."""
    directory: GameDir = referee.dir
    box = connection.box
    state = load_state(directory, box)
    if state.get("uidvalidity") != connection.validity:
        # A new mailbox, or one whose UIDs were renumbered: read it all again
        # (the referee knows each mail it handled by its id).
        state = {"mailbox": str(box), "uidvalidity": connection.validity, "last": 0, "retry": []}
    handled = failed = 0
    retry = [u for u in state.get("retry", []) if isinstance(u, int)]
    try:
        uids = sorted(set(retry)) + connection.uids(state["last"])
    except (OSError, imaplib.IMAP4.error) as exc:
        raise CheckFailed(f"cannot read the mail at {box}: {_why(exc)}") from None
    for uid in uids:
        try:
            raw, size = connection.fetch(uid)
            report = referee.receive(raw, size=size)
        except (OSError, imaplib.IMAP4.abort) as exc:
            raise CheckFailed(f"cannot read the mail at {box}: {_why(exc)}") from None
        except Exception as exc:  # noqa: BLE001 - one mail never stops the others
            why = exc.message if isinstance(exc, TabletopError) else _why(exc)
            echo(f"uid {uid}: not handled, tried again at the next poll: {one_line(why)}")
            if uid not in retry:
                retry.append(uid)
            state["last"] = max(state["last"], uid)
            state["retry"] = retry
            write_private(_state_file(directory), json.dumps(state))
            failed += 1
            continue
        faults.point("imap-handled")
        try:
            connection.seen(uid)
        except (OSError, imaplib.IMAP4.error) as exc:
            echo(f"uid {uid}: handled, but not flagged seen: {_why(exc)}")
        faults.point("imap-flagged")
        state["last"] = max(state["last"], uid)
        state["retry"] = [u for u in retry if u != uid]
        retry = state["retry"]
        write_private(_state_file(directory), json.dumps(state))
        echo(f"uid {uid}: {report}")
        handled += 1
    return handled, failed
