"""One mailbox, several games (issue 29, part 5): a new game on a mailbox
that served others starts at the mailbox's state when it began (nothing
older is read, answered, archived or reported), routes by the game's tag,
and another game's mail never uses up a player's answers, nor reaches the
game master; a Maildir shared by two games leaves each game's mail to it."""

from __future__ import annotations

import time

from .conftest import ANN, BEN, MASTER, game_copy, plain_registry_cached, raw_mail
from .dovecot import PASSWORD
from .table import queued, to


def _bounce(address: str, subject: str) -> bytes:
    """A delivery report from a mail server, quoting the mail it could not deliver."""
    text = (
        "This is the mail system at host mx.example.org.\n\n"
        f"<{address}>: host mx.example.org said: 550 5.1.1 no such user\n\n"
        "--- the original message ---\n"
        f"To: {address}\nSubject: {subject}\n"
    )
    return raw_mail("MAILER-DAEMON@mx.example.org", text, subject="Undelivered Mail Returned to Sender")


def test_a_new_game_reads_nothing_from_before_it_and_leaves_the_other_games_mail(tmp_path, dovecot):
    """Issue 29 part 5: a mailbox holds three hours of game 'g': its
    players' mails, their notes with no game named, a bounce of g's mail to
    ann. Game 'two' begins: its first poll reads none of it (nothing
    archived, answered, counted, nor told to its game master). g's mail
    that keeps coming, and a new bounce of g's mail, are left to g; a bounce
    of two's own mail reaches two's master; ann's real mistake in two is
    answered."""
    from .test_hostile_imap import tabletop

    earlier = time.time() - 3 * 3600
    first = game_copy(tmp_path / "one", plain_registry_cached(), None)
    for i in range(6):
        for who, address in (("ann", ANN), ("ben", BEN)):
            lines = ["game: g", f"secret: {first.secrets[who]}", f"press: round {i}"]
            dovecot.deliver(raw_mail(address, lines, subject="Re: [g] Glüx: ann, ben"), when=earlier + i)
    dovecot.deliver(raw_mail(ANN, ["are we playing tonight?"], subject="hello"), when=earlier + 10)
    dovecot.deliver(_bounce(ANN, "[g] Glüx: ann, ben"), when=earlier + 20)
    dovecot.deliver(_bounce(BEN, "no subject we know"), when=earlier + 30)
    two = game_copy(tmp_path / "two", plain_registry_cached(), None, game_id="two")
    data = two.settings()
    data["created"] = time.time()
    (two.path / "referee.json").write_text(__import__("json").dumps(data))
    before = two.names()
    run = tabletop("pbem", "poll", "g", "--imap", dovecot.url(), cwd=two.path.parent, password=PASSWORD)
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("arrived before the game began") == 15, run.stdout
    assert "15 message(s) handled." in run.stdout
    assert two.names() == before
    archive = two.path / "archive"
    assert not archive.exists() or not list(archive.iterdir())
    # g's mail keeps coming, and a bounce of one of g's mails: left to g.
    dovecot.deliver(raw_mail(ANN, ["game: g", f"secret: {first.secrets['ann']}", "history"], subject="Re: [g] x"))
    dovecot.deliver(_bounce(ANN, "[g] Glüx: ann, ben"))
    run = tabletop("pbem", "poll", "g", "--imap", dovecot.url(), cwd=two.path.parent, password=PASSWORD)
    assert run.returncode == 0 and "2 message(s) handled." in run.stdout, run.stdout
    assert two.names() == before, sorted(two.names() - before)
    settings = two.settings()
    assert settings["answered"] == {} and settings["alerted"] == {}
    # two's own: a bounce of its mail to ben reaches its master; ann's mistake is answered.
    dovecot.deliver(_bounce(BEN, "[two] Glüx: ann, ben"))
    dovecot.deliver(
        raw_mail(ANN, ["game: two", f"secret: {two.secrets['ann']}", "move: nowhere"], subject="Re: [two] m")
    )
    run = tabletop("pbem", "poll", "g", "--imap", dovecot.url(), cwd=two.path.parent, password=PASSWORD)
    assert run.returncode == 0, run.stderr
    mails = queued(two, before)
    assert len(to(mails, MASTER)) == 1 and "Mail to ben bounced" in to(mails, MASTER)[0]
    assert len(to(mails, ANN)) == 1 and "Not played" in to(mails, ANN)[0]


def test_a_maildir_two_games_share_leaves_each_games_mail_to_it(tmp_path, maildir, cli):
    """Issue 29 part 5: games 'g' and 'two' read one Maildir. two's poll
    plays its own mail and leaves g's in new/ (and a mail from before two
    began unread); g's poll then plays g's."""
    import os

    first = game_copy(tmp_path / "one", plain_registry_cached(), None)
    two = game_copy(tmp_path / "two", plain_registry_cached(), None, game_id="two")
    data = two.settings()
    data["created"] = time.time()
    (two.path / "referee.json").write_text(__import__("json").dumps(data))
    move = first.legal("ann")[0]
    maildir.deliver(raw_mail(ANN, ["game: g", f"secret: {first.secrets['ann']}", f"move: {move}"], subject="[g] m"))
    mine = two.legal("ann")[0]
    maildir.deliver(raw_mail(ANN, ["game: two", f"secret: {two.secrets['ann']}", f"move: {mine}"], subject="[two] m"))
    old = maildir.path / "new" / f"{int(time.time()) - 7200}.M1P1.old.example.org"
    old.write_bytes(raw_mail(BEN, ["is this thing on?"], subject="hello"))
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    box = str(maildir.path)
    done = cli("pbem", "poll", "two/g", "--maildir", box, plugins=False)
    assert done.exit_code == 0, done.output
    assert "played 1 decision(s) of ann" in done.output and "another game's, left to its referee" in done.output
    assert "arrived before the game began" in done.output
    assert two.events() == 3 and first.events() == 2
    left = sorted(p.name for p in (maildir.path / "new").iterdir())
    assert len(left) == 2 and old.name in left
    done = cli("pbem", "poll", "one/g", "--maildir", box, plugins=False)
    assert done.exit_code == 0 and "played 1 decision(s) of ann" in done.output, done.output
    assert first.events() == 3
