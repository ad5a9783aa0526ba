"""Findings of the hostile trial that concern the referee: a withdrawn vote
brought back by its mail delivered again under a new Message-ID; imaps:// to
a server that speaks no TLS; an empty mail piped to ``receive``; a player
whose seat passed on, mailing with his old secret; a player's own
conditional move announced to him in the third person. Each through the
real servers the referee talks to (dovecot, aiosmtpd) where it is about them."""

from __future__ import annotations

import email.utils
import os
import subprocess
import sys

from .conftest import ANN, BEN, MASTER, body, game_copy, plain_registry_cached, raw_mail, topic
from .table import parsed, queued, to
from .test_imap import tabletop
from .test_replacement import _tokens

NEW_ANN = "anne@example.net"


def _dated(raw: bytes, when: float) -> bytes:
    """The mail with the Date its sender's mail program would have written."""
    mail = parsed(raw)
    mail["Date"] = email.utils.formatdate(when)
    return bytes(mail)


def _delivered_again(raw: bytes, message_id: str) -> bytes:
    """``raw`` as a relay or a list delivers it again: the same mail (sender,
    Date, text), under a new Message-ID and with a relay's line on top."""
    mail = parsed(raw)
    del mail["Message-ID"]
    mail["Message-ID"] = message_id
    return b"Received: from relay.example.net by mx.example.org; Mon, 7 Dec 2026 03:00:00 +0000\n" + bytes(mail)


# -- finding 2: a withdrawn vote stays withdrawn ----------------------------------------
def test_a_withdrawn_vote_is_not_cast_again_by_its_mail_delivered_again_under_a_new_message_id(tmp_path, dovecot):
    """ann votes draw, then withdraws it; her vote's mail is delivered to the
    mailbox again under a new Message-ID (a relay, a list): the vote stays
    withdrawn, ann is told once the copy is not played again, and nobody
    else hears of a vote. A vote she writes anew (a new mail) counts."""
    game = game_copy(tmp_path, plain_registry_cached(), None, players=("ann", "ben", "cat"))
    url = dovecot.url()

    def poll() -> str:
        done = tabletop("pbem", "poll", "g", "--imap", url, cwd=game.path.parent)
        assert done.returncode == 0, done.stderr
        return done.stdout

    poll()
    vote = _dated(game.mail("ann", "vote: draw", message_id="<vote-1@ann.example.org>"), 1_800_000_000)
    dovecot.deliver(vote)
    assert "your vote to end the game in a draw is counted: 1 of 3 needed" in poll()
    dovecot.deliver(_dated(game.mail("ann", "unvote: draw"), 1_800_000_060))
    assert "your vote to end the game in a draw is withdrawn" in poll()
    assert game.settings()["votes"]["draw"] == {}
    before = game.names()
    dovecot.deliver(_delivered_again(vote, "<relayed-7@relay.example.net>"))
    out = poll()
    assert "received before under another Message-ID" in out and "counted" not in out, out
    assert game.settings()["votes"]["draw"] == {}
    mails = queued(game, before)
    assert [m["To"] for m in mails] == [ANN] and "it is not played again" in body(mails[0])
    # A vote written anew is a new mail (its own Date): it counts.
    dovecot.deliver(_dated(game.mail("ann", "vote: draw"), 1_800_000_120))
    assert "counted: 1 of 3 needed" in poll()
    assert list(game.settings()["votes"]["draw"]) == ["ann"]


def test_a_move_delivered_again_under_a_new_message_id_is_not_played_again(tmp_path):
    """The same rule keeps a decision from being played twice: ben's move
    delivered again after ann's answer is answered, not played."""
    game = game_copy(tmp_path, plain_registry_cached(), None)
    for when, who in enumerate(["ann", "ben"]):
        move = _dated(game.mail(who, f"move: {game.legal(who)[0]}"), 1_800_000_000 + when)
        assert "played 1" in game.receive(move)
    events = game.events()
    report = game.receive(_delivered_again(move, "<again@relay.example.net>"))
    assert "received before under another Message-ID" in report and game.events() == events


def test_the_content_of_a_mail_is_remembered_across_a_kill_after_its_log_append(tmp_path, monkeypatch):
    """A run killed after the log append of a move: the run that finishes the
    change remembers the mail by what it says too, so its copy under a new
    Message-ID is not played again."""
    from tabletop.referee import faults

    game = game_copy(tmp_path, plain_registry_cached(), None)
    move = _dated(game.mail("ann", f"move: {game.legal('ann')[0]}"), 1_800_000_000)

    class Killed(BaseException):
        pass

    def kill(name: str) -> None:
        if name == "log":
            raise Killed(name)

    monkeypatch.setattr(faults, "point", kill)
    try:
        game.receive(move)
    except Killed:
        pass
    monkeypatch.undo()
    assert (game.path / "journal.json").exists()
    events = game.events()
    report = game.receive(_delivered_again(move, "<again@relay.example.net>"))
    assert "received before under another Message-ID" in report and game.events() == events


# -- finding 4: imaps:// to a server that speaks no TLS ----------------------------------
def test_imaps_to_a_plain_imap_port_is_one_line_saying_the_server_did_not_speak_tls(tmp_path, dovecot):
    game = game_copy(tmp_path, plain_registry_cached(), None)
    url = dovecot.url().replace("imap://", "imaps://")
    assert f":{dovecot.port}/" in url
    done = tabletop("pbem", "poll", "g", "--imap", url, cwd=game.path.parent)
    # As a certificate not trusted: the server could not be read (exit 1), nothing was sent to it.
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"did not speak TLS on port {dovecot.port}" in lines[0], lines[0]
    assert "SSLError" not in lines[0] and "WRONG_VERSION_NUMBER" not in lines[0]


# -- finding 5: an empty mail to receive ----------------------------------------------
def test_an_empty_mail_to_receive_says_so_in_one_line_and_changes_nothing(tmp_path):
    game = game_copy(tmp_path, plain_registry_cached(), None)
    before = {p: p.read_bytes() for p in game.path.rglob("*") if p.is_file()}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("TABLETOP_PLUGINS", None)
    for given in (b"", b"\n\n  \n"):
        done = subprocess.run(
            [sys.executable, "-m", "tabletop", "pbem", "receive", "g"],
            cwd=tmp_path,
            input=given,
            capture_output=True,
            env=env,
            timeout=60,
        )
        assert done.returncode == 2, done
        lines = done.stderr.decode().strip().splitlines()
        assert len(lines) == 1 and "empty: no mail to receive" in lines[0], lines
        assert {p: p.read_bytes() for p in game.path.rglob("*") if p.is_file()} == before


# -- finding 6: a seat passed on, the old secret told so -------------------------------
def test_a_replaced_player_mailing_with_his_old_secret_is_told_the_seat_is_no_longer_his(tmp_path, smtp, cli):
    """The game master hands ann's seat to another address; ann, from her
    old address, with or without 'player: ann', mails with her old secret:
    she is answered that the seat is no longer hers, and told nothing else
    (not the new address, not the game); the new holder is not alerted; a
    stranger's wrong secret from that address is answered as before."""
    game = game_copy(tmp_path, plain_registry_cached(), smtp)
    replaced = cli("pbem", "replace", "g", "ann", NEW_ANN, plugins=False)
    assert replaced.exit_code == 0, replaced.output
    game.send()
    for extra in ([], ["player: ann"]):
        before = game.names()
        mail = raw_mail(ANN, ["game: g", *extra, f"secret: {game.secrets['ann']}", f"move: {game.legal('ann')[0]}"])
        report = game.receive(mail, 1_800_000_000 + 86_400 * len(extra))
        assert "the seat is no longer yours" in report, report
        (answer,) = queued(game, before)
        assert answer["To"] == ANN and topic(answer) == "Not played"
        text = body(answer)
        assert "ann's seat in this game was handed to another address" in text
        assert NEW_ANN not in text and "anne" not in text and "Your legal decisions" not in text
        assert game.events() == 2
    game.send()
    assert not [m for m in smtp.inbox.to(NEW_ANN) if topic(m) == "A move was tried in your name"]
    wrong = game.receive(raw_mail(ANN, ["game: g", "player: ann", "secret: abcd-efgh-jkmn-pqrs", "history"]))
    assert "wrong secret for ann" in wrong


def test_a_player_whose_seat_a_substitute_claimed_is_told_too(tmp_path):
    game = game_copy(tmp_path, plain_registry_cached(), None, players=("ann", "ben"), deadline=3600)
    master = raw_mail(MASTER, ["game: g", f"secret: {game.secrets['(master)']}", "seek: ann sub@example.net"])
    before = game.names()
    assert "offered" in game.receive(master)
    token = _tokens(queued(game, before))["sub@example.net"]
    assert "took ann's seat" in game.receive(raw_mail("sub@example.net", ["game: g", f"claim: {token}"]))
    report = game.receive(raw_mail(ANN, ["game: g", f"secret: {game.secrets['ann']}", "history"]))
    assert "the seat is no longer yours" in report, report


# -- finding 7: one's own conditional move --------------------------------------------
def test_a_players_own_conditional_move_is_announced_to_him_as_his_own(tmp_path):
    """ann leaves 'if: X then: Y'; ben plays X, ann's Y is played: ann's
    mail says 'Your conditional move was played', ben's 'ann's conditional
    move was played'."""
    from .test_conditional import _begun, _shadow

    game = _begun(tmp_path)
    mine = game.legal("ann")[0]
    theirs = _shadow(game, tmp_path / "look1", [("ann", mine)]).legal("ben")[-1]
    answer = _shadow(game, tmp_path / "look2", [("ann", mine), ("ben", theirs)]).legal("ann")[-1]
    game.receive(game.mail("ann", f"move: {mine}", f"if: {theirs} then: {answer}"))
    before = game.names()
    report = game.receive(game.mail("ben", f"move: {theirs}"))
    assert "ann's conditional move was played" in report, report
    mails = queued(game, before)
    (ann,) = [t for t in to(mails, ANN) if "conditional move" in t]
    assert "Your conditional move was played." in ann and "ann's conditional move" not in ann, ann
    (ben,) = [t for t in to(mails, BEN) if "conditional move" in t]
    assert f"Your move {theirs} was played. ann's conditional move was played." in ben


def test_a_conditional_move_after_the_late_bot_reads_as_its_owners_own():
    from tabletop.referee.conditionals import answered_note

    note = answered_note({"": "ben was late.", "ben": "You were late."}, ["ann"])
    assert note == {
        "": "ben was late. ann's conditional move was played.",
        "ben": "You were late. ann's conditional move was played.",
        "ann": "ben was late. Your conditional move was played.",
    }
