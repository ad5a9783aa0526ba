"""Mails that read well in the common mail programs: the board as a PNG
(the SVG beside it), one thread per game, a hint for a key without its
colon, deadlines in each player's time zone, and the status as JSON."""

from __future__ import annotations

import json

from .conftest import ANN, BEN, MASTER, body, game_copy, plain_registry_cached, raw_mail, topic


def test_the_board_comes_as_png_and_svg(tmp_path, smtp):
    game = game_copy(tmp_path, plain_registry_cached(), smtp, pictures="png")
    game.send()
    welcome = smtp.inbox.last(ANN)
    parts = [(p.get_filename(), p.get_content_type()) for p in welcome.iter_attachments()]
    assert parts[:2] == [("board.png", "image/png"), ("board.svg", "image/svg+xml")]
    png = next(welcome.iter_attachments()).get_content()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_every_mail_of_a_game_is_one_thread(glux):
    glux.send()
    move = glux.asked("ann")[0]
    glux.receive(glux.mail("ann", f"move: {move}", message_id="<ann-move@example.org>"))
    glux.receive(glux.mail("ann", "history", message_id="<ann-history@example.org>"))
    glux.send()
    mails = glux.smtp.inbox.to(ANN)
    assert len(mails) >= 3
    assert {m["Subject"] for m in mails} == {"[g] Glüx: ann, ben"}
    root = mails[0]["Message-ID"]
    assert root.startswith("<tabletop.g.")
    for mail in mails[1:]:
        assert mail["References"].split()[0] == root
    history = next(m for m in mails if topic(m) == "The game so far")
    assert history["In-Reply-To"] == "<ann-history@example.org>"
    assert history["References"].split() == [root, "<ann-history@example.org>"]
    # Another player's thread is their own.
    assert glux.smtp.inbox.to(BEN)[0]["Message-ID"] != root
    assert topic(glux.smtp.inbox.to(MASTER)[0]) == "You are the game master"


def test_a_key_without_its_colon_gets_a_hint(glux):
    report = glux.receive(glux.mail("ann", f"Move {glux.legal('ann')[0]}"))
    assert "line 3: did you mean 'move:'?" in report and glux.events() == 2
    glux.send()
    assert "did you mean 'move:'?" in body(glux.smtp.inbox.last(ANN))


def test_a_hint_never_quotes_a_strangers_text(glux):
    glux.receive(raw_mail("eve@example.net", ["game: g", "move BUY-PILLS-NOW"]))
    assert not [m for m in glux.outbox() if b"PILLS" in m]


def test_deadlines_are_shown_in_each_players_time_zone(tmp_path, smtp):
    game = game_copy(tmp_path, plain_registry_cached(), smtp, deadline=86400, zones={"ann": "Europe/Berlin"})
    game.send()
    ann, ben = body(smtp.inbox.last(ANN)), body(smtp.inbox.last(BEN))
    assert "Deadline: " in ann and (" CET (" in ann or " CEST (" in ann) and "UTC)" in ann
    assert "Deadline: " in ben and " UTC." in ben and "CET" not in ben


def test_tz_is_checked_and_can_be_set_later(cli, tmp_path, smtp):
    from .conftest import REF

    args = ("--game", "glux", "--player", f"ann={ANN}", "--player", f"ben={BEN}", "--referee", REF)
    bad = cli("pbem", "init", "g", *args, "--tz", "ann=Mars/Olympus", plugins=False)
    assert bad.exit_code == 2 and "--tz ann=Mars/Olympus: not a time zone" in bad.stderr
    who = cli("pbem", "init", "g", *args, "--tz", "cat=Europe/Paris", plugins=False)
    assert who.exit_code == 2 and "not a player" in who.stderr
    ok = cli("pbem", "init", "g", *args, "--pictures", "svg", "--deadline", "2d", plugins=False)
    assert ok.exit_code == 0, ok.output
    later = cli("pbem", "set", "g", "tz=ben=America/New_York", plugins=False)
    assert later.exit_code == 0 and "tz = ben=America/New_York" in later.stdout
    status = json.loads(cli("pbem", "status", "g", "--json", plugins=False).stdout)
    assert status["game_id"] == "g" and status["events"] == 2 and status["over"] is False
    assert [w["player"] for w in status["waiting"]] == ["ann", "ben"]
    assert all(w["due"].endswith("+00:00") for w in status["waiting"])
    assert status["outbox"] == 2 and status["chain_head"].startswith("chain:")
