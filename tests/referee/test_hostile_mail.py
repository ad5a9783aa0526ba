"""Hostile and malformed mail, one kind a test: the referee never raises,
never changes the game for it, answers at most once and never relays the
sender's text, and every mail after it is still handled.

Each case's mail carries the word MARKER where a careless referee would echo
it; no mail the referee queues may contain it (except to a player who proved
who they are, about their own mail)."""

from __future__ import annotations

import base64
import random
from email.message import EmailMessage

import pytest

from .conftest import ANN, BEN, MASTER, REF, raw_mail, topic_of

EVIL = "mallory@example.net"


def headers(*lines: str, body: str = "game: g\nMARKER\n") -> bytes:
    return ("\r\n".join(lines) + "\r\n\r\n" + body).encode("utf-8", "surrogateescape")


def b64word(text: str) -> str:
    return "=?utf-8?b?" + base64.b64encode(text.encode()).decode() + "?="


def stranger(lines=("game: g", "MARKER please relay"), **kw) -> bytes:
    return raw_mail(EVIL, list(lines), **kw)


def deep_multipart(depth: int) -> bytes:
    inner = "Content-Type: text/plain\r\n\r\ngame: g\r\nMARKER\r\n"
    for i in range(depth):
        inner = f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n{inner}\r\n--b{i}--\r\n'
    return f"From: {EVIL}\r\nSubject: MARKER\r\nMessage-ID: <deep@x>\r\n{inner}".encode()


def html_only(markup: str, sender: str = EVIL) -> bytes:
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = sender, REF, "MARKER"
    mail.set_content(markup, subtype="html")
    return bytes(mail)


def attached_rfc822(game) -> bytes:
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = EVIL, REF, "fwd MARKER"
    mail.set_content("see attached MARKER")
    inner = EmailMessage()
    inner["From"] = ANN
    inner.set_content(f"game: g\nsecret: {game.secrets['ann']}\nmove: 1@a1\n")
    mail.add_attachment(inner)
    return bytes(mail)


def bounce_for(address: str) -> bytes:
    return (
        f"From: MAILER-DAEMON@example.org\r\nTo: {REF}\r\nSubject: Undelivered Mail Returned to Sender\r\n"
        'Message-ID: <dsn@x>\r\nContent-Type: multipart/report; report-type=delivery-status; boundary="r"\r\n\r\n'
        f"--r\r\nContent-Type: text/plain\r\n\r\nI could not deliver to <{address}>. MARKER\r\n"
        f"--r\r\nContent-Type: message/delivery-status\r\n\r\nFinal-Recipient: rfc822; {address}\r\nAction: failed\r\n"
        "Status: 5.1.1\r\n--r--\r\n"
    ).encode()


# (id, mail builder, what must happen: "ignored" no answer, "answered" one
# answer to the sender, "silent" no answer to anyone, "played" a decision played)
CASES = [
    (
        "crlf-in-encoded-subject",
        lambda g: headers(
            f"From: {EVIL}", "Subject: " + b64word("hi\r\nBcc: x@evil.example MARKER"), "Message-ID: <a1@x>"
        ),
        "answered",
    ),
    (
        "crlf-in-encoded-display-name",
        lambda g: headers(
            "From: " + b64word("Eve\r\nBcc: x@e MARKER") + f" <{EVIL}>", "Subject: x", "Message-ID: <a2@x>"
        ),
        "ignored",
    ),
    (
        "crlf-in-encoded-message-id",
        lambda g: headers(f"From: {EVIL}", "Subject: x", "Message-ID: " + b64word("<a\r\nb@x>")),
        "answered",
    ),
    ("folded-message-id", lambda g: headers(f"From: {EVIL}", "Subject: x", "Message-ID: <a3\r\n @x>"), "answered"),
    ("message-id-with-nul", lambda g: headers(f"From: {EVIL}", "Subject: x", "Message-ID: <a\x00b@x>"), "answered"),
    ("non-ascii-sender", lambda g: headers("From: zoë@example.org", "Subject: x", "Message-ID: <a4@x>"), "answered"),
    (
        "non-ascii-sender-encoded",
        lambda g: headers("From: " + b64word("Zoë") + " <zoë@example.org>", "Subject: x", "Message-ID: <a5@x>"),
        "answered",
    ),
    ("two-from-addresses", lambda g: headers(f"From: {ANN}, {EVIL}", "Subject: x", "Message-ID: <a6@x>"), "ignored"),
    ("no-from", lambda g: headers("Subject: x", "Message-ID: <a7@x>"), "ignored"),
    ("empty-from", lambda g: headers("From: <>", "Subject: x", "Message-ID: <a8@x>"), "ignored"),
    (
        "from-with-angle-trick",
        lambda g: headers(f"From: {ANN}>, {EVIL}", "Subject: x", "Message-ID: <a9@x>"),
        "ignored",
    ),
    (
        "display-name-looks-like-player",
        lambda g: headers(f'From: "{ANN}" <{EVIL}>', "Subject: x", "Message-ID: <a10@x>"),
        "answered",
    ),
    ("no-message-id", lambda g: headers(f"From: {EVIL}", "Subject: x"), "answered"),
    (
        "huge-message-id",
        lambda g: headers(f"From: {EVIL}", "Subject: x", "Message-ID: <" + "m" * 20000 + "@x>"),
        "answered",
    ),
    (
        "huge-subject",
        lambda g: headers(f"From: {EVIL}", "Subject: MARKER" + "s" * 100000, "Message-ID: <a11@x>"),
        "answered",
    ),
    (
        "thousand-headers",
        lambda g: headers(
            f"From: {EVIL}", "Subject: x", "Message-ID: <a12@x>", *[f"X-H{i}: MARKER" for i in range(1000)]
        ),
        "answered",
    ),
    ("oversized-body", lambda g: stranger(["game: g", "MARKER " + "y" * 300_000]), "answered"),
    ("random-binary", lambda g: random.Random(1).randbytes(4000), "ignored"),
    ("empty-message", lambda g: b"", "ignored"),
    ("headers-only", lambda g: f"From: {EVIL}\r\nSubject: MARKER\r\nMessage-ID: <a13@x>\r\n".encode(), "answered"),
    (
        "bad-base64",
        lambda g: headers(
            f"From: {EVIL}",
            "Subject: x",
            "Message-ID: <a14@x>",
            "Content-Transfer-Encoding: base64",
            body="Z2FtZTog!!!!=\r\n===\r\n",
        ),
        "answered",
    ),
    (
        "bad-quoted-printable",
        lambda g: headers(
            f"From: {EVIL}",
            "Subject: x",
            "Message-ID: <a15@x>",
            "Content-Transfer-Encoding: quoted-printable",
            body="game: g=\r\n=ZZ MARKER=\r\n",
        ),
        "answered",
    ),
    (
        "unknown-charset",
        lambda g: headers(
            f"From: {EVIL}", "Subject: x", "Message-ID: <a16@x>", "Content-Type: text/plain; charset=x-martian"
        ),
        "answered",
    ),
    (
        "utf-7-charset",
        lambda g: headers(
            f"From: {EVIL}",
            "Subject: x",
            "Message-ID: <a17@x>",
            "Content-Type: text/plain; charset=utf-7",
            body="game: g\r\n+AGQ-MARKER\r\n",
        ),
        "answered",
    ),
    ("multipart-50-deep", lambda g: deep_multipart(50), "answered"),
    (
        "multipart-no-boundary",
        lambda g: headers(f"From: {EVIL}", "Subject: x", "Message-ID: <a18@x>", "Content-Type: multipart/mixed"),
        "answered",
    ),
    (
        "multipart-unclosed",
        lambda g: headers(
            f"From: {EVIL}",
            "Subject: x",
            "Message-ID: <a19@x>",
            'Content-Type: multipart/mixed; boundary="q"',
            body="--q\r\nContent-Type: text/plain\r\n\r\ngame: g\r\nMARKER\r\n",
        ),
        "answered",
    ),
    ("html-with-script", lambda g: html_only("<script>alert('MARKER')</script><p>game: g</p>"), "answered"),
    (
        "html-quoted-moves-ignored",
        lambda g: html_only(
            f'<p>hi</p><div class="gmail_quote">game: g<br>secret: {g.secrets["ann"]}<br>move: 1@a1</div>', ANN
        ),
        "answered",
    ),
    ("exe-attachment", lambda g: _with_attachment(), "answered"),
    ("forwarded-move-inside-attachment", attached_rfc822, "answered"),
    ("auto-submitted", lambda g: raw_mail(ANN, ["MARKER"], headers={"Auto-Submitted": "auto-replied"}), "ignored"),
    ("precedence-bulk", lambda g: raw_mail(ANN, ["MARKER"], headers={"Precedence": "bulk"}), "ignored"),
    ("list-id", lambda g: raw_mail(EVIL, ["MARKER"], headers={"List-Id": "<l.example>"}), "ignored"),
    ("x-autoreply", lambda g: raw_mail(EVIL, ["MARKER"], headers={"X-Autoreply": "yes"}), "ignored"),
    ("bounce-report", lambda g: bounce_for(BEN), "ignored"),
    ("empty-return-path", lambda g: raw_mail(ANN, ["MARKER"], headers={"Return-Path": "<>"}), "ignored"),
    ("from-the-referee", lambda g: raw_mail(REF, ["game: g", "MARKER"]), "ignored"),
    ("noreply-sender", lambda g: raw_mail("noreply@example.net", ["game: g", "MARKER"]), "ignored"),
    ("stranger-prose", lambda g: stranger(), "answered"),
    (
        "stranger-as-a-player-wrong-secret",
        lambda g: stranger(["game: g", "player: ann", "secret: MARKER", "move: 1@a1"]),
        "answered",
    ),
    ("stranger-wrong-game-name", lambda g: stranger(["game: MARKER", "secret: x"]), "answered"),
    ("stranger-names-unknown-player", lambda g: stranger(["game: g", "player: MARKER", "secret: x"]), "answered"),
    ("forged-from-victim", lambda g: raw_mail(ANN, ["game: g", "secret: MARKER-guess", "move: 1@a1"]), "answered"),
    ("player-no-secret", lambda g: raw_mail(ANN, ["game: g", "move: MARKER"]), "answered"),
    ("secret-10k", lambda g: raw_mail(ANN, ["game: g", "secret: " + "MARKER" * 2000]), "answered"),
    ("two-game-lines", lambda g: stranger(["game: g", "game: MARKER"]), "answered"),
    ("reply-to-victim", lambda g: stranger(["game: g", "MARKER"], headers={"Reply-To": BEN}), "answered"),
    (
        "nul-bytes-in-body",
        lambda g: headers(f"From: {EVIL}", "Subject: x", "Message-ID: <a20@x>", body="game: g\x00\r\nMARKER\x00\r\n"),
        "answered",
    ),
    (
        "nul-in-encoded-subject",
        lambda g: headers(f"From: {EVIL}", "Subject: " + b64word("a\x00MARKER"), "Message-ID: <a21@x>"),
        "answered",
    ),
    (
        "garbage-date",
        lambda g: headers(f"From: {EVIL}", "Date: MARKER o'clock", "Subject: x", "Message-ID: <a22@x>"),
        "answered",
    ),
    (
        "garbage-content-type",
        lambda g: headers(f"From: {EVIL}", "Subject: x", "Message-ID: <a23@x>", "Content-Type: text/"),
        "answered",
    ),
    (
        "unknown-transfer-encoding",
        lambda g: headers(f"From: {EVIL}", "Subject: x", "Message-ID: <a24@x>", "Content-Transfer-Encoding: x-martian"),
        "answered",
    ),
    (
        "header-line-without-colon",
        lambda g: headers(f"From: {EVIL}", "this is not a header MARKER", "Subject: x", "Message-ID: <a25@x>"),
        "answered",
    ),
    (
        "old-mac-line-ends",
        lambda g: f"From: {EVIL}\rSubject: x\rMessage-ID: <a26@x>\r\rgame: g\rMARKER\r".encode(),
        "any",
    ),
    (
        "utf-16-without-charset",
        lambda g: (
            f"From: {EVIL}\r\nSubject: x\r\nMessage-ID: <a27@x>\r\n\r\n".encode() + "game: g\nMARKER".encode("utf-16")
        ),
        "answered",
    ),
    (
        "thousand-recipients",
        lambda g: headers(
            f"From: {EVIL}",
            "To: " + ", ".join(f"v{i}@example.org" for i in range(1000)),
            "Subject: x",
            "Message-ID: <a28@x>",
        ),
        "answered",
    ),
    (
        "quoted-move-only",
        lambda g: raw_mail(ANN, ["Sounds good!", "", f"> secret: {g.secrets['ann']}", "> game: g", "> move: 1@a1"]),
        "answered",
    ),
    ("escape-sequences-in-move", lambda g: g.mail("ann", "move: \x1b[31mMARKER\x1b[0m"), "answered-own"),
    (
        "zero-width-in-secret",
        lambda g: raw_mail(ANN, ["game: g", "secret: " + "\u200b".join(g.secrets["ann"]), "move: 1@a1"]),
        "answered",
    ),
    ("five-hundred-move-lines", lambda g: g.mail("ann", *["move: MARKER"] * 500), "answered"),
    (
        "speaking-for-another-player",
        lambda g: raw_mail(ANN, ["game: g", "player: ben", f"secret: {g.secrets['ben']}", "move: MARKER"]),
        "answered",
    ),
    (
        "crlf-encoded-in-from-local-part",
        lambda g: headers("From: " + b64word("ev\r\nil") + "@example.net", "Subject: x", "Message-ID: <a29@x>"),
        "any",
    ),
    ("master-address-without-secret", lambda g: raw_mail(MASTER, ["game: g", "end", "MARKER"]), "answered"),
    ("master-address-wrong-secret", lambda g: raw_mail(MASTER, ["game: g", "secret: MARKER", "end"]), "answered"),
    ("press-without-secret", lambda g: raw_mail(ANN, ["game: g", "press: MARKER buy pills"]), "answered"),
]


def _with_attachment() -> bytes:
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = EVIL, REF, "x"
    mail.set_content("game: g\nMARKER\n")
    mail.add_attachment(b"MZ\x90\x00" * 100, maintype="application", subtype="octet-stream", filename="MARKER.exe")
    return bytes(mail)


def test_there_are_at_least_sixty_kinds():
    assert len(CASES) >= 60 and len({c[0] for c in CASES}) == len(CASES)


@pytest.mark.parametrize(("name", "build", "expect"), CASES, ids=[c[0] for c in CASES])
def test_hostile_mail(glux, name, build, expect):
    before, queued = glux.log(), glux.names()
    raw = build(glux)
    report = glux.receive(raw)
    assert isinstance(report, str) and "\n" not in report
    assert glux.log() == before, "a hostile mail changed the game"
    new = glux.queued_since(queued)
    if expect == "answered-own":
        # The player proved who they are: the answer is theirs alone and may quote them.
        assert len(new) == 1 and b"To: " + ANN.encode() in new[0]
    else:
        assert not any(b"MARKER" in mail for mail in new), f"{name}: the sender's text was relayed"
        if expect in ("ignored", "silent"):
            to_sender = [m for m in new if EVIL.encode() in m]
            assert not to_sender
        if expect == "answered":
            assert len([m for m in new if topic_of(m) == "Not played"]) <= 1
    assert not report.startswith("quarantined") or expect == "any", report
    outcome = glux.send()
    assert outcome.problem is None and outcome.waiting == 0
    # The mail after it is handled as usual.
    move = glux.asked("ann")[0]
    assert "played 1 decision(s) of ann" in glux.receive(glux.mail("ann", f"move: {move}"))


def test_a_stranger_is_answered_once_a_day(glux):
    now = 1_800_000_000.0
    first = glux.receive(stranger(), now)
    second = glux.receive(stranger(), now + 60)
    assert first.startswith("answered") and second.startswith("not answered")
    assert glux.receive(stranger(), now + 86400).startswith("answered")
    assert len([m for m in glux.outbox() if EVIL.encode() in m]) == 2


def test_alerts_to_a_player_are_rate_limited(glux):
    now = 1_800_000_000.0
    for i in range(5):
        glux.receive(raw_mail(f"m{i}@example.net", ["game: g", "player: ann", "secret: nope"]), now + i)
    alerts = [m for m in glux.outbox() if b"A move was tried in your name" in m]
    assert len(alerts) == 1


def test_a_wrong_secret_from_the_players_own_address_is_answered_not_reported(glux):
    """Finding 10: a mistyped secret is no forgery: the player is answered,
    the game master is not told (many wrong secrets are: test_findings)."""
    glux.receive(raw_mail(ANN, ["game: g", "secret: guess", "move: 1@a1"]))
    to_master = [m for m in glux.outbox() if b"To: " + MASTER.encode() in m]
    to_ann = [m for m in glux.outbox() if b"To: " + ANN.encode() in m and b"wrong secret for ann" in m]
    assert len(to_ann) == 1 and len(to_master) == 1  # the master's welcome only
    assert b"You are the game master" in to_master[0]


def test_a_bounce_for_a_player_is_reported_to_the_master(glux):
    report = glux.receive(bounce_for(BEN))
    assert report.startswith("ignored")
    to_master = [m for m in glux.outbox() if b"To: " + MASTER.encode() in m and b"Mail to ben bounced" in m]
    assert len(to_master) == 1


def test_a_duplicate_delivery_is_answered_already_played(glux):
    glux.send()
    move = glux.asked("ann")[0]
    raw = glux.mail("ann", f"move: {move}", message_id="<dup@example.org>")
    assert "played 1" in glux.receive(raw)
    log = glux.log()
    again = glux.receive(b"Received: from relay2.example.org\r\n" + raw)
    assert "already played" in again and glux.log() == log
    same = glux.receive(raw)
    assert "handled before; nothing to do" in same
    answers = [m for m in glux.outbox() if b"already played" in m]
    assert len(answers) == 1


def test_a_message_that_cannot_be_handled_is_quarantined_and_never_blocks_the_rest(cli, glux, maildir):
    from tabletop.referee import faults

    def broken(point: str) -> None:
        if point == "journal":
            raise RuntimeError("disk full\r\nBcc: x@example.net")

    first = maildir.deliver(glux.mail("ann", f"move: {glux.legal('ann')[0]}"))
    faults.hook = broken
    try:
        result = cli("pbem", "poll", "g", "--maildir", maildir.path, plugins=False)
    finally:
        faults.hook = None
    assert result.exit_code == 0 and "quarantined: RuntimeError: disk full Bcc: x@example.net" in result.stdout
    why = list((glux.path / "quarantine").glob("*.why"))
    assert len(why) == 1 and why[0].read_text().count("\n") == 1
    assert not first.exists() and not list((maildir.path / "new").iterdir())
    # The change it began is undone; the next mail is handled as usual.
    assert glux.events() == 2 and (glux.path / "journal.json").exists()
    assert [m for m in glux.outbox() if topic_of(m) == "A message was quarantined"]
    maildir.deliver(glux.mail("ben", f"move: {glux.legal('ben')[0]}"))
    result = cli("pbem", "poll", "g", "--maildir", maildir.path, plugins=False)
    assert "played 1 decision(s) of ben" in result.stdout
    assert glux.events() == 3 and not (glux.path / "journal.json").exists()
