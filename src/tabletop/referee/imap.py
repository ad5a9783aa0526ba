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
"handled before; nothing to do". Of a mail only its first 256 KiB (what the
referee reads) are ever fetched, however large it is.

``watch`` keeps the connection open in IMAP IDLE (RFC 2177) where the
server offers it, so a mail is refereed as it arrives; a server without
IDLE is asked with NOOP every few seconds instead.

Every answer of the server is read within bounds of size and time
(:mod:`.imapread`): a server that breaks them is left with one line naming
it and what it did, and nothing read so far is lost.
"""

from __future__ import annotations

import contextlib
import imaplib
import ipaddress
import itertools
import json
import os
import re
import select
import ssl
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

import attrs

from ..base.errors import CheckFailed, TabletopError, UsageError, quote
from ..log import files
from . import faults, mailin
from .delivery import tls_context
from .gamedir import MAX_RECORD, GameDir, one_line, write_private
from .imapread import ANSWER, GRACE, LITERAL, TIMEOUT, Answers, Fault, Plain, Secure, ServerFault
from .settings import CLOCKS_DIFFER

__all__ = ["Connection", "Fetched", "Mailbox", "Polled", "ServerFault", "load_state", "mailbox", "password", "poll"]


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


@attrs.frozen
class Fetched:
    """A mail as fetched: its first :data:`FETCHED` bytes, its whole size, and
    when the server says it arrived (seconds since the epoch, if it says)."""

    raw: bytes
    size: int
    arrived: float | None


#: The most of one mail fetched: what the referee reads, and one byte to know it is more.
FETCHED = mailin.MAX_BYTES + 1
#: UIDs asked for in one SEARCH: its answer stays some 140 KB at most.
WINDOW = 20_000


#: What OpenSSL says when the other end answered with something that is not TLS.
_NOT_TLS = (
    "WRONG_VERSION_NUMBER",
    "UNKNOWN_PROTOCOL",
    "PACKET_LENGTH_TOO_LONG",
    "HTTP_REQUEST",
    "RECORD_LAYER_FAILURE",
)


def _why(exc: BaseException, box: Mailbox | None = None) -> str:
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"its certificate is not trusted: {one_line(exc.verify_message or str(exc))}"
    if isinstance(exc, ssl.SSLError) and (exc.reason in _NOT_TLS or any(w in str(exc) for w in _NOT_TLS)):
        port = f" on port {box.port}" if box is not None else ""
        return (
            f"the server did not speak TLS{port} (a plain IMAP port?): imaps:// needs the server's TLS port "
            "(993 by default); nothing was sent, the password neither"
        )
    if isinstance(exc, imaplib.IMAP4.error):
        text = exc.args[0] if exc.args else exc
        return one_line(text.decode("utf-8", "replace") if isinstance(text, bytes) else str(text))
    return f"{type(exc).__name__}: {one_line(str(exc))}"


class Connection:
    """One logged-in connection to the mailbox, selected for reading and
    writing; every answer read within bounds (:mod:`.imapread`), and none
    after ``deadline`` (``time.monotonic()``; the steps that end the
    connection well, :data:`~.imapread.GRACE` seconds after)."""

    def __init__(self, box: Mailbox, secret: str, ca_file: str | None = None, deadline: float | None = None) -> None:
        self.box = box
        self.broken = False
        self.deadline = deadline
        wait = TIMEOUT if deadline is None else max(0.1, min(TIMEOUT, deadline - time.monotonic()))
        try:
            if box.secure:
                self.imap: imaplib.IMAP4 = Secure(
                    box.host, box.port, ssl_context=tls_context(ca_file), timeout=wait, deadline=deadline
                )
            else:
                self.imap = Plain(box.host, box.port, timeout=wait, deadline=deadline)
            self._call("LOGIN", self.imap.login, box.user, secret)
            kind, data = self._call("SELECT", self.imap.select, _quoted(box.name))
            if kind != "OK":
                raise imaplib.IMAP4.error(f"cannot open the mailbox {box.name}: {_text(data)}")
            validity = _numbers(self.imap.response("UIDVALIDITY")[1], "UIDVALIDITY", box)
            self.validity = validity[-1] if validity else 0
        except TabletopError:
            self._hang_up()
            raise
        except Fault as exc:
            self._hang_up()
            raise ServerFault(f"{box}: {exc}") from None
        except (OSError, imaplib.IMAP4.error, ValueError) as exc:
            self._hang_up()
            raise CheckFailed(f"cannot read the mail at {box}: {_why(exc, box)}") from None

    def _hang_up(self) -> None:
        with contextlib.suppress(OSError, AttributeError):
            self.imap.shutdown()

    def _call(
        self,
        what: str,
        command,
        *args,
        size: int = ANSWER,
        literal: int = LITERAL,
        wait: float = TIMEOUT,
        closing: bool = False,
    ):
        """Run one imaplib command, its answer bounded: a bound broken is a
        :class:`ServerFault`, a connection lost a CheckFailed (the connection
        is then given up)."""
        imap = self.imap
        # imaplib keeps every untagged answer until asked: keep only the last EXISTS (news of mail).
        exists = imap.untagged_responses.get("EXISTS")
        imap.untagged_responses.clear()
        if exists:
            imap.untagged_responses["EXISTS"] = exists[-1:]
        imap.answers.expect(what, size, literal, wait, closing)  # type: ignore[attr-defined]
        try:
            return command(*args)
        except Fault as exc:
            self.broken = True
            raise ServerFault(f"{self.box}: {exc}") from None
        except (OSError, imaplib.IMAP4.abort) as exc:
            self.broken = True
            if isinstance(exc, imaplib.IMAP4.abort) and _MALFORMED.search(str(exc)):
                raise ServerFault(f"{self.box}: its answer to {what} is not IMAP: {_why(exc)}") from None
            raise CheckFailed(f"lost the connection to {self.box}: {_why(exc)}") from None

    def uids(self, after: int, since: float | None = None) -> Iterator[int]:
        """The UIDs of the mails after UID ``after`` (and, with ``since``, that
        arrived on that day or later), in order, asked for a window at a time."""
        kind, data = self._call("SEARCH", self.imap.uid, "SEARCH", "UID *")
        self._ok(kind, data, "SEARCH")
        top = max(_numbers(data, "SEARCH", self.box), default=0)
        day = f" SINCE {_day(since)}" if since is not None else ""
        low = after + 1
        while low <= top:
            high = min(top, low + WINDOW - 1)
            kind, data = self._call("SEARCH", self.imap.uid, "SEARCH", f"UID {low}:{high}{day}")
            self._ok(kind, data, "SEARCH")
            # Only the window's: "N:M" never names more (but a server that does is not followed).
            yield from sorted({u for u in _numbers(data, "SEARCH", self.box) if low <= u <= high})
            low = high + 1

    def fetch(self, uid: int) -> Fetched | None:
        """The mail of ``uid`` (left unseen): its first :data:`FETCHED` bytes,
        asked for as such, so that a mail of any size (or a header of 40 MB)
        costs no more; None if the box has no such mail."""
        kind, data = self._call(
            "FETCH",
            self.imap.uid,
            "FETCH",
            str(uid),
            f"(UID RFC822.SIZE INTERNALDATE BODY.PEEK[]<0.{FETCHED}>)",
            size=FETCHED + LITERAL,
            literal=FETCHED,
        )
        self._ok(kind, data, "FETCH")
        return _fetched(uid, data)

    def arrived(self, uid: int) -> float | None:
        """When the mail of ``uid`` reached the mailbox (the server's
        INTERNALDATE), asked for alone: nothing of the mail is fetched."""
        kind, data = self._call("FETCH", self.imap.uid, "FETCH", str(uid), "(UID INTERNALDATE)")
        self._ok(kind, data, "FETCH")
        for item in data or []:
            line = bytes(item[0]) if isinstance(item, tuple) else item
            if isinstance(line, bytes):
                found = re.search(rb"\bUID (\d{1,10})\b", line)
                if found and int(found.group(1)) == uid:
                    return _arrived(line)
        return None

    def seen(self, uid: int) -> None:
        kind, data = self._call("STORE", self.imap.uid, "STORE", str(uid), "+FLAGS.SILENT", r"(\Seen)")
        self._ok(kind, data, "STORE")

    def can_idle(self) -> bool:
        return "IDLE" in self.imap.capabilities

    def idle(self, seconds: float, stop: Callable[[], bool]) -> bool:
        """Wait in IDLE up to ``seconds`` (or until ``stop()``, or the
        deadline): whether new mail came."""
        try:
            return self._idle(seconds, stop)
        except Fault as exc:
            self.broken = True
            raise ServerFault(f"{self.box}: {exc}") from None
        except (OSError, imaplib.IMAP4.error) as exc:
            self.broken = True
            raise CheckFailed(f"lost the connection to {self.box}: {_why(exc)}") from None

    def _idle(self, seconds: float, stop: Callable[[], bool]) -> bool:
        imap = self.imap
        answers: Answers = imap.answers  # type: ignore[attr-defined]
        tag = imap._new_tag()  # noqa: SLF001 - IDLE is a command imaplib does not know
        answers.expect("IDLE")
        imap.send(tag + b" IDLE\r\n")
        first = answers.readline()
        if not first.startswith(b"+"):
            imap.tagged_commands.pop(tag, None)
            self.broken = True
            raise CheckFailed(f"{self.box}: the server refused IDLE: {one_line(first.decode('utf-8', 'replace'))}")
        arrived = False
        ends = time.monotonic() + seconds
        if self.deadline is not None:
            ends = min(ends, self.deadline)
        # What the server says while idling: a few lines; a flood is a fault.
        answers.expect("IDLE", wait=seconds + TIMEOUT)
        while not stop():
            left = ends - time.monotonic()
            if left <= 0:
                break
            if not answers.ready() and not select.select([imap.sock], [], [], min(left, 1.0))[0]:
                continue
            line = answers.readline()
            if not line:
                raise CheckFailed(f"{self.box}: the server closed the connection")
            if re.match(rb"\* \d+ (EXISTS|RECENT)", line):
                arrived = True
                break
        answers.expect("DONE", closing=True)
        imap.send(b"DONE\r\n")
        while True:
            line = answers.readline()
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
            kind, data = self._call("NOOP", self.imap.noop)
            self._ok(kind, data, "NOOP")
        except imaplib.IMAP4.error as exc:
            self.broken = True
            raise CheckFailed(f"lost the connection to {self.box}: {_why(exc)}") from None
        return bool(self.imap.untagged_responses.pop("EXISTS", None))

    def close(self) -> None:
        """Log out (within a few seconds), or, from a server that broke its
        bounds, just hang up."""
        if not self.broken:
            with contextlib.suppress(TabletopError, OSError, imaplib.IMAP4.error):
                self._call("LOGOUT", self.imap.logout, wait=GRACE, closing=True)
                return
        self._hang_up()

    def _ok(self, kind: str, data, what: str) -> None:
        if kind != "OK":
            raise imaplib.IMAP4.error(f"{what}: {_text(data)}")


#: What imaplib says of an answer that is not IMAP (rather than of a connection gone).
_MALFORMED = re.compile(r"unterminated line|unexpected response|unexpected tagged response")

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _day(epoch: float) -> str:
    """A day as IMAP's SEARCH writes it (English month names, whatever the locale)."""
    t = time.gmtime(epoch)
    return f"{t.tm_mday}-{_MONTHS[t.tm_mon - 1]}-{t.tm_year}"


def _numbers(data, what: str, box: Mailbox) -> list[int]:
    """The numbers of an answer (a SEARCH, a response code): anything else is a fault."""
    words = _text(data).split()
    for word in words:
        if not (word.isascii() and word.isdigit() and len(word) <= 10 and int(word) < 2**32):
            raise ServerFault(f"{box}: its answer to {what} is not a list of numbers: {quote(word)}")
    return [int(w) for w in words]


def _fetched(uid: int, data) -> Fetched | None:
    """The mail of ``uid`` in a FETCH answer (other mails' news passed over)."""
    items = [item for item in data or [] if item is not None]
    for i, item in enumerate(items):
        if isinstance(item, tuple):
            tail = items[i + 1] if i + 1 < len(items) and isinstance(items[i + 1], bytes) else b""
            text, body = bytes(item[0]) + b" " + tail, bytes(item[1])
        elif isinstance(item, bytes) and re.search(rb'BODY\[\](<0>)? ("")', item):
            text, body = item, b""
        else:
            continue
        found = re.search(rb"\bUID (\d{1,10})\b", text)
        if not found or int(found.group(1)) != uid:
            continue
        size = re.search(rb"RFC822\.SIZE (\d{1,12})\b", text)
        return Fetched(body[:FETCHED], max(int(size.group(1)) if size else 0, len(body)), _arrived(text))
    return None


def _arrived(text: bytes) -> float | None:
    try:
        when = imaplib.Internaldate2tuple(text)
        return time.mktime(when) if when else None
    except (KeyError, ValueError, OverflowError):
        return None


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


@attrs.frozen
class Polled:
    handled: int
    #: Mails that could not be handled (tried again at the next poll).
    failed: int
    #: Whether the poll stopped at its deadline with mail still to read.
    unfinished: bool = False


#: How far before a game's start its first poll looks (the server's days are its own).
BEFORE_START = 2 * 86400


#: What came of a mail in a poll: handled (or passed to the games before
#: this one), or failed (tried again at the next poll).
HANDLED, FAILED = "handled", "failed"


def poll(
    referee,
    connection: Connection,
    echo: Callable[[str], None],
    deadline: float | None = None,
) -> Polled:
    """Handle every mail after the last one handled, in UID order, until
    ``deadline`` (``time.monotonic()``; the mail not yet fetched waits for
    the next poll). A mail the box does not have (a UID the server named
    wrongly, or one deleted meanwhile) is passed over and moves nothing on:
    the last UID recorded is always one that was handled.

    A game's first poll of a mailbox (or a mailbox whose UIDs were renumbered)
    asks only for the mail of the days since the game began: a mailbox that
    served other games before keeps their old mail to itself. Each mail's
    arrival goes to the referee, which answers nothing older than the game."""
    created = referee.settings.created
    progress, since = _Progress.begin(referee.dir, connection, created)
    begun = created - CLOCKS_DIFFER if isinstance(created, (int, float)) else None
    counted = {HANDLED: 0, FAILED: 0}
    for uid in itertools.chain(sorted(set(progress.retry)), connection.uids(progress.state["last"], since)):
        if deadline is not None and time.monotonic() >= deadline:
            return Polled(counted[HANDLED], counted[FAILED], unfinished=True)
        fetched = _fetch(connection, echo, progress, uid, begun, ask_first=since is not None)
        if isinstance(fetched, Fetched):
            counted[_hand_over(referee, connection, echo, progress, uid, fetched)] += 1
        elif fetched is not None:
            counted[fetched] += 1
    return Polled(counted[HANDLED], counted[FAILED])


class _Progress:
    """Where the reading of a mailbox stands (``imap.json``): its
    UIDVALIDITY, the last UID handled and the UIDs to try again, recorded
    as each mail is done with."""

    def __init__(self, directory: GameDir, state: dict) -> None:
        self.directory = directory
        self.state = state
        self.retry = [u for u in state.get("retry", []) if isinstance(u, int)]

    @classmethod
    def begin(cls, directory: GameDir, connection: Connection, created: object) -> tuple[_Progress, float | None]:
        """Where the reading stands, and since when to ask for mail (None:
        every mail after the last one handled)."""
        box = connection.box
        state = load_state(directory, box)
        since = None
        if state.get("uidvalidity") != connection.validity:
            # A new mailbox, or one whose UIDs were renumbered: read it again
            # from the game's start (the referee knows each mail it handled by its id).
            state = {"mailbox": str(box), "uidvalidity": connection.validity, "last": 0, "retry": []}
            since = created - BEFORE_START if isinstance(created, (int, float)) else None
        return cls(directory, state), since

    def record(self, uid: int | None = None) -> None:
        """Write where the reading stands; ``uid``: read up to that one."""
        if uid is not None:
            self.state["last"] = max(self.state["last"], uid)
        self.state["retry"] = self.retry
        write_private(_state_file(self.directory), json.dumps(self.state))

    def again(self, uid: int, passed: bool = False) -> None:
        """Try ``uid`` again at the next poll; ``passed``: the reading goes
        on past it all the same."""
        if uid not in self.retry:
            self.retry.append(uid)
        self.record(uid if passed else None)

    def passed_over(self, uid: int) -> None:
        """The box has no mail ``uid``: not tried again, and the reading not moved on by it."""
        if uid in self.retry:
            self.retry.remove(uid)
            self.record()

    def done(self, uid: int) -> None:
        """``uid`` is done with: never read again."""
        self.retry = [u for u in self.retry if u != uid]
        self.record(uid)


def _fetch(
    connection: Connection,
    echo: Callable[[str], None],
    progress: _Progress,
    uid: int,
    begun: float | None,
    ask_first: bool,
) -> Fetched | str | None:
    """Mail ``uid``, or what came of it: HANDLED when it arrived before the
    game ``begun`` (``ask_first``: asked of the server before it is
    fetched), FAILED when the server said no, None when the box has no such
    mail (it moves nothing on)."""
    try:
        # The first reading of a mailbox that served other games: their
        # mail from before this game began is passed over unread.
        when = connection.arrived(uid) if ask_first and begun is not None else None
        if when is not None and begun is not None and when < begun:
            progress.record(uid)
            echo(f"uid {uid}: arrived before the game began; left to the games before it")
            return HANDLED
        fetched = connection.fetch(uid)
    except imaplib.IMAP4.error as exc:  # the server said NO to this one mail
        echo(f"uid {uid}: not fetched, tried again at the next poll: {_why(exc)}")
        progress.again(uid)
        return FAILED
    if fetched is None:
        progress.passed_over(uid)
        return None
    if begun is not None and fetched.arrived is not None and fetched.arrived < begun:
        progress.done(uid)
        echo(f"uid {uid}: arrived before the game began; left to the games before it")
        return HANDLED
    return fetched


def _hand_over(
    referee, connection: Connection, echo: Callable[[str], None], progress: _Progress, uid: int, fetched: Fetched
) -> str:
    """Mail ``uid`` handed to the referee, then flagged seen, then recorded:
    HANDLED, or FAILED (tried again at the next poll). A connection lost
    while flagging it is raised once the mail is recorded."""
    try:
        report = referee.receive(fetched.raw, size=fetched.size, arrived=fetched.arrived)
    except Exception as exc:  # noqa: BLE001 - one mail never stops the others
        why = exc.message if isinstance(exc, TabletopError) else _why(exc)
        echo(f"uid {uid}: not handled, tried again at the next poll: {one_line(why)}")
        progress.again(uid, passed=True)
        return FAILED
    faults.point("imap-handled")
    lost: TabletopError | None = None
    try:
        connection.seen(uid)
    except imaplib.IMAP4.error as exc:
        echo(f"uid {uid}: handled, but not flagged seen: {_why(exc)}")
    except TabletopError as exc:  # the connection is gone: what was handled is recorded first
        lost = exc
    faults.point("imap-flagged")
    progress.done(uid)
    echo(f"uid {uid}: {report}")
    if lost is not None:
        raise lost
    return HANDLED
