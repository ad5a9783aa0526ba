"""Blacking out secrets in the mail the referee keeps (``archive/``,
``quarantine/``).

A secret can come in many shapes: a ``secret:`` line in plain text, in an
HTML part (``<b>secret</b>: ...``), written ``*secret*:``, in the Subject,
in base64, quoted-printable or UTF-16. The kept copy is therefore written
anew from the decoded message: every text part decoded, blacked out and
written again as UTF-8; every header decoded and blacked out; every other
part (an attachment) left out, as it could hold anything. Anything shaped
like a secret the referee hands out is blacked out wherever it stands. A
message that cannot be decoded is kept as its headers alone (blacked out
the same way) with a note: never in the clear.
"""

from __future__ import annotations

import email
import email.policy
import re
from email.message import EmailMessage

#: The shape of every secret :func:`.passwords.new_secret` makes.
SHAPE = re.compile(r"(?i)(?<![a-z0-9])[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}(?![a-z0-9])")
#: "secret", markup or emphasis, a colon, then the value (up to the end of the line or a tag).
KEYED = re.compile(r"(?i)(secret(?:[\s*_]|<[^<>]{0,200}>){0,10}:(?:[ \t*_]|&nbsp;|<[^<>]{0,200}>){0,10})([^\r\n<]+)")
BLACK = "(redacted)"
#: At most this much of the headers of a message that cannot be decoded is kept.
HEADERS_KEPT = 64 * 1024


def text(value: str) -> str:
    """``value`` with every secret in it blacked out."""
    return SHAPE.sub(BLACK, KEYED.sub(lambda m: m.group(1) + BLACK, value))


def message(raw: bytes) -> bytes:
    """The copy of ``raw`` to keep: decoded, blacked out, written anew."""
    try:
        mail = email.message_from_bytes(raw, policy=email.policy.default)
        _headers(mail)
        for part in mail.walk():
            if part.is_multipart():
                continue
            _headers(part)
            if part.get_content_maintype() == "text":
                content = part.get_content()
                part.set_content(text(content), subtype=part.get_content_subtype(), charset="utf-8", cte="8bit")
            else:
                part.set_content(b"(an attachment, not kept)", maintype="application", subtype="octet-stream")
        kept = mail.as_bytes(policy=email.policy.SMTPUTF8)
    except Exception:  # noqa: BLE001 - anything the parser cannot rewrite is kept as its headers only
        return headers_only(raw) + b"\r\n(The body could not be decoded to black out its secrets: it is not kept.)\r\n"
    if SHAPE.search(kept.decode("utf-8", "replace")):
        return headers_only(raw) + b"\r\n(The body could not be blacked out: it is not kept.)\r\n"
    return kept


def headers_only(raw: bytes) -> bytes:
    """The header block of ``raw`` (at most :data:`HEADERS_KEPT` bytes), blacked out line by line."""
    head = raw[:HEADERS_KEPT]
    for end in (b"\r\n\r\n", b"\n\n"):
        if end in head:
            head = head.split(end, 1)[0]
            break
    lines = []
    for line in head.splitlines():
        clean = text(line.decode("utf-8", "replace"))
        lines.append(clean.encode("utf-8"))
    return b"\r\n".join(lines) + b"\r\n"


def _headers(part: EmailMessage) -> None:
    for name, value in list(part.items()):
        try:
            shown = str(value)
        except Exception:  # noqa: BLE001 - a header that cannot be decoded: dropped
            shown = ""
        clean = text(shown)
        if clean != shown or not shown:
            del part[name]
            if shown:
                part[name] = clean
