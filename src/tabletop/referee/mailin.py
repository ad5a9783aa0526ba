"""Reading a player's mail: the standard library's parser, a short syntax read
out of whatever else the mail program wrote, and guards against answering
machines.

The body (the text/plain part; else the HTML part, as text) holds lines like::

    game: duel
    secret: kq7m-x2pd-w9tb-4hcn
    move: 6@f7

Only lines that start with a key the syntax knows are read; greetings,
comments and other prose are passed over. Reading stops where a mail program
starts quoting or signing: a ``>`` line after the keys, "On ... wrote:",
Outlook's ``____`` line or ``From:`` block, "-----Original Message-----",
``-- `` and "Sent from my ...".
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import re
from email.message import EmailMessage
from email.utils import getaddresses, parsedate_to_datetime

import attrs

#: Keys written ``key: value`` that name no command: whose mail it is. The
#: commands' own words are the commands' (:func:`.commands.words`), handed in
#: by the reader of the mail: the commands run on the referee, which reads
#: mail through this module.
ENVELOPE = ("game", "player", "secret", "claim")
#: Larger mails are refused: a move is a few lines.
MAX_BYTES = 256 * 1024
#: More key lines than this is not a mail a player wrote.
MAX_LINES = 200

_KEY = re.compile(r"^\s*[*_]?\s*([A-Za-z]+)\s*[*_]?\s*:\s*(.*?)\s*$")
_BARE = re.compile(r"^\s*([A-Za-z]+)\s*:?\s*[.!]?\s*$")
_ATTRIBUTIONS = (
    re.compile(r"^\s*>?\s*On\b.*(wrote|écrit|schrieb)\s*:?\s*$", re.I),
    re.compile(r"^\s*(Le|Am|El|Il)\b.*(a écrit|schrieb|escribió|scritto)\s*:?\s*$", re.I),
)
_STOPS = (
    re.compile(r"^\s*-{2,}\s*(Original Message|Forwarded message|Message d'origine)\s*-{2,}\s*$", re.I),
    re.compile(r"^\s*_{8,}\s*$"),
    re.compile(r"^\s*Sent from my\b", re.I),
    re.compile(r"^\s*Get Outlook for\b", re.I),
    re.compile(r"^--\s?$"),
)
_WROTE_TAIL = re.compile(r"(wrote|écrit|schrieb)\s*:\s*$", re.I)
_HEADER_BLOCK = re.compile(r"^\s*(From|De|Von|Sent|Date|To|Subject)\s*:", re.I)


@attrs.frozen
class Letter:
    """A mail as the referee reads it."""

    sender: str
    message_id: str
    #: Why the mail is not answered at all (an auto-reply, a bounce, ...).
    ignored: str | None = None
    #: Why the mail cannot be read (answered, changes nothing).
    problem: str | None = None
    #: (line number in the body, key, value), in order.
    lines: tuple[tuple[int, str, str], ...] = ()
    #: A delivery report: the text, to find whose address bounced.
    report: str = ""
    #: The games the Subject names by their tag ("Re: [duel] Glüx: ann, ben").
    tags: tuple[str, ...] = ()
    #: The Date its sender's mail program wrote (one line), or "".
    date: str = ""

    def values(self, key: str) -> list[tuple[int, str]]:
        return [(n, v) for n, k, v in self.lines if k == key]

    def has(self, key: str) -> bool:
        return any(k == key for _, k, _ in self.lines)


def clean_header(value: object) -> str:
    """A header's text on one line, control characters out (an encoded word
    may hide CR or LF)."""
    return " ".join("".join(c if c.isprintable() else " " for c in str(value)).split())


def fallback_id(raw: bytes) -> str:
    """An id for a mail without a Message-ID: a hash of what a relay leaves
    as it is (the headers the sender wrote and the body), so that the same
    mail delivered again through another relay (with Received: lines of its
    own, other line ends) has the same id."""
    text = raw.replace(b"\r\n", b"\n")
    head, _, body = text.partition(b"\n\n")
    kept = []
    for line in re.split(rb"\n(?![ \t])", head):
        name = line.split(b":", 1)[0].strip().lower()
        if name in (b"from", b"to", b"cc", b"date", b"subject", b"in-reply-to", b"references"):
            kept.append(b" ".join(line.split()))
    digest = hashlib.sha256(
        b"\n".join(sorted(kept)) + b"\n\n" + b"\n".join(row.rstrip() for row in body.split(b"\n")).strip()
    )
    return f"<sha-{digest.hexdigest()[:32]}>"


def bounded(stream, size: int | None = None) -> tuple[bytes, int]:
    """Read a mail from a binary ``stream`` keeping at most its first
    :data:`MAX_BYTES` + 1 bytes (the rest is read and dropped, so that the
    writer of a pipe is not cut off): the bytes kept and the whole size."""
    kept = stream.read(MAX_BYTES + 1)
    total = len(kept)
    if total > MAX_BYTES:
        while chunk := stream.read(1 << 20):
            total += len(chunk)
    return kept, total


def message_id_of(message: EmailMessage) -> str:
    text = clean_header(message.get("Message-ID", ""))
    found = re.search(r"<[^<>\s]{1,250}>", text)
    return found.group(0) if found else ""


def sender_of(message: EmailMessage) -> str:
    """The From address, lower case, or "" when there is not exactly one good one."""
    try:
        pairs = getaddresses([clean_header(message.get("From", ""))])
    except Exception:  # a header the parser cannot split: no sender
        return ""
    addresses = [a for _, a in pairs if a]
    if len(addresses) != 1 or not valid_address(addresses[0]):
        return ""
    return addresses[0].lower()


def date_of(message: EmailMessage) -> str:
    """The Date header on one line ("" without one, or one the parser cannot read)."""
    try:
        return clean_header(message.get("Date", ""))[:200]
    except Exception:  # a header the parser cannot decode: no date
        return ""


def content_id(letter: Letter) -> str:
    """An id for a mail by what it says, whatever its Message-ID: its
    sender, its Date and the lines the referee reads (the secret's aside,
    which is kept only as a slow hash). The same mail delivered again under
    a new Message-ID (a relay, a list, a mail program that sends it again)
    has the same id: its Date is the one its sender's mail program wrote.
    "" for a mail without a Date (which RFC 5322 requires and mail servers
    add) or without lines: then only its Message-ID knows it."""
    if not letter.date or not letter.lines:
        return ""
    try:
        when = str(int(parsedate_to_datetime(letter.date).timestamp()))
    except (TypeError, ValueError, OverflowError, IndexError):
        when = " ".join(letter.date.split())
    said = [f"{key}: {' '.join(value.split())}" for _, key, value in letter.lines if key != "secret"]
    text = "\n".join([letter.sender, when, *said])
    return f"<said-{hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()[:32]}>"


_TAG = re.compile(r"\[([A-Za-z0-9][A-Za-z0-9._-]{0,39})\]")


def tags_of(message: EmailMessage) -> tuple[str, ...]:
    """The game tags in the Subject (a game's name in brackets), at most a few."""
    try:
        subject = clean_header(message.get("Subject", ""))[:1000]
    except Exception:  # a Subject the parser cannot decode names no game
        return ()
    return tuple(_TAG.findall(subject)[:5])


_LOCAL = re.compile(r"^[^\s@<>()\[\],;:\"\\]{1,64}$")
_DOMAIN = re.compile(r"^(?=.{1,253}$)([^\W_]([\w-]{0,61}[^\W_])?\.)*[^\W_]([\w-]{0,61}[^\W_])?$")


def valid_address(address: str) -> bool:
    """A single plain address ``local@domain`` (letters beyond ASCII allowed)."""
    local, sep, domain = address.rpartition("@")
    if not sep or not _LOCAL.match(local) or not _DOMAIN.match(domain):
        return False
    return all(c.isprintable() and not c.isspace() for c in address)


#: The commands' words: those written ``name: value``, and those written alone on a line.
Words = tuple[frozenset[str], frozenset[str]]


def read(raw: bytes, referee: str, size: int | None = None, *, words: Words) -> Letter:
    """The mail ``raw`` as the referee reads it, for the commands' ``words``
    (:func:`.commands.words`); ``size``: how large the mail really was when
    ``raw`` is only its start (see :func:`bounded`)."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    sender = sender_of(message)
    letter = Letter(sender, message_id_of(message), tags=tags_of(message), date=date_of(message))
    size = len(raw) if size is None else size
    if reason := _machine(message, sender, referee):
        report = ""
        if "bounce" in reason or "report" in reason or "sent by" in reason:
            report = _report_text(message)
        return attrs.evolve(letter, ignored=reason, report=report)
    if not sender:
        return attrs.evolve(letter, ignored="no single valid sender address to answer")
    if size > MAX_BYTES:
        return attrs.evolve(
            letter,
            problem=f"the mail is too large ({size // 1024} KiB; at most {MAX_BYTES // 1024} KiB): send the lines alone, without attachments",
        )
    body, problem = _body(message)
    if problem:
        return attrs.evolve(letter, problem=problem)
    lines = read_lines(body, words)
    hint = colon_hint(body, lines)
    if hint:
        return attrs.evolve(letter, problem=hint)
    if not lines:
        return attrs.evolve(
            letter, problem="the mail has no line the referee reads: write game:, secret: and move: lines in the body"
        )
    if len(lines) > MAX_LINES:
        return attrs.evolve(letter, problem=f"the mail has {len(lines)} lines with keys; at most {MAX_LINES}")
    return attrs.evolve(letter, lines=tuple(lines))


def _machine(message: EmailMessage, sender: str, referee: str) -> str | None:
    """Why the mail comes from a machine that must not be answered, or None."""
    auto = clean_header(message.get("Auto-Submitted", "no")).lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto[:40]}"
    precedence = clean_header(message.get("Precedence", "")).lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for header in ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress", "List-Id"):
        if message.get(header) is not None:
            return f"{header} header"
    local = sender.split("@", 1)[0]
    if local in ("mailer-daemon", "postmaster", "noreply", "no-reply"):
        return f"sent by {sender}"
    if clean_header(message.get("Return-Path", "")) == "<>":
        return "a bounce (empty Return-Path)"
    if message.get_content_type() == "multipart/report":
        return "a delivery report"
    if sender and sender == referee.lower():
        return "sent by the referee itself"
    return None


def _report_text(message: EmailMessage) -> str:
    found = []
    for part in message.walk():
        if part.is_multipart():
            continue
        try:
            content = part.get_content()
        except Exception:  # an undecodable part of a bounce: skip it
            continue
        if isinstance(content, bytes):
            content = content.decode("utf-8", "replace")
        elif not isinstance(content, str):
            content = str(content)
        found.append(content)
    return "\n".join(found)[:200_000]


def _body(message: EmailMessage) -> tuple[str, str | None]:
    try:
        part = message.get_body(preferencelist=("plain", "html"))
    except Exception:  # a structure the parser cannot walk
        part = None
    if part is None:
        return "", "the mail has no text: write game:, secret: and move: lines in the body"
    try:
        content = part.get_content()
    except (LookupError, UnicodeDecodeError, ValueError, AssertionError) as exc:
        return "", f"the text cannot be decoded ({type(exc).__name__}): please send it as UTF-8 plain text"
    if not isinstance(content, str):
        return "", "the text cannot be decoded: please send it as UTF-8 plain text"
    if part.get_content_subtype() == "html":
        content = html_text(content)
    return content, None


def html_text(markup: str) -> str:
    """The lines of an HTML body as text: tags out, block ends as line ends,
    quoted blocks (``blockquote``, Gmail's ``gmail_quote``) cut."""
    import html  # only for a mail without a plain-text part

    markup = re.split(r"(?is)<blockquote|<div[^>]*class=\"?[^\">]*(gmail_quote|moz-cite-prefix)", markup)[0]
    markup = re.sub(r"(?is)<(script|style|head)\b.*?</\1\s*>", "", markup)
    markup = re.sub(r"(?i)<br\s*/?>|</(p|div|li|tr|h\d)\s*>", "\n", markup)
    return html.unescape(re.sub(r"(?s)<[^>]*>", "", markup))


def read_lines(body: str, words: Words) -> list[tuple[int, str, str]]:
    """The key lines of a body, up to where quoting or a signature starts:
    the envelope's and the commands' ``words``."""
    keys, alone = words
    keys |= set(ENVELOPE)
    found: list[tuple[int, str, str]] = []
    lines = body.splitlines()
    for number, raw in enumerate(lines, start=1):
        line = raw.replace("\u00a0", " ").strip()
        if _attribution(line, lines, number):
            if found:
                break  # the quoted mail follows the answer
            continue  # an answer written below the quote follows it
        if any(p.match(line) for p in _STOPS):
            break
        if line.startswith(">"):
            if found:
                break  # the quoted mail follows the answer
            continue  # an answer written below the quote
        if _HEADER_BLOCK.match(line) and found and _header_block(lines, number):
            break  # Outlook's From:/Sent:/To: block before the quoted mail
        key_match = _KEY.match(line)
        if key_match and key_match.group(1).lower() in keys:
            found.append((number, key_match.group(1).lower(), key_match.group(2)))
            continue
        bare = _BARE.match(line)
        if bare and bare.group(1).lower() in alone:
            found.append((number, bare.group(1).lower(), ""))
    return found


#: A key written without its colon ("Move 5@a1"): the word, then one to three words.
_NO_COLON = re.compile(r"^\s*[*_]?(move|secret)[*_]?\s+(?!:)(\S+(\s+\S+){0,2})\s*$", re.I)


def colon_hint(body: str, lines: list[tuple[int, str, str]]) -> str | None:
    """When a key the mail has no line of is written without its colon
    ("Move 5@a1"), a hint naming the line (its text is not quoted: the
    sender may not be who the From says)."""
    keys = {key for _, key, _ in lines}
    for number, raw in enumerate(body.splitlines()[: MAX_LINES * 5], start=1):
        found = _NO_COLON.match(raw.replace("\u00a0", " "))
        if found and found.group(1).lower() not in keys:
            key = found.group(1).lower()
            return f"line {number}: did you mean '{key}:'? A key is followed by a colon, like '{key}: ...'"
        if any(n == number for n, _, _ in lines) is False and _stops_here(raw):
            break
    return None


def _stops_here(line: str) -> bool:
    line = line.strip()
    return line.startswith(">") or any(p.match(line) for p in _STOPS) or any(p.match(line) for p in _ATTRIBUTIONS)


def _attribution(line: str, lines: list[str], number: int) -> bool:
    """An "On ... wrote:" line (Gmail wraps a long one over two lines)."""
    if any(p.match(line) for p in _ATTRIBUTIONS):
        return True
    return line.startswith("On ") and number < len(lines) and bool(_WROTE_TAIL.search(lines[number].strip()))


def _header_block(lines: list[str], number: int) -> bool:
    following = [line.strip() for line in lines[number - 1 : number + 3]]
    return sum(bool(_HEADER_BLOCK.match(line)) for line in following) >= 2
