"""Every bad mail gets one reply naming the line and the reason, and changes
nothing; mail from machines gets no reply at all."""

from __future__ import annotations

import json
from email.message import EmailMessage

import pytest

from .conftest import ANN, BEN, REF, body, init_glux, raw_mail, secret_in, topic


@pytest.fixture
def game(cli, tmp_path, smtp):
    init_glux(cli, smtp.address)
    cli("pbem", "send", "g", plugins=False)
    secrets = {"ann": secret_in(smtp.inbox.last(ANN)), "ben": secret_in(smtp.inbox.last(BEN))}
    return tmp_path / "g", secrets


def receive(cli, tmp_path, raw: bytes):
    (tmp_path / "in.eml").write_bytes(raw)
    result = cli("pbem", "receive", "g", tmp_path / "in.eml", plugins=False)
    assert result.exit_code == 0, result.output
    assert cli("pbem", "send", "g", plugins=False).exit_code == 0
    return result.stdout


def unchanged(directory, before: bytes) -> bool:
    return (directory / "game.jsonl").read_bytes() == before


def first_legal(smtp, address) -> str:
    text = body(smtp.inbox.last(address))
    return text.split("Your legal decisions:\n", 1)[1].splitlines()[0].strip()


def test_a_good_mail_is_played_and_answered_with_views(cli, tmp_path, smtp, game):
    directory, secrets = game
    move = first_legal(smtp, ANN)
    before = len(smtp.inbox.mails)
    out = receive(cli, tmp_path, raw_mail(ANN, ["game: g", f"secret: {secrets['ann']}", f"move: {move}"]))
    assert "played 1 decision(s) of ann" in out
    assert len(smtp.inbox.mails) == before + 2  # a view for each player
    assert f"ann {move}" in body(smtp.inbox.last(BEN))


def test_every_raw_message_is_archived_first(cli, tmp_path, smtp, game):
    directory, _ = game
    receive(cli, tmp_path, raw_mail(ANN, ["hello"]))
    archived = list((directory / "archive").iterdir())
    assert len(archived) == 1 and b"hello" in archived[0].read_bytes()


@pytest.mark.parametrize(
    ("lines", "reason"),
    [
        (
            ["game: g", "secret: wrong-wrong-wrong-wrong", "move: 1@a1"],
            "line 2: wrong secret for ann; nothing was played",
        ),
        (["game: g", "move: 1@a1"], "no secret: add a line 'secret: ...'"),
        (["game: chess", "secret: x", "move: 1@a1"], "line 1: not this game (this referee runs 'g')"),
        (["game: g", "secret: {ann}", "move: 6@m9"], "line 3: '6@m9': "),
        (["game: g", "secret: {ann}", "move: teleport"], "line 3: 'teleport': cannot read 'teleport'"),
        (
            ["game: g", "player: ben", "secret: {ann}", "move: 1@a1"],
            "line 2: a move for another player: ann@example.org plays ann, not ben",
        ),
        (["hello there", "see you"], "the mail has no line the referee reads"),
    ],
)
def test_a_bad_mail_gets_one_reply_and_changes_nothing(cli, tmp_path, smtp, game, lines, reason):
    directory, secrets = game
    before, mails = (directory / "game.jsonl").read_bytes(), len(smtp.inbox.mails)
    # A reply in the game's thread: its Subject carries the game's tag.
    receive(cli, tmp_path, raw_mail(ANN, [line.format(**secrets) for line in lines], subject="Re: [g] my move"))
    assert unchanged(directory, before)
    replies = smtp.inbox.mails[mails:]
    to_ann = [m for m in replies if ANN in m["X-Envelope-To"]]
    assert len(to_ann) == 1 and topic(to_ann[0]) == "Not played"
    assert reason in body(to_ann[0]), body(to_ann[0])
    assert to_ann[0]["In-Reply-To"]


@pytest.mark.parametrize("subject", ["my move", "Re: [chess] my move"])
def test_a_mail_for_another_game_is_left_to_its_referee(cli, tmp_path, smtp, game, subject):
    """Trust finding 23: several games may share the referee's mailbox; a
    mail that names another game (its game: line or the Subject's tag), and
    not this one, gets no answer here and counts against no one."""
    directory, secrets = game
    before, mails = (directory / "game.jsonl").read_bytes(), len(smtp.inbox.mails)
    lines = ["game: chess" if "chess" not in subject else "hello", "secret: x", "move: 1@a1"]
    out = receive(cli, tmp_path, raw_mail(ANN, lines, subject=subject))
    assert "for game 'chess'" in out and unchanged(directory, before)
    assert smtp.inbox.mails[mails:] == []
    assert json.loads((directory / "referee.json").read_text())["answered"] == {}


def test_an_illegal_move_is_answered_with_the_legal_decisions(cli, tmp_path, smtp, game):
    directory, secrets = game
    receive(cli, tmp_path, raw_mail(ANN, ["game: g", f"secret: {secrets['ann']}", "move: 6@m9"]))
    text = body(smtp.inbox.last(ANN))
    assert "in setup the start chip goes on a1" in text
    assert "Your legal decisions:" in text


def test_a_wrong_secret_alerts_the_registered_player(cli, tmp_path, smtp, game):
    directory, _ = game
    receive(cli, tmp_path, raw_mail("mallory@example.net", ["game: g", "player: ann", "secret: nope", "move: 1@a1"]))
    assert "wrong secret for ann" in body(smtp.inbox.last("mallory@example.net"))
    alert = smtp.inbox.last(ANN)
    assert topic(alert) == "A move was tried in your name" and "mallory@example.net" in body(alert)


def test_not_this_players_turn(cli, tmp_path, smtp, game):
    directory, secrets = game
    # Both choose their start chips; then it is one player's turn only.
    for player, address in (("ann", ANN), ("ben", BEN)):
        receive(
            cli,
            tmp_path,
            raw_mail(address, ["game: g", f"secret: {secrets[player]}", f"move: {first_legal(smtp, address)}"]),
        )
    waiting = ANN if "It is your turn" not in body(smtp.inbox.last(ANN)) else BEN
    player = "ann" if waiting == ANN else "ben"
    before = (directory / "game.jsonl").read_bytes()
    receive(cli, tmp_path, raw_mail(waiting, ["game: g", f"secret: {secrets[player]}", "move: 1@c3"]))
    assert unchanged(directory, before)
    assert "not your turn: " in body(smtp.inbox.last(waiting))


def test_the_same_message_id_twice_is_not_played_twice(cli, tmp_path, smtp, game):
    directory, secrets = game
    raw = raw_mail(
        ANN,
        ["game: g", f"secret: {secrets['ann']}", f"move: {first_legal(smtp, ANN)}"],
        message_id="<once@example.org>",
    )
    receive(cli, tmp_path, raw)
    after_first = (directory / "game.jsonl").read_bytes()
    out = receive(cli, tmp_path, raw)
    assert unchanged(directory, after_first)
    assert "was handled before; nothing to do" in out


def test_an_empty_body(cli, tmp_path, smtp, game):
    directory, _ = game
    out = receive(cli, tmp_path, raw_mail(ANN, ""))
    assert "no line the referee reads" in out and "no line the referee reads" in body(smtp.inbox.last(ANN))


def test_an_oversized_mail(cli, tmp_path, smtp, game):
    directory, secrets = game
    out = receive(cli, tmp_path, raw_mail(ANN, ["game: g", f"secret: {secrets['ann']}", "x: " + "y" * 300_000]))
    assert "too large" in out and "too large" in body(smtp.inbox.last(ANN))


def test_undecodable_text(cli, tmp_path, smtp, game):
    raw = (
        b"From: ann@example.org\r\nTo: ref@example.org\r\nSubject: move\r\nMessage-ID: <bad@x>\r\n"
        b"Content-Type: text/plain; charset=no-such-charset\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        b"game: g\r\n\xff\xfe move\r\n"
    )
    out = receive(cli, tmp_path, raw)
    assert "cannot be decoded" in out and "UTF-8 plain text" in body(smtp.inbox.last(ANN))


def test_html_only_mail_is_read_as_text(cli, tmp_path, smtp, game):
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = ANN, REF, "move"
    mail.set_content("<p>game: g</p>", subtype="html")
    out = receive(cli, tmp_path, bytes(mail))
    # An HTML-only mail is read as text: here it names the game but no secret.
    assert "no secret" in out and "no secret" in body(smtp.inbox.last(ANN))


@pytest.mark.parametrize(
    ("sender", "headers"),
    [
        (ANN, {"Auto-Submitted": "auto-replied"}),
        (ANN, {"Precedence": "bulk"}),
        ("MAILER-DAEMON@example.org", {}),
        (REF, {}),
        (ANN, {"Return-Path": "<>"}),
    ],
)
def test_loop_guards_machines_get_no_reply(cli, tmp_path, smtp, game, sender, headers):
    directory, _ = game
    mails = len(smtp.inbox.mails)
    out = receive(cli, tmp_path, raw_mail(sender, ["I am away until Monday."], headers=headers))
    assert out.startswith("ignored a mail from")
    assert len(smtp.inbox.mails) == mails


def test_a_mail_without_moves_gets_the_view_back(cli, tmp_path, smtp, game):
    directory, secrets = game
    out = receive(cli, tmp_path, raw_mail(BEN, ["game: g", f"secret: {secrets['ben']}"]))
    assert "ben asked for the game as it stands" in out
    assert "Here is the game as it stands." in body(smtp.inbox.last(BEN))


def test_several_moves_in_one_mail_are_played_up_to_the_first_that_fails(cli, tmp_path, smtp, game):
    directory, secrets = game
    before = (directory / "game.jsonl").read_bytes()
    move = first_legal(smtp, ANN)
    out = receive(cli, tmp_path, raw_mail(ANN, ["game: g", f"secret: {secrets['ann']}", f"move: {move}", "move: 6@b1"]))
    assert "played 1 decision(s) of ann" in out
    after = (directory / "game.jsonl").read_bytes()
    assert after.startswith(before) and len(after.splitlines()) == len(before.splitlines()) + 1
    partly = [m for m in smtp.inbox.to(ANN) if topic(m) == "Partly played"]
    assert len(partly) == 1 and "line 4: '6@b1': not your turn" in body(partly[0])
