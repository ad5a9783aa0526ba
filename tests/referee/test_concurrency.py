"""Many deliveries, sends and polls at once, as real processes: every move
played once, every mail sent once, no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

from tabletop.play.engine import verify

from .conftest import ANN, BEN, game_copy, plain_registry_cached, raw_mail


def run_all(commands: list[list[str]], cwd) -> list[subprocess.CompletedProcess]:
    env = {**os.environ}
    env.pop("TABLETOP_PLUGINS", None)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tabletop", *c],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for c in commands
    ]
    results = []
    for command, proc in zip(commands, procs):
        out, err = proc.communicate(timeout=180)
        results.append(subprocess.CompletedProcess(command, proc.returncode, out, err))
    return results


def test_ten_deliveries_and_three_sends_at_once(tmp_path, smtp, maildir):
    game = game_copy(tmp_path, plain_registry_cached(), smtp)
    ann_move = game.mail("ann", f"move: {game.legal('ann')[0]}", message_id="<ann-move@example.org>")
    mails = [
        ann_move,
        b"Received: from a second relay\r\n" + ann_move,  # the same mail delivered twice
        game.mail("ben", f"move: {game.legal('ben')[0]}"),
        game.mail("ann", "history"),
        game.mail("ben", "help"),
        game.mail("ann", "press: hello"),
        game.mail("ben", "legal"),
        raw_mail("mallory@example.net", ["game: g", "spam"]),
        raw_mail("eve@example.net", ["game: g", "player: ann", "secret: guess"]),
        b"\x00\xff garbage",
    ]
    for i, raw in enumerate(mails):
        (tmp_path / f"m{i}.eml").write_bytes(raw)
    results = run_all([["pbem", "receive", "g", f"m{i}.eml"] for i in range(len(mails))], tmp_path)
    results += run_all([["pbem", "send", "g"] for _ in range(3)], tmp_path)
    for result in results:
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
    log = game.log().decode()
    assert log.count('"kind":"start"') == 2  # each player's move once, the duplicate not again
    assert verify(plain_registry_cached(), game.path / "game.jsonl", require_seed=False)[0]
    ids = Counter(str(m["Message-ID"]) for m in smtp.inbox.mails)
    assert ids and max(ids.values()) == 1  # no mail sent twice
    assert len(smtp.inbox.mails) == len(list((game.path / "sent").glob("*.eml")))
    assert not game.outbox()
    # Each player got exactly one view of the change that made the setup complete.
    last = game.events()
    assert sum(1 for p in (game.path / "sent").glob(f"e{last}-*.eml")) == 2
    assert len(smtp.inbox.to(ANN)) >= 3 and len(smtp.inbox.to(BEN)) >= 3


def test_two_polls_and_a_receive_at_once_handle_each_message_once(tmp_path, smtp, maildir):
    game = game_copy(tmp_path, plain_registry_cached(), smtp)
    for i in range(10):
        maildir.deliver(raw_mail("mallory@example.net" if i % 2 else ANN, ["game: g", f"note {i}"]))
    extra = tmp_path / "extra.eml"
    extra.write_bytes(game.mail("ann", f"move: {game.legal('ann')[0]}"))
    results = run_all(
        [
            ["pbem", "poll", "g", "--maildir", str(maildir.path)],
            ["pbem", "poll", "g", "--maildir", str(maildir.path)],
            ["pbem", "receive", "g", str(extra)],
        ],
        tmp_path,
    )
    for result in results:
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    handled = sum(int(r.stdout.strip().splitlines()[-1].split()[0]) for r in results[:2])
    assert handled == 10
    assert not list((maildir.path / "new").iterdir()) and len(list((maildir.path / "cur").iterdir())) == 10
    assert len(list((game.path / "archive").iterdir())) == 11
    assert game.log().decode().count('"kind":"start"') == 1
