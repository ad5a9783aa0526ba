"""Conditional moves (issue 29, part 3): 'if: THEIRS then: MINE' lines,
several deep; read against the sender's view alone (the answer is the same
whether the condition could hold or not); played at once when met,
discarded when not, withdrawn with 'clear'; shown to nobody before."""

from __future__ import annotations

import shutil

from tabletop.model.events import DECISION

from .conftest import ANN, BEN, Game, game_copy, plain_registry_cached
from .table import log_lines, queued, replayed, to


def _begun(tmp_path, smtp=None) -> Game:
    """A two-player Glüx game past its setup, ann to place."""
    game = game_copy(tmp_path, plain_registry_cached(), smtp)
    for _ in range(6):
        match = replayed(game)
        if match.state.began:
            break
        who = match.node.players[0]
        assert "played" in game.receive(game.mail(who, f"move: {game.legal(who)[0]}"))
    if replayed(game).node.players != ("ann",):
        game.receive(game.mail("ben", f"move: {game.legal('ben')[0]}"))
    assert replayed(game).node.players == ("ann",)
    return game


def _shadow(game: Game, where, steps: list[tuple[str, str]]) -> Game:
    """The game played on by ``steps`` in a copy (the seed decides the draws
    alike): to learn what will be legal after them."""
    shutil.copytree(game.path, where / "g")
    copy = Game(where / "g", dict(game.secrets), game.registry, None)
    for who, move in steps:
        assert "played" in copy.receive(copy.mail(who, f"move: {move}")), (who, move)
    return copy


def _decisions(game) -> list[tuple[str, str]]:
    match = replayed(game)
    found = []
    for line in log_lines(game)[1:]:
        event = game.registry.codec.decode(match.header.game, line)[1]
        if event.origin == DECISION and line["kind"] not in ("seal", "unseal", "resign"):
            found.append((event.player, match.game.notate(event)))
    return found


def test_a_conditional_move_is_played_at_once_when_its_condition_is_met(tmp_path, dovecot, smtp):
    """Issue 29 part 3, over real servers: ann places and leaves 'if:
    X then: Y'; ben's mail playing X is answered by ann's Y in the same
    change, ben's view says so, and nobody heard of the conditional before."""
    from .test_imap import tabletop

    game = _begun(tmp_path, smtp)
    mine = game.legal("ann")[0]
    look = _shadow(game, tmp_path / "look1", [("ann", mine)])
    theirs = look.legal("ben")[-1]
    answer = _shadow(game, tmp_path / "look2", [("ann", mine), ("ben", theirs)]).legal("ann")[-1]
    url = dovecot.url()

    def poll_and_send() -> str:
        done = tabletop("pbem", "poll", "g", "--imap", url, cwd=game.path.parent)
        assert done.returncode == 0, done.stderr
        assert tabletop("pbem", "send", "g", cwd=game.path.parent).returncode == 0
        return done.stdout

    poll_and_send()
    dovecot.deliver(game.mail("ann", f"move: {mine}", f"if: {theirs} then: {answer}"))
    out = poll_and_send()
    assert "ann left 1 conditional move(s)" in out and "played 1 decision(s) of ann" in out, out
    kept = [m for m in smtp.inbox.to(ANN) if "Conditional moves kept" in m.get_body(("plain",)).get_content()]
    assert len(kept) == 1 and f"if {theirs}, then {answer}" in kept[0].get_body(("plain",)).get_content()
    for mail in smtp.inbox.to(BEN):
        text = mail.get_body(("plain",)).get_content()
        assert "conditional" not in text.lower() and "if:" not in text
    dovecot.deliver(game.mail("ben", f"move: {theirs}"))
    out = poll_and_send()
    assert "ann's conditional move was played" in out, out
    assert _decisions(game)[-2:] == [("ben", theirs), ("ann", answer)]
    assert game.settings()["conditionals"] == {}
    text = smtp.inbox.last(BEN).get_body(("plain",)).get_content()
    assert f"Your move {theirs} was played. ann's conditional move was played." in text  # spoken to ben


def test_a_condition_not_met_discards_the_conditional_moves(tmp_path):
    """Issue 29 part 3: ben plays something else; ann's conditional
    moves are discarded, nothing is played for her, and she alone is told."""
    game = _begun(tmp_path)
    mine = game.legal("ann")[0]
    look = _shadow(game, tmp_path / "look", [("ann", mine)])
    theirs, other = look.legal("ben")[-1], look.legal("ben")[0]
    assert theirs != other
    game.receive(game.mail("ann", f"move: {mine}", f"if: {theirs} then: 6@a1"))
    before = game.names()
    report = game.receive(game.mail("ben", f"move: {other}"))
    assert "conditional" not in report
    assert _decisions(game)[-1] == ("ben", other) and replayed(game).node.players == ("ann",)
    mails = queued(game, before)
    notes = [t for t in to(mails, ANN) if "Your conditional moves were discarded" in t]
    assert len(notes) == 1 and f"ben decided {other!r}" in notes[0]
    assert not [t for t in to(mails, BEN) if "conditional" in t.lower()]
    assert game.settings()["conditionals"] == {}


def test_a_chain_several_deep_is_played_step_by_step(tmp_path):
    """Issue 29 part 3: 'if: A then: B if: C then: D' plays B after
    A, and D after C; 'clear' withdraws; new if: lines replace old ones."""
    game = _begun(tmp_path)
    mine = game.legal("ann")[0]
    steps = [("ann", mine)]
    look = _shadow(game, tmp_path / "l1", steps)
    a = look.legal("ben")[0]
    b = _shadow(game, tmp_path / "l2", steps + [("ben", a)]).legal("ann")[0]
    c = _shadow(game, tmp_path / "l3", steps + [("ben", a), ("ann", b)]).legal("ben")[0]
    d = _shadow(game, tmp_path / "l4", steps + [("ben", a), ("ann", b), ("ben", c)]).legal("ann")[0]
    game.receive(game.mail("ann", "if: 6@a1 then: 1@a1"))
    assert "withdrew 1" in game.receive(game.mail("ann", "clear"))
    game.receive(game.mail("ann", "if: 6@a1 then: 1@a1"))
    game.receive(game.mail("ann", f"move: {mine}", f"if: {a} then: {b} if: {c} then: {d}"))
    assert len(game.settings()["conditionals"]["ann"]) == 1  # the new lines replaced the old
    assert "ann's conditional move was played" in game.receive(game.mail("ben", f"move: {a}"))
    assert game.settings()["conditionals"]["ann"][0]["steps"][0]["said"] == c
    assert "ann's conditional move was played" in game.receive(game.mail("ben", f"move: {c}"))
    assert _decisions(game)[-4:] == [("ben", a), ("ann", b), ("ben", c), ("ann", d)]
    assert game.settings()["conditionals"] == {}


def test_the_late_bots_decision_meets_a_condition_too(tmp_path, monkeypatch):
    """Issue 29 part 3: ben is late and the bot decides for him; ann's
    conditional move answering that decision is played in the same change."""
    import time

    from tabletop.sight import seen

    monkeypatch.setattr(seen, "choice", lambda bot, game, state, player, legal, rng: legal[0])
    game = game_copy(tmp_path, plain_registry_cached(), None, deadline=3600, late_bot="random")
    for _ in range(6):
        match = replayed(game)
        if match.state.began:
            break
        for who in match.node.players:
            game.receive(game.mail(who, f"move: {game.legal(who)[0]}"))
    if replayed(game).node.players != ("ann",):
        game.receive(game.mail("ben", f"move: {game.legal('ben')[0]}"))
    mine = game.legal("ann")[0]
    look = _shadow(game, tmp_path / "l1", [("ann", mine)])
    bot = look.legal("ben")[0]  # the bot takes the first legal decision (as patched)
    answer = _shadow(game, tmp_path / "l2", [("ann", mine), ("ben", bot)]).legal("ann")[0]
    game.receive(game.mail("ann", f"move: {mine}", f"if: {bot} then: {answer}"))
    lines = game.referee().tick(time.time() + 7200)
    assert "ann's conditional move was played" in lines, lines
    assert _decisions(game)[-2:] == [("ben", bot), ("ann", answer)]


def test_unreadable_or_clashing_lines_are_answered_and_nothing_is_kept(tmp_path):
    """Issue 29 part 3: an if: line that is no chain, a condition that is no decision, two lines
    answering the same decision differently: answered, and the moves kept before stand."""
    game = _begun(tmp_path)
    game.receive(game.mail("ann", "if: 6@a1 then: 5@b2"))
    kept = game.settings()["conditionals"]["ann"]
    for lines, said in [
        (["if: 6@a1"], "write 'if: THEIR DECISION then: YOURS'"),
        (["if: nonsense then: 5@b2"], "cannot read 'nonsense'"),
        (["if: 6@a1 then: 5@b2", "if: 6@a1 then: 4@c3"], "answers '6@a1' with another move than line 3 does"),
    ]:
        report = game.receive(game.mail("ann", *lines))
        assert "not kept" in report and said in report, report
        assert game.settings()["conditionals"]["ann"] == kept


# -- what the sender may know, and nobody else ---------------------------------------
def _glyph_twin(tmp_path, ben_hand: str):
    from ..glyph_chess.helpers import position
    from .test_lookahead import glyph_game

    data = position({"ann": {"g3": "E"}, "ben": {"i5": "E"}}, hands={"ann": "S S", "ben": ben_hand})
    tmp_path.mkdir(parents=True, exist_ok=True)
    return glyph_game(tmp_path, data)


def _answers_to(game: Game, address: str) -> list[str]:
    import email
    import email.policy

    texts = []
    for path in sorted((game.path / "outbox").glob("re-*.eml")):
        mail = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if address in str(mail["To"]):
            texts.append(mail.get_body(("plain",)).get_content())
    return texts


def test_the_answer_never_tells_whether_the_condition_could_hold(tmp_path):
    """Issue 29 part 3: twin games of Glyph Chess that differ only in
    ben's hidden coins (in one he holds the N his spell needs, in the other
    not): ann's conditional moves on that spell get the same answer, and
    ben's mails are the same as in a game where ann left none."""
    lines = ["if: i5-i6 / N then: g3-g4 / S", "if: i5-i4 / N N then: skip"]
    answers, bens = [], []
    for name, hand, with_lines in (("a", "N N E", True), ("b", "S S E", True), ("c", "N N E", False)):
        game = _glyph_twin(tmp_path / name, hand)
        game.receive(game.mail("ann", *(lines if with_lines else ["history"]), message_id=f"<x-{name}@example.org>"))
        game.receive(game.mail("ben", "history", message_id=f"<y-{name}@example.org>"))
        game.receive(game.mail("ben", "legal", message_id=f"<z-{name}@example.org>"))
        if with_lines:
            answers.append(_answers_to(game, ANN))
        bens.append(sorted(_without_heads(t) for t in _answers_to(game, BEN)))
        if name == "a":
            assert len(game.settings()["conditionals"]["ann"]) == 2
    assert answers[0] == answers[1] and "Conditional moves kept" in answers[0][0]
    assert bens[0] == bens[1] == bens[2] and bens[0]


def _without_heads(text: str) -> str:
    """A mail's text without the log's head (a commitment to the whole log, which differs as the logs do)."""
    return "\n".join(line for line in text.splitlines() if "head" not in line.lower())


def test_a_kill_after_the_move_keeps_the_conditional_moves_of_the_same_mail(tmp_path):
    """Issue 29 part 3: a mail that places and leaves conditional moves,
    its run killed once the placement is in the log: the next run finishes
    the change and the conditional moves are kept (they went with it)."""
    from .test_crashes import kill_at

    game = _begun(tmp_path)
    mine = game.legal("ann")[0]
    raw = game.mail("ann", f"move: {mine}", "if: 6@m1 then: 5@a2", message_id="<both@example.org>")
    kill_at("log", lambda: game.receive(raw))
    assert "handled before" in game.receive(raw) or "already played" in game.receive(raw)
    assert [s["said"] for s in game.settings()["conditionals"]["ann"][0]["steps"]] == ["6@m1"]
