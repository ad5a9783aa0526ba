"""Sending the outbox over SMTP, each mail on its own.

A mail leaves the outbox only once the server has accepted it. A temporary
refusal (4xx) keeps it for a later try, with a growing wait between tries; a
permanent one (5xx) moves it to ``undeliverable/`` and tells the game master.
One refused mail never holds back the others. With the server down nothing is
lost: every mail waits for the next send. An address with letters beyond
ASCII is sent with SMTPUTF8 where the server offers it; where it does not,
the mail is set aside as undeliverable, with that reason.

With TLS (implicit, or STARTTLS) the server's certificate and name are
checked, always: a server that cannot prove it is the one named gets no
password and no mail. Nothing crosses the network in the clear unless asked
for by name: the default takes STARTTLS whenever the server offers it, and a
server on another machine that offers no TLS gets no password and no mail
(the welcome mails carry the players' secrets); even asked for by name, the
clear carries no password to another machine.

A crash after the server accepted a mail and before it was moved to
``sent/`` sends it again on the next run, with the same Message-ID (SMTP
gives no way to make acceptance and the move one step).
"""

from __future__ import annotations

import ipaddress
import json
import os
import smtplib
import ssl
import time
from email import message_from_bytes, policy
from email.utils import getaddresses

import attrs

from ..base.errors import TabletopError, UsageError
from ..log import files
from . import faults
from .gamedir import MAX_RECORD, GameDir, one_line, redact, write_private

#: Waits between tries of a temporarily refused mail (seconds), then the last one repeats.
BACKOFF = (60, 300, 900, 3600, 4 * 3600)


@attrs.define
class Outcome:
    sent: int = 0
    waiting: int = 0
    #: Why the server could not be reached at all, if so.
    problem: str | None = None
    #: (file name, recipients, reason) of mails set aside for good.
    refused: list[tuple[str, str, str]] = attrs.Factory(list)
    #: (file name, reason) of mails kept for a later try.
    deferred: list[tuple[str, str]] = attrs.Factory(list)


#: How the connection to the SMTP server is secured.
SECURITY = ("auto", "starttls", "tls", "none")


class InTheClear(UsageError):
    """Sending would carry the password or the players' mail across the
    network in the clear: nothing is sent, the mail waits in the outbox."""


def send(
    directory: GameDir, smtp: str, now: float | None = None, *, security: str = "auto", ca_file: str | None = None
) -> Outcome:
    """Deliver what waits in the outbox and is due (under ``send.lock``).

    ``security``: "tls" (implicit TLS, as on port 465), "starttls" (as on
    port 587), "none" (the clear, asked for by name), or "auto": "tls" on
    port 465, else STARTTLS whenever the server offers it (always on 587 or
    with ``TABLETOP_SMTP_STARTTLS=1``), else the clear to a server on this
    machine only. The server's certificate is always checked, against the
    system's trust store or ``ca_file``. Raises :class:`InTheClear` rather
    than send the password, or any mail under "auto", to another machine in
    the clear."""
    now = time.time() if now is None else now
    with directory.locked("send.lock"):
        return _send(directory, smtp, now, security, ca_file)


def tls_context(ca_file: str | None) -> ssl.SSLContext:
    """A client context that checks the certificate and the host name:
    against ``ca_file`` when given (a private server's CA), else the system's."""
    try:
        return ssl.create_default_context(cafile=ca_file)
    except (OSError, ssl.SSLError) as exc:
        raise UsageError(f"--ca-file {ca_file}: cannot read the CA certificates ({exc})") from None


def security_of(smtp: str, security: str) -> str:
    """What ``security`` asks of the server at ``smtp`` before it is asked
    anything: "auto" stays "auto" (STARTTLS if offered) but on the ports
    that say it (465, 587)."""
    if security != "auto":
        return security
    port = smtp.rpartition(":")[2]
    if port == "465":
        return "tls"
    if port == "587" or os.environ.get("TABLETOP_SMTP_STARTTLS") == "1":
        return "starttls"
    return "auto"


def on_this_machine(sock) -> bool:
    """Whether the connection's other end is this machine (a loopback
    address): what is sent on it never crosses a network."""
    try:
        address = ipaddress.ip_address(sock.getpeername()[0].split("%", 1)[0])
    except (OSError, ValueError, IndexError, AttributeError):
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback


def _secure(server: smtplib.SMTP, smtp: str, security: str, ca_file: str | None, user: str | None) -> None:
    """Take TLS where it is asked for or offered; refuse the clear where it
    would carry a password or the players' mail off this machine."""
    if security == "tls":
        return
    if security == "starttls" or (security == "auto" and server.has_extn("starttls")):
        # Never in the clear after this: a server that does not offer
        # STARTTLS, or whose certificate is not good, gets nothing.
        server.starttls(context=tls_context(ca_file))
        server.ehlo()
        return
    if on_this_machine(server.sock):
        return
    if security == "auto":
        raise InTheClear(
            f"{smtp} offers no STARTTLS: the password and the players' mail (their secrets) would cross the "
            "network in the clear; use its TLS port (smtp_security=tls on 465, starttls on 587), or "
            "'tabletop pbem set DIR smtp_security=none' to send in the clear as asked (never with a password)"
        )
    if user:
        raise InTheClear(
            f"{smtp}: smtp_security=none would send the SMTP password in the clear to another machine; "
            "use TLS (smtp_security=tls or starttls), or a server on this machine"
        )


def _tries_file(directory: GameDir):
    return directory.path / "delivery.json"


def _load_tries(directory: GameDir) -> dict:
    try:
        return json.loads(files.read_text(_tries_file(directory), MAX_RECORD, "delivery state"))
    except (OSError, ValueError, TabletopError):
        return {}


def _send(directory: GameDir, smtp: str, now: float, security: str, ca_file: str | None) -> Outcome:
    outcome = Outcome()
    tries = _load_tries(directory)
    before = json.dumps(tries, sort_keys=True)
    waiting = [p for p in directory.waiting() if tries.get(p.name, {}).get("next", 0) <= now]
    outcome.waiting = len(directory.waiting())
    if not waiting:
        return outcome
    host, _, port = smtp.rpartition(":")
    security = security_of(smtp, security)
    try:
        if security == "tls":
            server: smtplib.SMTP = smtplib.SMTP_SSL(
                host or "localhost", int(port or 465), timeout=30, context=tls_context(ca_file)
            )
        else:
            server = smtplib.SMTP(host or "localhost", int(port or 25), timeout=30)
    except (OSError, smtplib.SMTPException, ValueError) as exc:
        outcome.problem = f"cannot deliver through {smtp} ({_why(exc)})"
        return outcome
    try:
        server.ehlo_or_helo_if_needed()
        user = os.environ.get("TABLETOP_SMTP_USER")
        _secure(server, smtp, security, ca_file, user)
        if user:
            server.login(user, os.environ.get("TABLETOP_SMTP_PASSWORD", ""))
        utf8 = server.has_extn("smtputf8")
        for path in waiting:
            _one(directory, server, path, utf8, tries, now, outcome)
    except (OSError, smtplib.SMTPException) as exc:
        outcome.problem = f"cannot deliver through {smtp} ({_why(exc)})"
    finally:
        try:
            server.quit()
        except (OSError, smtplib.SMTPException):
            pass
        if json.dumps(tries, sort_keys=True) != before:
            write_private(_tries_file(directory), json.dumps(tries, sort_keys=True))
    outcome.waiting = len(directory.waiting())
    return outcome


def _one(directory: GameDir, server: smtplib.SMTP, path, utf8: bool, tries: dict, now: float, outcome: Outcome) -> None:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return  # another run took it
    try:
        mail = message_from_bytes(raw, policy=policy.default)
        sender = [a for _, a in getaddresses([str(mail["From"])])][0]
        rcpts = [a for _, a in getaddresses([str(mail["To"])]) if a]
        if not rcpts:
            raise ValueError("no recipient")
    except Exception as exc:  # a mail we wrote and cannot read back: set aside, never retried
        _aside(directory, path, raw, "?", f"unreadable mail ({type(exc).__name__})", outcome)
        return
    needs_utf8 = not (sender.isascii() and all(r.isascii() for r in rcpts))
    if needs_utf8 and not utf8:
        _aside(directory, path, raw, ", ".join(rcpts), "the server does not offer SMTPUTF8 for this address", outcome)
        return
    try:
        refused = server.sendmail(sender, rcpts, raw, mail_options=["SMTPUTF8"] if needs_utf8 else [])
    except smtplib.SMTPRecipientsRefused as exc:
        codes = [code for code, _ in exc.recipients.values()]
        reason = "; ".join(f"{r}: {c} {_text(m)}" for r, (c, m) in exc.recipients.items())
        if all(code >= 500 for code in codes):
            _aside(directory, path, raw, ", ".join(rcpts), reason, outcome)
        else:
            _defer(path, reason, tries, now, outcome)
        _reset(server)
        return
    except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as exc:
        reason = f"{exc.smtp_code} {_text(exc.smtp_error)}"
        if exc.smtp_code >= 500:
            _aside(directory, path, raw, ", ".join(rcpts), reason, outcome)
        else:
            _defer(path, reason, tries, now, outcome)
        _reset(server)
        return
    except smtplib.SMTPNotSupportedError as exc:
        _aside(directory, path, raw, ", ".join(rcpts), one_line(str(exc)), outcome)
        return
    del refused  # some recipients may have refused, the others accepted: the mail went out
    faults.point("accepted")
    directory.folder(directory.sent)
    # The copy is for the record (and tells a mail queued again after a crash
    # that it went): written in full before the outbox's copy goes.
    write_private(directory.sent / path.name, redact(raw), durable=False)
    path.unlink(missing_ok=True)
    tries.pop(path.name, None)
    outcome.sent += 1


def _why(exc: BaseException) -> str:
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"its certificate is not trusted: {one_line(exc.verify_message or str(exc))}"
    return f"{type(exc).__name__}: {one_line(str(exc))}"


def _text(message: bytes | str) -> str:
    return one_line(message.decode("utf-8", "replace") if isinstance(message, bytes) else message)


def _reset(server: smtplib.SMTP) -> None:
    try:
        server.rset()
    except (OSError, smtplib.SMTPException):
        pass


def _defer(path, reason: str, tries: dict, now: float, outcome: Outcome) -> None:
    entry = tries.setdefault(path.name, {"tries": 0})
    entry["tries"] += 1
    entry["next"] = now + BACKOFF[min(entry["tries"], len(BACKOFF)) - 1]
    entry["last"] = reason
    outcome.deferred.append((path.name, reason))


def _aside(directory: GameDir, path, raw: bytes, rcpts: str, reason: str, outcome: Outcome) -> None:
    directory.folder(directory.undeliverable)
    write_private(directory.undeliverable / path.name, redact(raw))
    write_private(directory.undeliverable / (path.name + ".why"), f"{rcpts}: {one_line(reason)}\n")
    path.unlink(missing_ok=True)
    outcome.refused.append((path.name, rcpts, reason))
