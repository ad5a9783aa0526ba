"""Votes by mail (issue 29, part 1): pause, resume, draw, abandon; carried
by the players still in the game (or the majority set at init); who voted
secret until the vote is carried or the turn ends; a draw or an abandon in
the log; a pause that stops the deadlines and the late bot."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ..conftest import Cli
from .conftest import ANN, BEN, CAT, MASTER, game_copy, plain_registry_cached, raw_mail, topic
from .table import check_schema, log_lines, queued, replayed, to


def _glux(tmp_path, players=("ann", "ben"), **kw):
    game = game_copy(tmp_path, plain_registry_cached(), None, players=players, **kw)
    return game


def _play(game, who: str, now: float | None = None) -> str:
    return game.receive(game.mail(who, f"move: {game.legal(who)[0]}"), now)


def _begun(game) -> None:
    """Play the setup of a Glüx game: every start chip, then the first player's draw."""
    from tabletop.model.nodes import Decide

    for _ in range(10):
        match = replayed(game)
        node = match.node
        if not isinstance(node, Decide):
            break
        who = node.players[0]
        if not match.state.began:
            assert "played 1" in _play(game, who)
        else:
            break


def test_a_draw_carried_over_real_servers_ends_the_game_with_a_shared_result(tmp_path, dovecot, smtp):
    """Issue 29 part 1: ann and ben vote draw by mail through a real IMAP
    mailbox; the game ends with an 'agreement' in the log (valid against the
    schema), replay and verify agree, and the last mails say so. ben's
    news of the vote does not name ann."""
    from .test_imap import tabletop

    game = game_copy(tmp_path, plain_registry_cached(), smtp)
    _begun(game)
    url = dovecot.url()

    def poll_and_send() -> str:
        done = tabletop("pbem", "poll", "g", "--imap", url, cwd=game.path.parent)
        assert done.returncode == 0, done.stderr
        sent = tabletop("pbem", "send", "g", cwd=game.path.parent)
        assert sent.returncode == 0, sent.stderr
        return done.stdout

    poll_and_send()
    dovecot.deliver(game.mail("ann", "vote: draw"))
    out = poll_and_send()
    assert "your vote to end the game in a draw is counted: 1 of 2 needed" in out, out
    news = [m for m in smtp.inbox.to(BEN) if topic(m) == "A vote is open"]
    assert len(news) == 1
    text = news[0].get_body(("plain",)).get_content()
    assert "draw (end the game in a draw): 1 of 2 needed" in text and "ann" not in text
    status = tabletop("pbem", "status", "g", cwd=game.path.parent)
    assert "draw (end the game in a draw): 1 of 2 needed" in status.stdout and "ann," not in status.stdout
    dovecot.deliver(game.mail("ben", "vote: draw"))
    out = poll_and_send()
    assert "the vote to end the game in a draw is carried (ann, ben)" in out, out
    lines = log_lines(game)
    assert lines[-2]["kind"] == "agreement" and lines[-2]["payload"] == {"result": "draw", "players": ["ann", "ben"]}
    assert lines[-1]["kind"] == "reveal"
    check_schema(game)
    match = replayed(game)
    assert match.over and match.outcome().winners == ("ann", "ben")
    for address in (ANN, BEN):
        last = smtp.inbox.last(address)
        assert topic(last) == "Game over: shared victory: ann, ben (a draw agreed)"
    replay = subprocess.run(
        [sys.executable, "-m", "tabletop", "replay", "game.jsonl"], cwd=game.path, capture_output=True, text=True
    )
    assert replay.returncode == 0 and "shared victory: ann, ben (a draw agreed)" in replay.stdout, replay.stderr
    verify = subprocess.run(
        [sys.executable, "-m", "tabletop", "verify", "game.jsonl"], cwd=game.path, capture_output=True, text=True
    )
    assert verify.returncode == 0, verify.stderr
    assert "the game is over" in game.receive(game.mail("ann", "vote: abandon"))


def test_who_voted_is_told_only_when_the_turn_ends(tmp_path, cli):
    """Issue 29 part 1: in a three-player game ann's vote is counted for
    all to see, but her name reaches nobody (mails, status) until the next
    event: then every view names her."""
    game = _glux(tmp_path, players=("ann", "ben", "cat"))
    _begun(game)
    before = game.names()
    match = replayed(game)
    mover = match.node.players[0]
    voter = next(p for p in ("ann", "ben", "cat") if p != mover)
    game.receive(game.mail(voter, "vote: draw"))
    mails = queued(game, before)
    others = [p for p in ("ann", "ben", "cat") if p != voter]
    for other in others:
        (text,) = to(mails, {"ann": ANN, "ben": BEN, "cat": CAT}[other])
        assert "1 of 3 needed (who voted is told when the turn ends)" in text and voter not in text
    status = cli("pbem", "status", "g", plugins=False)
    assert "1 of 3 needed" in status.stdout and voter not in status.stdout.split("waiting for")[-1]
    data = json.loads(cli("pbem", "status", "g", "--json", plugins=False).stdout)
    assert data["votes"] == {"draw": {"votes": 1, "needed": 3, "known": []}}
    before = game.names()
    assert "played" in _play(game, mover)
    views = queued(game, before)
    for other in others:
        text = [t for t in to(views, {"ann": ANN, "ben": BEN, "cat": CAT}[other]) if "Votes open:" in t][0]
        assert f"1 of 3 needed ({voter})" in text
    assert json.loads(cli("pbem", "status", "g", "--json", plugins=False).stdout)["votes"]["draw"]["known"] == [voter]


def test_only_players_still_in_the_game_vote_and_count(tmp_path):
    """Issue 29 part 1: cat resigns; her vote is refused, and ann's and
    ben's carry the vote to abandon (no winner)."""
    game = _glux(tmp_path, players=("ann", "ben", "cat"))
    _begun(game)
    assert "resigned" in game.receive(game.mail("cat", "resign"))
    assert "out of the game" in game.receive(game.mail("cat", "vote: abandon"))
    game.receive(game.mail("ann", "vote: abandon"))
    assert "carried (ann, ben)" in game.receive(game.mail("ben", "vote: abandon"))
    match = replayed(game)
    assert match.over and match.outcome().winners == () and "abandoned by agreement" in match.outcome().verdict()
    assert log_lines(game)[-2]["payload"] == {"result": "abandon", "players": ["ann", "ben"]}


def test_the_majority_set_at_init_carries_a_vote(tmp_path):
    """Issue 29 part 1: with --vote-majority 2 of three players, two votes
    carry; a vote withdrawn with unvote no longer counts."""
    game = _glux(tmp_path, players=("ann", "ben", "cat"), vote_majority="2")
    _begun(game)
    game.receive(game.mail("ann", "vote: draw"))
    assert "withdrawn" in game.receive(game.mail("ann", "unvote: draw"))
    assert "1 of 2 needed" in game.receive(game.mail("ben", "vote: draw"))
    assert "carried (ben, cat)" in game.receive(game.mail("cat", "vote: draw"))
    assert replayed(game).outcome().winners == ("ann", "ben", "cat")


def test_a_pause_vote_stops_deadlines_and_the_late_bot_until_one_player_resumes(tmp_path):
    """Issue 29 part 1: every player votes pause: no move is played, no
    late notice goes out and the late bot waits; one 'vote: resume' lifts it
    and the deadlines move on by the pause. A pause the game master made is
    the master's to lift."""
    game = _glux(tmp_path, deadline=3600, late_bot="random")
    start = game.settings()["due"]["since"]["ann"]
    game.receive(game.mail("ann", "vote: pause"), start + 10)
    assert "carried (ann, ben)" in game.receive(game.mail("ben", "vote: pause"), start + 20)
    report = game.receive(game.mail("ann", f"move: {game.legal('ann')[0]}"), start + 30)
    assert "paused by the players' vote" in report and game.events() == 2
    assert game.referee().tick(start + 3 * 3600) == []
    assert "the game resumes" in game.receive(game.mail("ben", "vote: resume"), start + 1020)
    assert game.settings()["due"]["since"]["ann"] == pytest.approx(start + 1000)
    assert "played 1" in _play(game, "ann", start + 1030)
    # The game master's pause: no player lifts it.
    master = raw_mail(MASTER, ["game: g", f"secret: {game.secrets['(master)']}", "pause"])
    game.receive(master, start + 1040)
    assert "only the game master resumes it" in game.receive(game.mail("ben", "vote: resume"), start + 1050)
    assert game.settings()["paused"]


def test_bad_votes_and_options_are_one_line(tmp_path, cli):
    """Issue 29 part 1: a vote for nothing the referee knows is answered and counts nothing; a bad
    --vote-majority is one line, exit 2, and no folder (init) or no change (set)."""
    game = _glux(tmp_path)
    assert "a vote is one of pause, resume, draw, abandon" in game.receive(game.mail("ann", "vote: surrender"))
    assert game.settings()["votes"] == {}
    bad = cli(
        "pbem",
        "init",
        "h",
        "--game",
        "glux",
        "--player",
        "ann=a@example.org",
        "--player",
        "ben=b@example.org",
        "--vote-majority",
        "most",
        plugins=False,
    )
    assert bad.exit_code == 2 and "--vote-majority 'most'" in bad.stderr and len(bad.stderr.splitlines()) == 1
    assert not (tmp_path / "h").exists()
    unset = cli("pbem", "set", "g", "vote_majority=0", plugins=False)
    assert unset.exit_code == 2 and "--vote-majority" in unset.stderr


def test_a_kill_after_the_move_keeps_the_vote_of_the_same_mail(tmp_path):
    """Issue 29 part 1: a mail that votes and places, its run killed once
    the placement is in the log: the next run finishes the change, and the
    vote is counted (it went with it), once."""
    from .test_crashes import kill_at

    game = _glux(tmp_path)
    _begun(game)
    who = replayed(game).node.players[0]
    raw = game.mail(who, "vote: draw", f"move: {game.legal(who)[0]}", message_id="<both@example.org>")
    kill_at("log", lambda: game.receive(raw))
    game.referee().tick()
    assert list(game.settings()["votes"]["draw"]) == [who]


def test_twins_that_differ_only_in_who_voted_give_the_third_player_the_same_mails(tmp_path, cli):
    """Issue 29 part 1: two three-player games alike but for who voted
    draw (ann in one, ben in the other): cat's mails and the status are the
    same in both until the turn ends."""
    seen = []
    for voter in ("ann", "ben"):
        game = _glux(tmp_path / voter, players=("ann", "ben", "cat"))
        _begun(game)
        before = game.names()
        game.receive(game.mail(voter, "vote: draw", message_id="<the-vote@example.org>"))
        status = Cli(tmp_path / voter)("pbem", "status", "g", "--json", plugins=False).stdout
        seen.append((to(queued(game, before), CAT), json.loads(status)["votes"]))
    assert seen[0] == seen[1] and seen[0][0]
