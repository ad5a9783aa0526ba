"""Replies as ordinary mail programs write them: the move is read out of the
greeting, the comments, the quoted referee mail and the signature."""

from __future__ import annotations

import base64
import quopri

import pytest

from tabletop.referee import commands, mailin

from .conftest import ANN, REF

QUOTED_REFEREE_MAIL = """It is your turn: place the 2/5 chip.
Your legal decisions:
  2@c3
  5@c3

To play, reply with a plain-text mail whose body says:

    game: g
    secret: (your secret)
    move: 2@c3
"""


def gmail(secret: str, move: str) -> bytes:
    """Gmail: multipart/alternative, quoted-printable, the "On ... wrote:" line
    wrapped over two lines, the quote in '>' lines and a gmail_quote div."""
    plain = (
        f"Hi referee,\n\ngame: g\nsecret: {secret}\nmove: {move}\n\nThanks, and good luck to Ben!\n\n"
        "On Sat, Nov 21, 2026 at 10:02 AM tabletop referee <\nref@example.org> wrote:\n\n"
        + "".join("> " + line + "\n" for line in QUOTED_REFEREE_MAIL.splitlines())
    )
    html = (
        f'<div dir="ltr">Hi referee,<br><br>game: g<br>secret: {secret}<br>move: {move}<br></div>'
        '<br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Sat, Nov 21, 2026 wrote:<br></div>'
        "<blockquote>move: 5@c3</blockquote></div>"
    )
    qp_plain = quopri.encodestring(plain.encode()).decode()
    qp_html = quopri.encodestring(html.encode()).decode()
    return (
        f"From: Ann Example <{ANN}>\r\nTo: tabletop referee <{REF}>\r\nSubject: Re: [g] Your turn: place the 2/5 chip\r\n"
        "Message-ID: <CAGmail123@mail.gmail.com>\r\nMIME-Version: 1.0\r\n"
        'Content-Type: multipart/alternative; boundary="000000000000abc"\r\n\r\n'
        '--000000000000abc\r\nContent-Type: text/plain; charset="UTF-8"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n'
        f"{qp_plain}\r\n"
        '--000000000000abc\r\nContent-Type: text/html; charset="UTF-8"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n'
        f"{qp_html}\r\n--000000000000abc--\r\n"
    ).encode()


def outlook(secret: str, move: str) -> bytes:
    """Outlook: the '____' line, then a From:/Sent:/To: block and the referee's
    mail unquoted (its own game:/secret:/move: lines must not be read)."""
    plain = (
        f"game: g\r\nsecret: {secret}\r\nmove: {move}\r\n\r\nGet Outlook for iOS<https://aka.ms/o0ukef>\r\n"
        "________________________________\r\nFrom: tabletop referee <ref@example.org>\r\n"
        "Sent: Saturday, November 21, 2026 10:02 AM\r\nTo: Ann Example <ann@example.org>\r\n"
        "Subject: [g] Your turn: place the 2/5 chip\r\n\r\n" + QUOTED_REFEREE_MAIL.replace("\n", "\r\n")
    )
    return (
        f"From: Ann Example <{ANN}>\r\nTo: tabletop referee <{REF}>\r\nSubject: RE: [g] Your turn\r\n"
        'Message-ID: <AM0PR01MB1234@outlook.com>\r\nContent-Type: text/plain; charset="iso-8859-1"\r\n'
        "Content-Transfer-Encoding: quoted-printable\r\nMIME-Version: 1.0\r\n\r\n"
        + quopri.encodestring(plain.encode("iso-8859-1")).decode()
    ).encode()


def outlook_original_message(secret: str, move: str) -> bytes:
    plain = (
        f"Hello,\r\n\r\nGame: g\r\nSecret: {secret}\r\nMove: {move}\r\n\r\nRegards,\r\nAnn\r\n\r\n"
        "-----Original Message-----\r\nFrom: tabletop referee <ref@example.org>\r\n"
        "Sent: Saturday, November 21, 2026 10:02 AM\r\n\r\n" + QUOTED_REFEREE_MAIL.replace("\n", "\r\n")
    )
    return (
        f"From: {ANN}\r\nTo: {REF}\r\nSubject: RE: [g] Your turn\r\nMessage-ID: <o2@outlook.com>\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\n" + plain
    ).encode()


def apple_mail(secret: str, move: str) -> bytes:
    """Apple Mail on an iPhone: base64, "Sent from my iPhone", a '>' quote
    with its "On ..., at ..., ... wrote:" line."""
    plain = (
        f"game: g\nsecret: {secret}\nmove: {move}\n\nSent from my iPhone\n\n"
        "> On 21 Nov 2026, at 10:02, tabletop referee <ref@example.org> wrote:\n>\n"
        + "".join("> " + line + "\n" for line in QUOTED_REFEREE_MAIL.splitlines())
    )
    encoded = base64.encodebytes(plain.encode()).decode()
    return (
        f"From: Ann Example <{ANN}>\r\nTo: {REF}\r\nSubject: Re: [g] Your turn\r\nMessage-ID: <A1B2@icloud.com>\r\n"
        "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\nMime-Version: 1.0 (1.0)\r\n\r\n"
        + encoded
    ).encode()


def thunderbird(secret: str, move: str) -> bytes:
    """Thunderbird: format=flowed, the "On ... wrote:" line, the answer
    written below the quote, a '-- ' signature."""
    plain = (
        "On 11/21/26 10:02 AM, tabletop referee wrote:\n"
        + "".join("> " + line + "\n" for line in QUOTED_REFEREE_MAIL.splitlines())
        + f"\nHere it is:\n\ngame: g \nsecret: {secret} \nmove: {move}\n\nCheers\n-- \nAnn Example\nmove: 5@c3\n"
    )
    return (
        f"From: Ann Example <{ANN}>\r\nTo: tabletop referee <{REF}>\r\nSubject: Re: [g] Your turn\r\n"
        "Message-ID: <tb-1@example.org>\r\nUser-Agent: Mozilla Thunderbird\r\n"
        "Content-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + plain
    ).encode("utf-8")


PROGRAMS = {
    "gmail": gmail,
    "outlook": outlook,
    "outlook-original-message": outlook_original_message,
    "apple-mail": apple_mail,
    "thunderbird": thunderbird,
}


@pytest.mark.parametrize("program", list(PROGRAMS))
def test_a_reply_from_a_mail_program_is_played(glux, program):
    move = glux.legal("ann")[0]
    raw = PROGRAMS[program](glux.secrets["ann"], move)
    report = glux.receive(raw)
    assert report.startswith("played 1 decision(s) of ann"), report


@pytest.mark.parametrize("program", list(PROGRAMS))
def test_only_the_answer_is_read_not_the_quote(program):
    letter = mailin.read(PROGRAMS[program]("kq7m-x2pd-w9tb-4hcn", "2@start"), REF, words=commands.words())
    assert [k for _, k, _ in letter.lines] == ["game", "secret", "move"]
    assert letter.values("move")[0][1] == "2@start"


@pytest.mark.parametrize(
    ("text", "keys"),
    [
        ("Hi!\ngame: g\nsecret: s\nmove: 1@a1\nThat was fun.\n", ["game", "secret", "move"]),
        ("Dear referee,\n\nGAME: g\nSecret : s\n  move:1@a1  \n", ["game", "secret", "move"]),
        ("*move:* 1@a1\n", ["move"]),
        ("game: g\nsecret: s\nhistory\nlegal.\nhelp\n", ["game", "secret", "history", "legal", "help"]),
        ("game: g\n> move: 1@a1\n", ["game"]),
        ("> quoted above\n\ngame: g\nmove: 1@a1\n", ["game", "move"]),
        ("game: g\n-- \nmove: 1@a1\n", ["game"]),
        ("game: g\nSent from my Android phone\nmove: 1@a1\n", ["game"]),
        ("game: g\nLe 21 nov. 2026 à 10:02, referee a écrit :\nmove: 1@a1\n", ["game"]),
        ("game: g\npress: hello all\nresign\n", ["game", "press", "resign"]),
        ("game:\u00a0g\n", ["game"]),
    ],
)
def test_lines_with_known_keys_are_read_and_prose_is_passed_over(text, keys):
    assert [k for _, k, _ in mailin.read_lines(text, commands.words())] == keys
