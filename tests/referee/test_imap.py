"""The referee reads its mail from a real IMAP server (Debian's dovecot,
started by the test on 127.0.0.1): each mail handled once, flagged seen
after, across kills (kill -9 of the real process at the named steps)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tabletop.play.engine import Replay

from .conftest import ANN, BEN, game_copy, plain_registry_cached, raw_mail
from .dovecot import PASSWORD, dovecot_server

KILLED_RUN = textwrap.dedent(
    """
    import os, signal, sys
    from tabletop.referee import faults
    point = os.environ.get("KILL_AT", "")
    def hook(name):
        if point and (name == point or (point.endswith(":") and name.startswith(point))):
            os.kill(os.getpid(), signal.SIGKILL)
    faults.hook = hook
    from tabletop.cli import main
    main(sys.argv[1:], prog_name="tabletop")
    """
)


def tabletop(*args: str, cwd, kill_at: str = "", password: str = PASSWORD, timeout: float = 120):
    """Runs tabletop in its own process; with ``kill_at``, killed (SIGKILL) at that step."""
    env = {**os.environ, "TABLETOP_IMAP_PASSWORD": password, "KILL_AT": kill_at}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    env.pop("TABLETOP_PLUGINS", None)
    return subprocess.run(
        [sys.executable, "-c", KILLED_RUN, *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=timeout
    )


@pytest.fixture
def game(tmp_path):
    return game_copy(tmp_path, plain_registry_cached(), None)


def test_poll_reads_the_mailbox_once_and_flags_each_mail_seen(game, dovecot):
    dovecot.deliver(game.mail("ann", f"move: {game.legal('ann')[0]}"))
    dovecot.deliver(raw_mail("stranger@example.net", ["hello"]))
    done = tabletop("pbem", "poll", "g", "--imap", dovecot.url(), cwd=game.path.parent)
    assert done.returncode == 0, done.stderr
    assert "played 1 decision(s) of ann" in done.stdout and "2 message(s) handled." in done.stdout
    assert dovecot.unseen() == 0 and game.events() == 3
    again = tabletop("pbem", "poll", "g", "--imap", dovecot.url(), cwd=game.path.parent)
    assert again.returncode == 0 and "0 message(s) handled." in again.stdout
    # A mail read by a person in the mailbox (flagged seen) is still refereed.
    dovecot.deliver(game.mail("ben", f"move: {game.legal('ben')[0]}"))
    with dovecot.client() as imap:
        imap.select("INBOX")
        imap.store("1:*", "+FLAGS", r"(\Seen)")
        imap.logout()
    third = tabletop("pbem", "poll", "g", "--imap", dovecot.url(), cwd=game.path.parent)
    assert "played 1 decision(s) of ben" in third.stdout


def test_bad_addresses_and_passwords_are_one_line(game, dovecot):
    cases = [
        (("--imap", "imap://ref@mail.example.org/INBOX"), 2, "sends the password in the clear"),
        (("--imap", "pop3://ref@127.0.0.1/INBOX"), 2, "write imaps://USER@HOST[:PORT]/MAILBOX"),
        (("--imap", "imaps://ref:pw@127.0.0.1/INBOX"), 2, "no password in the address"),
        (("--imap", dovecot.url(mailbox="Nowhere")), 1, "cannot open the mailbox"),
    ]
    for args, code, said in cases:
        done = tabletop("pbem", "poll", "g", *args, cwd=game.path.parent)
        assert done.returncode == code and said in done.stderr, done.stderr
        assert len(done.stderr.splitlines()) == 1
    wrong = tabletop("pbem", "poll", "g", "--imap", dovecot.url(), cwd=game.path.parent, password="nope")
    assert wrong.returncode == 1 and "cannot read the mail at" in wrong.stderr
    none = tabletop("pbem", "poll", "g", "--imap", dovecot.url(), cwd=game.path.parent, password="")
    assert none.returncode == 2 and "TABLETOP_IMAP_PASSWORD" in none.stderr
    (game.path.parent / "pw").write_text(PASSWORD + "\n")
    from_file = tabletop(
        "pbem", "poll", "g", "--imap", dovecot.url(), "--imap-password-file", "pw", cwd=game.path.parent, password=""
    )
    assert from_file.returncode == 0, from_file.stderr


@pytest.mark.parametrize("which", ["good", "wrong_name", "untrusted"])
def test_imaps_checks_the_certificate(game, tmp_path, certs, which):
    """Finding 1 for IMAP: only a certificate for 127.0.0.1 from the named CA is trusted."""
    server = dovecot_server(None, getattr(certs, which))
    try:
        server.deliver(game.mail("ann", f"move: {game.legal('ann')[0]}"))
        args = ("pbem", "poll", "g", "--imap", server.url(secure=True), "--ca-file", str(certs.ca))
        done = tabletop(*args, cwd=game.path.parent)
        unseen = server.unseen()
    finally:
        server.stop()
    if which == "good":
        assert done.returncode == 0, done.stderr
        assert "played 1" in done.stdout and unseen == 0
    else:
        assert done.returncode == 1 and "certificate is not trusted" in done.stderr, done.stderr
        assert unseen == 1 and game.events() == 2


#: Where a poll can be killed: in the referee's change, and between handling and flagging.
KILL_POINTS = ["journal", "log", "mail:", "view:ben", "settings", "saved", "imap-handled", "imap-flagged"]


@pytest.mark.parametrize("point", ["saved", "imap-handled", "imap-flagged"])
def test_a_kill_between_fetch_and_flag_handles_the_mail_once(game, dovecot, point):
    dovecot.deliver(game.mail("ann", f"move: {game.legal('ann')[0]}"))
    killed = tabletop("pbem", "poll", "g", "--imap", dovecot.url(), cwd=game.path.parent, kill_at=point)
    assert killed.returncode == -signal.SIGKILL
    assert dovecot.unseen() == (0 if point == "imap-flagged" else 1)
    done = tabletop("pbem", "poll", "g", "--imap", dovecot.url(), cwd=game.path.parent)
    assert done.returncode == 0, done.stderr
    assert dovecot.unseen() == 0 and game.events() == 3
    views = sorted(p.name for p in (game.path / "outbox").glob("e3-*.eml"))
    assert views == ["e3-ann.eml", "e3-ben.eml"]


def deciding(game) -> list[str]:
    match = Replay(game.registry, game.path / "game.jsonl").run()
    node = match.node
    return list(getattr(node, "players", ()) or ()) if not match.over else []


def play_by_imap(game, server, moves: int, kills, resign_at_end: bool) -> list[str]:
    """Play ``moves`` decisions (then ben resigns) by mail through IMAP, each
    poll killed first at the step ``kills`` names (None: not killed)."""
    done_reports = []
    number = 0
    for step in range(moves + (1 if resign_at_end else 0)):
        players = deciding(game)
        if not players:
            break
        if step == moves:
            raw = game.mail("ben", "resign", message_id=f"<step{step}@example.org>")
        else:
            who = players[0]
            raw = game.mail(who, f"move: {game.legal(who)[0]}", message_id=f"<step{step}@example.org>")
        server.deliver(raw)
        point = kills(step)
        if point:
            killed = tabletop("pbem", "poll", "g", "--imap", server.url(), cwd=game.path.parent, kill_at=point)
            assert killed.returncode in (-signal.SIGKILL, 0), killed.stderr
        done = tabletop("pbem", "poll", "g", "--imap", server.url(), cwd=game.path.parent)
        assert done.returncode == 0, done.stderr
        done_reports.append(done.stdout)
        number += 1
    return done_reports


def mail_names(game) -> list[str]:
    return sorted(p.name for folder in ("outbox", "sent") for p in (game.path / folder).glob("*.eml"))


def whole_game_with_kills(tmp_path, moves: int, seed: int, resign: bool) -> None:
    import random

    rng = random.Random(seed)
    reference = game_copy(tmp_path / "reference", plain_registry_cached(), None, game="glyph-chess")
    killed = game_copy(tmp_path / "killed", plain_registry_cached(), None, game="glyph-chess")
    server = dovecot_server(None)
    try:
        play_by_imap(reference, server, moves, lambda step: None, resign)
    finally:
        server.stop()
    server = dovecot_server(None)
    try:
        points = [rng.choice(KILL_POINTS) if rng.random() < 0.8 else None for _ in range(moves + 1)]
        play_by_imap(killed, server, moves, lambda step: points[step], resign)
        assert server.unseen() == 0
    finally:
        server.stop()
    # Nothing lost, nothing repeated: the same log, the same mails (by their
    # keys), each mail queued once.
    assert killed.log() == reference.log()
    assert mail_names(killed) == mail_names(reference)
    if resign:
        assert not deciding(killed)
    for name in ("outbox",):
        bodies = [p.read_bytes().split(b"\r\n\r\n", 1)[1] for p in (killed.path / name).glob("e*.eml")]
        assert len(bodies) == len(set(bodies))


def test_a_whole_game_by_imap_with_kills_loses_and_repeats_nothing(tmp_path):
    """A short game of Glyph Chess (five decisions, then a resignation ends it) whose
    polls are first killed with SIGKILL at random steps: the same log and
    the same mails as the game played without kills."""
    whole_game_with_kills(tmp_path, moves=5, seed=17, resign=True)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_longer_games_by_imap_with_kills(tmp_path, seed):
    whole_game_with_kills(tmp_path, moves=40, seed=seed, resign=True)


def test_watch_referees_mail_as_it_arrives(game, dovecot, smtp):
    """IDLE: a mail delivered while watch waits is played within seconds,
    and its answers are sent; SIGTERM stops it cleanly."""
    settings = game.settings()
    settings["smtp"] = smtp.address
    import json

    (game.path / "referee.json").write_text(json.dumps(settings))
    env = {**os.environ, "TABLETOP_IMAP_PASSWORD": PASSWORD, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "pbem", "watch", "g", "--imap", dovecot.url(), "--every", "30s"],
        cwd=game.path.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        time.sleep(3)  # let it connect, handle nothing, send the welcomes and wait
        move = game.legal("ann")[0]
        dovecot.deliver(game.mail("ann", f"move: {move}"))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and game.events() < 3:
            time.sleep(0.2)
        assert game.events() == 3
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not [m for m in smtp.inbox.to(BEN) if "Since your last" in str(m)]:
            time.sleep(0.2)
        assert smtp.inbox.to(ANN) and smtp.inbox.to(BEN)
    finally:
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert "played 1 decision(s) of ann" in out and out.rstrip().endswith("stopped.")
