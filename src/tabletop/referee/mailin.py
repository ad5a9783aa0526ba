"""Reading a player's mail: the standard library's parser, a short syntax,
and guards against answering machines.

The body (the first text/plain part) holds lines like::

    game: duel
    secret: kq7m-x2pd-w9tb-4hcn
    move: 6@f7

``player: NAME`` may say who writes (otherwise the sender's address does);
several ``move:`` lines are played in order, all or none. Blank lines and
quoted lines (``>``) are skipped; reading stops at a signature (``--``).
"""

from __future__ import annotations

import email
import email.policy
from email.message import EmailMessage
from email.utils import parseaddr

import attrs

KEYS = ("game", "player", "secret", "move")
#: Larger mails are refused: a move is a few lines.
MAX_BYTES = 256 * 1024


@attrs.frozen
class Letter:
    """A mail as the referee reads it."""

    sender: str
    message_id: str
    subject: str
    #: Why the mail is not answered at all (an auto-reply, a bounce, ...).
    ignored: str | None = None
    #: Why the mail cannot be read (answered, changes nothing).
    problem: str | None = None
    #: (line number in the body, key, value), in order.
    lines: tuple[tuple[int, str, str], ...] = ()

    def values(self, key: str) -> list[tuple[int, str]]:
        return [(n, v) for n, k, v in self.lines if k == key]


def read(raw: bytes, referee: str) -> Letter:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    sender = parseaddr(str(message.get("From", "")))[1].lower()
    message_id = str(message.get("Message-ID", "")).strip()
    subject = str(message.get("Subject", ""))
    letter = Letter(sender, message_id, subject)
    if reason := _machine(message, sender, referee):
        return attrs.evolve(letter, ignored=reason)
    if not sender:
        return attrs.evolve(letter, ignored="no sender address to answer")
    if len(raw) > MAX_BYTES:
        return attrs.evolve(
            letter,
            problem=f"the mail is too large ({len(raw) // 1024} KiB; at most {MAX_BYTES // 1024} KiB): send the lines alone, without attachments",
        )
    body, problem = _body(message)
    if problem:
        return attrs.evolve(letter, problem=problem)
    lines, problem = _lines(body)
    if problem:
        return attrs.evolve(letter, problem=problem)
    if not lines:
        return attrs.evolve(letter, problem="the mail is empty: write game:, secret: and move: lines in the body")
    return attrs.evolve(letter, lines=tuple(lines))


def _machine(message: EmailMessage, sender: str, referee: str) -> str | None:
    """Why the mail comes from a machine that must not be answered, or None."""
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = str(message.get("Precedence", "")).strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for header in ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress", "List-Id"):
        if message.get(header) is not None:
            return f"{header} header"
    local = sender.split("@", 1)[0]
    if local in ("mailer-daemon", "postmaster", "noreply", "no-reply"):
        return f"sent by {sender}"
    if str(message.get("Return-Path", "")).strip() == "<>":
        return "a bounce (empty Return-Path)"
    if message.get_content_type() == "multipart/report":
        return "a delivery report"
    if sender and sender == referee.lower():
        return "sent by the referee itself"
    return None


def _body(message: EmailMessage) -> tuple[str, str | None]:
    part = message.get_body(preferencelist=("plain",))
    if part is None:
        if message.get_body(preferencelist=("html",)) is not None:
            return (
                "",
                "the mail has only HTML: please send it as plain text (most mail programs have a plain-text mode)",
            )
        return "", "the mail has no text: write game:, secret: and move: lines in the body"
    try:
        content = part.get_content()
    except (LookupError, UnicodeDecodeError, ValueError) as exc:
        return "", f"the text cannot be decoded ({type(exc).__name__}): please send it as UTF-8 plain text"
    if not isinstance(content, str):
        return "", "the text cannot be decoded: please send it as UTF-8 plain text"
    return content, None


def _lines(body: str) -> tuple[list[tuple[int, str, str]], str | None]:
    found = []
    for number, raw in enumerate(body.splitlines(), start=1):
        line = raw.strip()
        if line in ("--", "-- ") or raw.startswith("-- "):
            break  # a signature follows
        if not line or line.startswith(">"):
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if not sep or key not in KEYS:
            return (
                [],
                f"line {number}: cannot read {line!r}: each line is 'game:', 'player:', 'secret:' or 'move:' and a value",
            )
        found.append((number, key, value.strip()))
    return found, None
