"""Delivery that survives a dead SMTP server, deliveries at once, deadlines."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest

from tabletop.play.engine import Replay

from .conftest import ANN, BEN, SmtpServer, body, free_port, init_glux, raw_mail, secret_in, topic


def test_smtp_down_then_up_nothing_is_lost(cli, tmp_path):
    port = free_port()
    init_glux(cli, f"127.0.0.1:{port}")
    result = cli("pbem", "send", "g", plugins=False)
    assert result.exit_code == 1
    assert "2 mail(s) kept in the outbox" in result.stderr and "Traceback" not in result.stderr
    assert len(list((tmp_path / "g" / "outbox").iterdir())) == 2
    server = SmtpServer(port)
    server.start()
    try:
        result = cli("pbem", "send", "g", plugins=False)
        assert result.exit_code == 0 and "2 mail(s) sent, 0 waiting." in result.stdout
        assert {m["To"] for m in server.inbox.mails} == {ANN, BEN}
        assert not list((tmp_path / "g" / "outbox").iterdir()) and len(list((tmp_path / "g" / "sent").iterdir())) == 2
    finally:
        server.stop()


def test_receive_reads_standard_input(cli, tmp_path, smtp):
    init_glux(cli, smtp.address)
    result = cli("pbem", "receive", "g", input=raw_mail(ANN, ["game: g"]).decode(), plugins=False)
    assert result.exit_code == 0 and "no secret" in result.stdout


def test_two_receive_processes_at_once_never_interleave(cli, tmp_path, smtp):
    init_glux(cli, smtp.address)
    cli("pbem", "send", "g", plugins=False)
    secrets = {"ann": secret_in(smtp.inbox.last(ANN)), "ben": secret_in(smtp.inbox.last(BEN))}
    # In setup both players choose at once: two mails, delivered together.
    mails = []
    for player, address in (("ann", ANN), ("ben", BEN)):
        move = body(smtp.inbox.last(address)).split("Your legal decisions:\n", 1)[1].splitlines()[0].strip()
        path = tmp_path / f"{player}.eml"
        path.write_bytes(raw_mail(address, ["game: g", f"secret: {secrets[player]}", f"move: {move}"]))
        mails.append(path)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tabletop", "pbem", "receive", "g", str(m)],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for m in mails
    ]
    outputs = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    assert all("played 1 decision(s)" in out for out, _ in outputs)
    from tabletop import Registry, get_plugin_manager

    match = Replay(Registry(get_plugin_manager(environment=False)), tmp_path / "g" / "game.jsonl").run()
    kinds = [line for line in (tmp_path / "g" / "game.jsonl").read_text().splitlines()[1:]]
    assert sum('"kind":"start"' in k for k in kinds) == 2 and match.state.began


def at(hours: float) -> str:
    return (datetime.now(timezone.utc) + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_deadline_reminder_then_late_notice(cli, tmp_path, smtp):
    init_glux(cli, smtp.address, "--deadline", "48h", "--remind", "12h")
    cli("pbem", "send", "g", plugins=False)
    assert cli("pbem", "tick", "g", "--now", at(1), plugins=False).stdout.strip() == "0 mail(s) sent, 0 waiting."
    out = cli("pbem", "tick", "g", "--now", at(40), plugins=False).stdout
    assert "reminded ann" in out and "reminded ben" in out
    assert topic(smtp.inbox.last(ANN)) == "Reminder: your decision is due"
    out = cli("pbem", "tick", "g", "--now", at(41), plugins=False).stdout
    assert "reminded" not in out  # once
    out = cli("pbem", "tick", "g", "--now", at(49), plugins=False).stdout
    assert "late notice to ann" in out
    late = next(m for m in reversed(smtp.inbox.to(ANN)) if "Late:" in topic(m))
    assert topic(late) == "Late: your decision was due" and "The game waits for you." in body(late)


@pytest.mark.parametrize("bot", ["random", "mcts:iterations=50"])
def test_the_late_bot_decides_after_the_grace_period(cli, tmp_path, smtp, bot):
    init_glux(cli, smtp.address, "--deadline", "1h", "--late-bot", bot, "--grace", "30m")
    cli("pbem", "send", "g", plugins=False)
    out = cli("pbem", "tick", "g", "--now", at(1.2), plugins=False).stdout
    assert "late notice to ann" in out and "was late: the bot" not in out
    late = next(m for m in reversed(smtp.inbox.to(ANN)) if "Late:" in topic(m))
    assert f"The bot '{bot}' decides for you after" in body(late)
    assert "ann is late" in body(next(m for m in reversed(smtp.inbox.to(BEN)) if topic(m) == "ann is late"))
    out = cli("pbem", "tick", "g", "--now", at(1.6), plugins=False).stdout
    assert f"ann was late: the bot '{bot}' played" in out and f"ben was late: the bot '{bot}' played" in out
    # The others read that the bot decided; what it decided, in their news, as they may see it.
    assert any(f"ann was late: the bot '{bot}' decided for ann." in body(m) for m in smtp.inbox.to(BEN))
    starts = [json.loads(line) for line in (tmp_path / "g" / "game.jsonl").read_text().splitlines()[1:]]
    assert sum(1 for e in starts if e["kind"] == "start") == 2


def test_status_and_a_bad_directory(cli, tmp_path, smtp):
    result = cli("pbem", "status", "nowhere", plugins=False)
    assert result.exit_code == 2 and "not a game directory" in result.stderr
    init_glux(cli, smtp.address)
    result = cli(
        "pbem", "init", "g", "--game", "glux", "--player", f"ann={ANN}", "--player", f"ben={BEN}", plugins=False
    )
    assert result.exit_code == 2 and "the folder exists and is not empty" in result.stderr


def test_bad_init_options(cli, tmp_path):
    result = cli("pbem", "init", "x", "--game", "glux", "--player", "ann", "--player", f"ben={BEN}", plugins=False)
    assert result.exit_code == 2 and "--player 'ann': write NAME=ADDRESS" in result.stderr
    result = cli(
        "pbem", "init", "x", "--game", "glux", "--player", "ann=nobody", "--player", f"ben={BEN}", plugins=False
    )
    assert result.exit_code == 2 and "not a single mail address" in result.stderr
    result = cli(
        "pbem",
        "init",
        "x",
        "--game",
        "glux",
        "--player",
        f"ann={ANN}",
        "--player",
        f"ben={BEN}",
        "--deadline",
        "soon",
        plugins=False,
    )
    assert result.exit_code == 2 and "--deadline 'soon'" in result.stderr
    assert not (tmp_path / "x").exists()
