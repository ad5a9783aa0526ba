"""Crash consistency: the process is killed at every step boundary of a
change (a fault-injection hook raises there, as a kill would stop it), then
the next run completes the change exactly once: every event in the log once,
every view mailed once, the Message-ID recorded, sealed choices kept."""

from __future__ import annotations

import json

import pytest

from tabletop.play.engine import verify
from tabletop.referee import faults

from .conftest import game_copy, plain_registry_cached


class Killed(BaseException):
    """Stands for a kill: nothing catches it."""


def points_of(run) -> list[str]:
    """The step boundaries a change passes, in order."""
    seen: list[str] = []
    faults.hook = seen.append
    try:
        run()
    finally:
        faults.hook = None
    return seen


def kill_at(point: str, run) -> None:
    """Run, killed at the first step boundary named ``point`` (or starting with it, for "mail:")."""

    def hook(name: str) -> None:
        if name == point or (point.endswith(":") and name.startswith(point)):
            raise Killed(point)

    faults.hook = hook
    try:
        with pytest.raises(Killed):
            run()
    finally:
        faults.hook = None


def mails_named(game, prefix: str) -> list[str]:
    names = []
    for folder in ("outbox", "sent"):
        path = game.path / folder
        if path.is_dir():
            names += [p.name for p in path.glob(f"{prefix}*.eml")]
    return names


def opening(tmp_path, registry, name: str, **kw):
    """A Glüx game where ann has chosen her start chip; ben's choice brings
    the draws and the first player (a change of several events)."""
    game = game_copy(tmp_path / name, registry, None, **kw)
    assert "played 1" in game.receive(game.mail("ann", f"move: {game.legal('ann')[0]}"))
    return game


def ben_move(game) -> bytes:
    return game.mail("ben", f"move: {game.legal('ben')[0]}", message_id="<ben-move@example.org>")


def reference(tmp_path, registry):
    game = opening(tmp_path, registry, "reference")
    points = points_of(lambda: game.receive(ben_move(game)))
    return game, points


def test_the_change_passes_every_step_boundary(tmp_path):
    _, points = reference(tmp_path, plain_registry_cached())
    assert points[:3] == ["journal", "secrets", "log"]
    assert "view:ann" in points and "view:ben" in points
    assert points[-3:] == ["settings", "journal-removed", "saved"]


@pytest.mark.parametrize(
    "point", ["journal", "secrets", "log", "view:ann", "view:ben", "settings", "journal-removed", "saved"]
)
def test_a_kill_at_each_step_then_redelivery_completes_it_once(tmp_path, point):
    registry = plain_registry_cached()
    ref_game, _ = reference(tmp_path, registry)
    game = opening(tmp_path, registry, "crashed")
    raw = ben_move(game)
    kill_at(point, lambda: game.receive(raw))
    game.receive(raw)  # the mail server (or the next poll) delivers it again
    game.receive(raw)  # and once more: nothing new
    assert game.log() == ref_game.log()  # the seed decides every draw: the very same log
    last = ref_game.events()
    for player in ("ann", "ben"):
        assert len(mails_named(game, f"e{last}-{player}")) == 1
    assert not (game.path / "journal.json").exists()
    assert "<ben-move@example.org>" in game.settings()["seen"]
    assert verify(registry, game.path / "game.jsonl", require_seed=False)[0].seq == last


@pytest.mark.parametrize("point", ["journal", "secrets", "log", "view:ann", "settings", "journal-removed"])
def test_a_kill_then_another_command_finishes_or_undoes_it(tmp_path, point):
    registry = plain_registry_cached()
    game = opening(tmp_path, registry, "crashed")
    before = game.events()
    kill_at(point, lambda: game.receive(ben_move(game)))
    game.referee().tick()  # any later run recovers first
    appended = game.events() > before
    assert appended == (point not in ("journal", "secrets"))
    assert not (game.path / "journal.json").exists()
    if appended:
        assert len(mails_named(game, f"e{game.events()}-ben")) == 1
    else:
        assert "<ben-move@example.org>" not in game.settings()["seen"]
        assert "played" in game.receive(ben_move(game))  # the mail, delivered again, is played


SEALED = {"variants": ("glyph-advanced-setup",)}


@pytest.mark.parametrize("point", ["journal", "secrets", "log", "view:ann", "settings", "journal-removed", "saved"])
def test_a_kill_around_a_sealed_choice_never_loses_it(tmp_path, point):
    registry = plain_registry_cached()
    game = game_copy(tmp_path / "sealed", registry, None, game="glyph-chess", **SEALED)
    raw = game.mail("ann", "move: arrange F N U K S I E", message_id="<ann-seal@example.org>")
    kill_at(point, lambda: game.receive(raw))
    game.receive(raw)
    log = game.log().decode()
    assert log.count('"kind":"seal"') == 1
    secrets = json.loads((game.path / "game.jsonl.secrets").read_text())
    assert set(secrets) == {"ann"}
    # ben seals: both are revealed, ann's as she chose.
    assert "played" in game.receive(game.mail("ben", "move: arrange K S I E F N U"))
    log = game.log().decode()
    assert log.count('"kind":"unseal"') == 2 and '"order":["F","N","U","K","S","I","E"]' in log
    assert not (game.path / "game.jsonl.secrets").exists()


@pytest.mark.parametrize("point", ["journal", "secrets", "log", "view:ben", "settings"])
def test_a_kill_around_the_reveal_never_loses_the_first_choice(tmp_path, point):
    registry = plain_registry_cached()
    game = game_copy(tmp_path / "sealed", registry, None, game="glyph-chess", **SEALED)
    game.receive(game.mail("ann", "move: arrange F N U K S I E"))
    raw = game.mail("ben", "move: arrange K S I E F N U", message_id="<ben-seal@example.org>")
    kill_at(point, lambda: game.receive(raw))
    game.receive(raw)
    log = game.log().decode()
    assert log.count('"kind":"unseal"') == 2 and log.count('"kind":"seal"') == 2
    assert not (game.path / "game.jsonl.secrets").exists()


def test_a_kill_in_a_partly_played_mail_sends_its_answer_once(tmp_path):
    registry = plain_registry_cached()
    game = game_copy(tmp_path / "partly", registry, None)
    move = game.legal("ann")[0]
    raw = game.mail("ann", f"move: {move}", f"move: {move}", message_id="<partly@example.org>")
    kill_at("mail:", lambda: game.receive(raw))
    game.receive(raw)
    answers = [p for p in (game.path / "outbox").glob("re-*.eml")]
    assert len(answers) == 1 and b"Partly played" in answers[0].read_bytes()


def test_a_kill_while_the_late_bot_plays_is_finished_once(tmp_path):
    registry = plain_registry_cached()
    game = game_copy(tmp_path / "late", registry, None, deadline=3600, late_bot="random")
    start = game.settings()["due"]["since"]["ann"]
    kill_at("log", lambda: game.referee().tick(start + 7200))
    game.referee().tick(start + 7200)
    log = game.log().decode()
    assert log.count('"kind":"start"') == 2
    assert not (game.path / "journal.json").exists()


def test_poll_killed_before_moving_the_message_handles_it_once(cli, tmp_path, maildir, smtp):
    registry = plain_registry_cached()
    game = game_copy(tmp_path, registry, smtp)
    maildir.deliver(game.mail("ann", f"move: {game.legal('ann')[0]}"))
    kill_at("saved", lambda: game.receive(next((maildir.path / "new").iterdir()).read_bytes()))
    result = cli("pbem", "poll", "g", "--maildir", maildir.path, plugins=False)
    assert "handled before; nothing to do" in result.stdout
    assert game.log().decode().count('"kind":"start"') == 1
    assert not list((maildir.path / "new").iterdir())


KILLER = """
import os, sys
from tabletop.referee import faults
point = sys.argv[1]
faults.hook = lambda name: os._exit(137) if name == point else None
from tabletop.cli import main
main(sys.argv[2:])
"""


@pytest.mark.parametrize("point", ["secrets", "log", "view:ben"])
def test_a_real_process_exit_at_a_step_then_the_next_receive_completes_it(tmp_path, point):
    """The process itself dies (``os._exit``: no cleanup runs, the system drops its locks)."""
    import subprocess
    import sys

    registry = plain_registry_cached()
    ref_game, _ = reference(tmp_path, registry)
    game = opening(tmp_path, registry, "crashed")
    (game.path.parent / "in.eml").write_bytes(ben_move(game))
    command = [sys.executable, "-c", KILLER, point, "pbem", "receive", "g", "in.eml"]
    died = subprocess.run(command, cwd=game.path.parent, capture_output=True, text=True, timeout=120)
    assert died.returncode == 137, died.stderr
    again = subprocess.run(
        command[:3] + ["no-such-point"] + command[4:], cwd=game.path.parent, capture_output=True, text=True, timeout=120
    )
    assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr
    assert game.log() == ref_game.log()
    last = ref_game.events()
    for player in ("ann", "ben"):
        assert len(mails_named(game, f"e{last}-{player}")) == 1
    assert not (game.path / "journal.json").exists()


@pytest.mark.parametrize("point", ["master-secret-saved", "master-secret-mailed", "master-secrets-forgotten"])
@pytest.mark.parametrize("command", ["reissue", "replace"])
def test_a_kill_in_a_game_masters_new_secret_never_loses_it(tmp_path, point, command):
    """The new secret's hash and the secret still to mail are saved before any
    mail: whatever the kill, the next run mails it once, and it works."""
    import re
    from email import message_from_bytes, policy

    from tabletop.referee import passwords
    from tabletop.referee.referee import Referee

    registry = plain_registry_cached()
    game = game_copy(tmp_path, registry, None)
    extra = {"address": "bennett@example.org"} if command == "replace" else {}
    player = "ben"
    kill_at(point, lambda: Referee.open(registry, game.path).locked_master(command, player=player, **extra))
    Referee.open(registry, game.path).set({})  # the next run, whatever it is
    settings = game.settings()
    assert not settings.get("pending_secrets")
    mailed = []
    for folder in ("outbox", "sent"):
        for path in sorted((game.path / folder).glob("*.eml")) if (game.path / folder).is_dir() else []:
            mail = message_from_bytes(path.read_bytes(), policy=policy.default)
            text = mail.get_body(("plain",)).get_content()
            if "Your secret:" in text:
                mailed.append((mail["To"], re.search(r"Your secret: (\S+)", text).group(1)))
    welcome = [m for m in mailed if m[1] != game.secrets[player] and m[0] == settings["players"][player]["address"]]
    assert len(welcome) == 1, mailed  # mailed once, to the address now on record
    assert passwords.matches(welcome[0][1], settings["players"][player]["secret"])
    if command == "replace":
        assert settings["players"][player]["address"] == "bennett@example.org"
