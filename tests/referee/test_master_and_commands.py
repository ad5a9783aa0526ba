"""The game master (by mail and on the command line), players' commands by
mail, and checks at init."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from .conftest import ANN, BEN, MASTER, REF, body, game_copy, plain_registry_cached, raw_mail, topic


def master_secret(smtp) -> str:
    return re.search(r"Your secret: (\S+)", body(smtp.inbox.last(MASTER))).group(1)


def master_mail(glux, *lines: str) -> bytes:
    return raw_mail(MASTER, ["game: g", f"secret: {glux.secrets['(master)']}", *lines])


def to(smtp, address: str, subject: str) -> list:
    return [m for m in smtp.inbox.to(address) if topic(m) == subject]


# -- the game master ------------------------------------------------------------
def test_the_master_gets_a_secret_at_init(glux):
    glux.send()
    assert master_secret(glux.smtp) == glux.secrets["(master)"]
    welcome = body(glux.smtp.inbox.last(MASTER))
    assert "\n    pause " in welcome and "\n    resume " in welcome


def test_pause_by_mail_stops_moves_and_resume_moves_deadlines_on(tmp_path, smtp):
    game = game_copy(tmp_path, plain_registry_cached(), smtp, deadline=3600)
    start = game.settings()["due"]["since"]["ann"]
    assert "paused" in game.receive(master_mail(game, "pause"), start + 10)
    report = game.receive(game.mail("ann", f"move: {game.legal('ann')[0]}"), start + 20)
    assert "paused" in report and game.events() == 2
    assert game.referee().tick(start + 7200) == []  # no late notice while paused
    game.receive(master_mail(game, "resume"), start + 1010)
    assert game.settings()["due"]["since"]["ann"] == pytest.approx(start + 1000)
    game.send()
    assert to(smtp, ANN, "The game is paused") and to(smtp, BEN, "The game resumes")


def test_extend_replace_reissue_end_by_mail(tmp_path, smtp):
    game = game_copy(tmp_path, plain_registry_cached(), smtp, deadline=3600)
    start = game.settings()["due"]["since"]["ann"]
    report = game.receive(
        master_mail(game, "extend: ann 24h", "replace: ben bennett@example.org", "reissue: ann"), start
    )
    assert "deadline extended" in report and "now played from bennett@example.org" in report
    settings = game.settings()
    assert settings["due"]["since"]["ann"] == start + 86400
    assert settings["players"]["ben"]["address"] == "bennett@example.org"
    game.send()
    new_ben = re.search(r"Your secret: (\S+)", body(smtp.inbox.last("bennett@example.org"))).group(1)
    new_ann = re.search(
        r"Your secret: (\S+)", body(next(m for m in reversed(smtp.inbox.to(ANN)) if "Your secret" in body(m)))
    ).group(1)
    assert new_ann != game.secrets["ann"]
    # The old secret no longer works; the new one does, from the new address.
    assert "wrong secret" in game.receive(game.mail("ann", "history"))
    move = game.legal("ben")[0]
    played = game.receive(raw_mail("bennett@example.org", ["game: g", f"secret: {new_ben}", f"move: {move}"]))
    assert played.startswith("played 1 decision(s) of ben")
    assert "ended" in game.receive(master_mail(game, "end"))
    assert "ended by the game master" in game.receive(raw_mail(ANN, ["game: g", f"secret: {new_ann}", "move: x"]))


def test_master_commands_on_the_command_line(cli, tmp_path, smtp):
    game = game_copy(tmp_path, plain_registry_cached(), smtp, deadline=3600)
    assert cli("pbem", "pause", "g", plugins=False).stdout.strip() == "paused"
    assert cli("pbem", "resume", "g", plugins=False).stdout.strip() == "resumed"
    assert "deadline extended" in cli("pbem", "extend", "g", "ann", "2h", plugins=False).stdout
    result = cli("pbem", "replace", "g", "ben", "not-an-address", plugins=False)
    assert result.exit_code == 2 and "not a single mail address" in result.stderr
    assert "new secret" in cli("pbem", "reissue", "g", "ann", plugins=False).stdout
    result = cli("pbem", "extend", "g", "zoe", "2h", plugins=False)
    assert result.exit_code == 2 and "'zoe' is not a player" in result.stderr
    assert cli("pbem", "end", "g", plugins=False).stdout.strip() == "ended"
    assert "ended by the game master" in cli("pbem", "status", "g", plugins=False).stdout
    assert game.settings()["ended"]


def test_set_changes_settings_after_init_and_checks_them(cli, tmp_path, smtp):
    game = game_copy(tmp_path, plain_registry_cached(), smtp)
    result = cli("pbem", "set", "g", "smtp=mail.example.org:587", "deadline=72h", "remind=12h", plugins=False)
    assert result.exit_code == 0, result.output
    settings = game.settings()
    assert settings["smtp"] == "mail.example.org:587" and settings["deadline"] == 72 * 3600
    for bad, why in [
        ("remind=80h", "--remind must be shorter than --deadline"),
        ("grace=1h", "--grace needs --late-bot"),
        ("deadline=0h", "--deadline: must be longer than 0"),
        ("smtp=nohost", "write HOST:PORT"),
        ("colour=red", "KEY one of"),
    ]:
        result = cli("pbem", "set", "g", bad, plugins=False)
        assert result.exit_code == 2 and why in result.stderr, (bad, result.stderr)
    assert game.settings() == settings


# -- players' commands ------------------------------------------------------------
def test_help_by_mail(glux):
    glux.receive(glux.mail("ann", "help"))
    glux.send()
    assert "press: TEXT" in body(to(glux.smtp, ANN, "How to play by mail")[0])


def test_history_shows_the_game_as_the_player_may_see_it(glux):
    glux.receive(glux.mail("ann", f"move: {glux.legal('ann')[0]}"))
    glux.receive(glux.mail("ben", "history"))
    glux.send()
    text = body(to(glux.smtp, BEN, "The game so far")[0])
    assert "1. " in text and "ann" in text
    # ann's own draw is hidden from ben: the history shows it redacted.
    assert "draws a chip" in text or "draws" in text
    own = glux.referee().history("ann")
    assert own != text


def test_legal_lists_every_decision(glux):
    glux.receive(glux.mail("ann", "legal"))
    glux.send()
    text = body(to(glux.smtp, ANN, "Your legal decisions")[0])
    assert all(move in text for move in glux.legal("ann"))


def test_press_is_relayed_and_logged_outside_the_game_log(glux):
    log = glux.log()
    glux.receive(glux.mail("ann", "press: Ben, shall we share the middle room?"))
    glux.send()
    assert "shall we share the middle room?" in body(to(glux.smtp, BEN, "Press from ann")[0])
    assert not to(glux.smtp, ANN, "Press from ann")
    assert glux.log() == log
    line = json.loads((glux.path / "press.jsonl").read_text().splitlines()[0])
    assert line["from"] == "ann" and "middle room" in line["text"]


def test_resign_by_mail_in_glyph_chess_ends_a_two_player_game(tmp_path, smtp):
    game = game_copy(tmp_path, plain_registry_cached(), smtp, game="glyph-chess")
    report = game.receive(game.mail("ben", "resign"))
    assert report == "ben resigned"
    game.send()
    final = smtp.inbox.last(ANN)
    assert topic(final).startswith("Game over: ann wins")
    assert '"kind":"resign"' in game.log().decode()


def test_resign_during_setup_is_answered(glux):
    report = glux.receive(glux.mail("ann", "resign"))
    assert "once the setup is over" in report and glux.events() == 2


# -- what mails say -------------------------------------------------------------------
def test_the_first_mail_says_so_far_not_since_your_last_mail(glux):
    glux.send()
    text = body(glux.smtp.inbox.last(ANN))
    assert "Since your last mail" not in text and "So far:" in text


def test_a_reply_subject_carries_the_tag_once(glux):
    glux.receive(raw_mail(ANN, ["game: g"], subject="Re: [g] Your turn: place the 2/5 chip"))
    glux.send()
    assert glux.smtp.inbox.last(ANN)["Subject"].count("[g]") == 1


def test_a_sealed_choice_is_shown_back_to_its_own_player(tmp_path, smtp):
    game = game_copy(tmp_path, plain_registry_cached(), smtp, game="glyph-chess", variants=("glyph-advanced-setup",))
    game.receive(game.mail("ann", "move: arrange F N U K S I E"))
    game.send()
    mine, theirs = body(smtp.inbox.last(ANN)), body(smtp.inbox.last(BEN))
    assert "your choice, sealed: arrange F N U K S I E" in mine
    assert "F N U K S I E" not in theirs


def test_an_escape_question_says_which_piece_attacks_from_where(tmp_path):
    from ..glyph_chess.helpers import position
    from .test_lookahead import glyph_game

    data = position({"ann": {"g3": "F"}, "ben": {"g5": "N"}}, hands={"ann": "F F S S E", "ben": "N S S I E"})
    game = glyph_game(tmp_path, data)
    assert game.receive(game.mail("ann", "move: g3-g5 / F F")).startswith("played 1")
    import email
    import email.policy

    views = [p for p in (game.path / "outbox").glob("e*-ben.eml")]
    text = (
        email.message_from_bytes(views[0].read_bytes(), policy=email.policy.default)
        .get_body(preferencelist=("plain",))
        .get_content()
    )
    assert "It is your turn" in text and "After: ann" in text and "g3-g5" in text.split("After:")[1].splitlines()[0]


# -- checks at init ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "why"),
    [
        (["--player", "ann=ann@example.org>, other@example.net"], "not a single mail address"),
        (["--player", "ann=ann@example.org\r\nBcc: x@example.net"], "not a single mail address"),
        (["--player", f"ann={BEN}"], "another player's too"),
        (["--id", "duel\r\nBcc: x@example.net"], "--id"),
        (["--id", "../escape"], "--id"),
        (["--deadline", "0h"], "--deadline: must be longer than 0"),
        (["--deadline", "1h", "--remind", "2h"], "--remind must be shorter than --deadline"),
        (["--remind", "2h"], "--remind needs --deadline"),
        (["--deadline", "1h", "--grace", "1h"], "--grace needs --late-bot"),
        (["--late-bot", "random"], "--late-bot needs --deadline"),
        (
            ["--deadline", "1h", "--late-bot", "mcts:iterations=0"],
            "bot 'mcts:iterations=0': iterations=0: out of range",
        ),
        (["--master", "gm@example.org, x@example.net"], "--master"),
        (["--smtp", "mail.example.org"], "write HOST:PORT"),
    ],
)
def test_bad_init_is_refused_before_any_file_is_made(cli, tmp_path, args, why):
    players = ["--player", f"ben={BEN}"]
    if not any(a.startswith("ann=") for a in args):
        players += ["--player", f"ann={ANN}"]
    result = cli("pbem", "init", "x", "--game", "glux", *players, *args, "--referee", REF, plugins=False)
    assert result.exit_code == 2 and why in result.stderr, result.stderr
    assert "Traceback" not in result.output and not (tmp_path / "x").exists()


def test_a_read_only_game_folder_is_one_line(tmp_path):
    """Run as a user who owns the game but may not write its folder (root may
    write anywhere, so the test drops to another user when it is root)."""
    base = Path(tempfile.mkdtemp(prefix="tabletop-ro-"))
    try:
        game = game_copy(base, plain_registry_cached(), None)
        (base / "in.eml").write_bytes(raw_mail(ANN, ["game: g"]))
        command = [sys.executable, "-m", "tabletop", "pbem", "receive", "g", "in.eml"]
        if os.geteuid() == 0:
            if not shutil.which("setpriv"):
                pytest.skip("no setpriv to drop root")
            for path in [base, *base.rglob("*")]:
                os.chown(path, 65534, 65534)
            command = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", *command]
        base.chmod(0o755)
        game.path.chmod(0o500)
        before = sorted(p.name for p in game.path.iterdir())
        result = subprocess.run(command, cwd=base, capture_output=True, text=True, timeout=120)
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1
        assert "cannot archive the message" in result.stderr
        assert sorted(p.name for p in game.path.iterdir()) == before
    finally:
        os.chmod(base / "g", 0o700)
        shutil.rmtree(base, ignore_errors=True)


def test_lateness_is_told_to_the_others_and_the_master(tmp_path, smtp):
    game = game_copy(tmp_path, plain_registry_cached(), smtp, deadline=3600)
    start = game.settings()["due"]["since"]["ann"]
    game.receive(game.mail("ben", f"move: {game.legal('ben')[0]}"), start + 60)
    done = game.referee().tick(start + 3700)
    assert done == ["late notice to ann"]
    game.send()
    assert to(smtp, BEN, "ann is late") and to(smtp, MASTER, "ann is late")
    assert to(smtp, ANN, "Late: your decision was due")
    assert game.referee().tick(start + 3800) == []  # once


@pytest.mark.parametrize(
    "record, said",
    [
        ("referee.json", "not a game directory"),
        ("game.jsonl.seed", "seed file: cannot read: not a regular file"),
        ("journal.json", "the referee's journal: cannot read: not a regular file"),
    ],
)
def test_a_fifo_in_place_of_a_referee_record_is_refused_not_waited_on(tmp_path, record, said):
    game = game_copy(tmp_path, plain_registry_cached(), None)
    target = game.path / record
    target.unlink(missing_ok=True)
    os.mkfifo(target)
    # A move from ann: the referee reads its journal first, then the seed to play it.
    (tmp_path / "in.eml").write_bytes(raw_mail(ANN, ["game: g", f"secret: {game.secrets['ann']}", "move: 2@a1"]))
    result = subprocess.run(
        [sys.executable, "-m", "tabletop", "pbem", "receive", "g", "in.eml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    output = result.stdout + result.stderr
    assert "Traceback" not in output and len(output.splitlines()) == 1
    assert said in output
    if record == "game.jsonl.seed":
        # Met while handling the mail: the mail is quarantined, the next ones go on.
        assert result.returncode == 0 and output.startswith("quarantined: UsageError: ")
    else:
        assert result.returncode == 2
