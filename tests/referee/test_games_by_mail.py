"""Whole games played only through raw mails, a Maildir and a real SMTP server."""

from __future__ import annotations

import json
import random
import re

import pytest

from tabletop.play.engine import Replay

from .conftest import body, raw_mail, secret_in, topic

ADDRESS = {"ann": "ann@example.org", "ben": "ben@example.org", "cat": "cat@example.org"}


def start(cli, smtp, game, players, *extra):
    args = ["pbem", "init", "g", "--game", game, "--referee", "ref@example.org", "--smtp", smtp.address, "--id", "g"]
    args += ["--pictures", "svg"]  # a PNG per view is slow to draw; test_mail_pictures draws them
    for p in players:
        args += ["--player", f"{p}={ADDRESS[p]}"]
    result = cli(*args, *extra, plugins=False)
    assert result.exit_code == 0, result.output
    assert cli("pbem", "send", "g", plugins=False).exit_code == 0
    return {p: secret_in(smtp.inbox.last(ADDRESS[p])) for p in players}


def asked(mail) -> list[str]:
    """The legal decisions a mail lists, if it says it is the reader's turn."""
    text = body(mail)
    if "It is your turn" not in text:
        return []
    listing = text.split("Your legal decisions:\n", 1)[1]
    return [line.strip() for line in listing.splitlines() if line.startswith("  ") and "... and" not in line]


def play_by_mail(cli, tmp_path, smtp, maildir, players, secrets, choose, limit=400):
    """Each round: every player whose latest mail asks them replies; the
    referee polls the Maildir and sends. Until the game-over mails."""
    for _ in range(limit):
        replies = []
        for p in players:
            mail = smtp.inbox.last(ADDRESS[p])
            if topic(mail).startswith("Game over"):
                continue
            options = asked(mail)
            if options:
                replies.append((p, choose(p, options)))
        if not replies:
            break
        for p, move in replies:
            maildir.deliver(raw_mail(ADDRESS[p], ["game: g", f"secret: {secrets[p]}", f"move: {move}"]))
        assert cli("pbem", "poll", "g", "--maildir", maildir.path, plugins=False).exit_code == 0
        assert cli("pbem", "send", "g", plugins=False).exit_code == 0
    return {p: smtp.inbox.last(ADDRESS[p]) for p in players}


def heads(mail) -> list[str]:
    return re.findall(r"Log head after event \d+: (chain:[0-9a-f]+)", body(mail))


def test_a_whole_two_player_glux_game_by_mail(cli, tmp_path, smtp, maildir):
    secrets = start(cli, smtp, "glux", ["ann", "ben"])
    welcome = smtp.inbox.last(ADDRESS["ann"])
    assert "sha256:" in body(welcome) and [p.get_filename() for p in welcome.iter_attachments()] == ["board.svg"]
    finals = play_by_mail(cli, tmp_path, smtp, maildir, ["ann", "ben"], secrets, lambda p, options: options[0])
    early_head = heads(smtp.inbox.to(ADDRESS["ben"])[3])[0]  # from a mail early in the game
    for mail in finals.values():
        assert topic(mail).startswith("Game over"), mail["Subject"]
        text = body(mail)
        assert "Final scores:" in text and "The seed was:" in text and "tabletop verify" in text
        attachments = {a.get_filename(): a for a in mail.iter_attachments()}
        assert set(attachments) == {"board.svg", "game.jsonl", "game.html"}
        page = _attachment(mail, "game.html").decode()
        assert page.startswith("<!DOCTYPE html>") and "game.html steps through it" in text
    log = tmp_path / "final.jsonl"
    log.write_bytes(_attachment(finals["ann"], "game.jsonl"))
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert rows[-1]["kind"] == "reveal" and set(rows[0]["randomness"]) == {"commitment"}
    assert len([r for r in rows[1:] if r["kind"] == "place"]) == 46  # 23 placements each: the whole game
    # Anyone can check every draw, and that the log extends what they were sent.
    result = cli("verify", log, "--head", early_head, plugins=False)
    assert result.exit_code == 0, result.output
    assert "chance outcomes match the seed" in result.stdout
    # A history rewritten afterwards is caught.
    lines = log.read_text().splitlines()
    lines[1] = lines[1].replace('"seq":1,', '"seq": 1,')  # still the same JSON, not the same bytes
    log.write_text("\n".join(lines) + "\n")
    result = cli("verify", log, "--head", early_head, plugins=False)
    assert result.exit_code == 1 and "history you were sent was rewritten" in result.stderr


def _attachment(mail, name: str) -> bytes:
    for part in mail.iter_attachments():
        if part.get_filename() == name:
            return part.get_content() if isinstance(part.get_content(), bytes) else part.get_content().encode()
    raise AssertionError(f"no {name} attached")


@pytest.mark.slow  # half a minute; the two-player Glüx game by mail runs in every run
def test_a_whole_glyph_chess_game_by_mail(cli, tmp_path, smtp, maildir, registry):
    secrets = start(cli, smtp, "glyph-chess", ["ann", "ben"])
    greedy = registry.bot("greedy", "glyph-chess")

    def choose(player, options):
        # The player thinks with the greedy bot about the game as it stands.
        match = Replay(registry, tmp_path / "g" / "game.jsonl").run()
        legal = match.game.legal(match.state, player)
        return match.game.notate(greedy.choose(match.game, match.state, player, legal, random.Random(1)))

    finals = play_by_mail(cli, tmp_path, smtp, maildir, ["ann", "ben"], secrets, choose)
    for mail in finals.values():
        assert topic(mail).startswith("Game over")
    assert cli("verify", tmp_path / "g" / "game.jsonl", plugins=False).exit_code == 0
    assert "svg" in _attachment(finals["ben"], "board.svg").decode()


def test_a_decision_out_of_turn_is_asked_of_the_right_player(cli, tmp_path, smtp, maildir):
    # ann's force mage attacks ben's necromancer; ben may pay to escape.
    from ..glyph_chess.helpers import position

    data = position({"ann": {"g3": "F"}, "ben": {"g5": "N"}}, hands={"ann": "F F S S I", "ben": "N S S I E"})
    (tmp_path / "p.json").write_text(json.dumps(data))
    secrets = start(cli, smtp, "glyph-chess", ["ann", "ben"], "--option", "position=p.json")
    maildir.deliver(raw_mail(ADDRESS["ann"], ["game: g", f"secret: {secrets['ann']}", "move: g3-g5 / F F"]))
    cli("pbem", "poll", "g", "--maildir", maildir.path, plugins=False)
    cli("pbem", "send", "g", plugins=False)
    assert asked(smtp.inbox.last(ADDRESS["ben"])) == ["escape N", "stay"]
    assert "Waiting for ben to decide." in body(smtp.inbox.last(ADDRESS["ann"]))
    maildir.deliver(raw_mail(ADDRESS["ben"], ["game: g", f"secret: {secrets['ben']}", "move: escape N"]))
    cli("pbem", "poll", "g", "--maildir", maildir.path, plugins=False)
    cli("pbem", "send", "g", plugins=False)
    assert "ben escape N" in body(smtp.inbox.last(ADDRESS["ann"]))


def test_maildir_messages_move_to_cur_once_handled(cli, tmp_path, smtp, maildir):
    secrets = start(cli, smtp, "glux", ["ann", "ben"])
    path = maildir.deliver(raw_mail(ADDRESS["ann"], ["game: g", f"secret: {secrets['ann']}"]))
    result = cli("pbem", "poll", "g", "--maildir", maildir.path, plugins=False)
    assert result.exit_code == 0 and "1 message(s) handled" in result.stdout
    assert not path.exists() and [p.name for p in (maildir.path / "cur").iterdir()] == [path.name + ":2,S"]
    assert len(list((tmp_path / "g" / "archive").iterdir())) == 1


def test_status_names_whose_move_and_the_chain_head(cli, tmp_path, smtp):
    start(cli, smtp, "glux", ["ann", "ben"], "--deadline", "48h")
    out = cli("pbem", "status", "g", plugins=False).stdout
    assert "waiting for ann, due " in out and "waiting for ben, due " in out
    assert "outbox: 0 mail(s) waiting" in out and "chain head: chain:" in out


def test_secret_choices_by_mail_stay_sealed_until_all_are_in(cli, tmp_path, smtp, maildir):
    secrets = start(cli, smtp, "glyph-chess", ["ann", "ben"], "--variant", "glyph-advanced-setup")
    assert "This decision is secret" in body(smtp.inbox.last(ADDRESS["ann"]))
    # Each player is told where their own edge is: they cannot see the board.
    assert "arrange the pieces on your edge (a1 a2 a3 a4 a5 a6 a7, left to right" in body(
        smtp.inbox.last(ADDRESS["ann"])
    )
    assert "arrange the pieces on your edge (m7 m6 m5 m4 m3 m2 m1, left to right" in body(
        smtp.inbox.last(ADDRESS["ben"])
    )
    maildir.deliver(raw_mail(ADDRESS["ann"], ["game: g", f"secret: {secrets['ann']}", "move: arrange F N U K S I E"]))
    cli("pbem", "poll", "g", "--maildir", maildir.path, plugins=False)
    cli("pbem", "send", "g", plugins=False)
    to_ben = body(smtp.inbox.last(ADDRESS["ben"]))
    assert "ann seals a secret decision" in to_ben and "F N U K" not in to_ben
    assert "arrange" not in (tmp_path / "g" / "game.jsonl").read_text()
    maildir.deliver(raw_mail(ADDRESS["ben"], ["game: g", f"secret: {secrets['ben']}", "move: arrange K S I E F N U"]))
    cli("pbem", "poll", "g", "--maildir", maildir.path, plugins=False)
    cli("pbem", "send", "g", plugins=False)
    assert "ann reveals: ann arrange F N U K S I E" in body(smtp.inbox.last(ADDRESS["ben"]))
    assert not (tmp_path / "g" / "game.jsonl.secrets").exists()
