"""Missed turns and replacements (issue 29, part 2): each player's missed
deadlines counted and shown to all; civil disorder after N, when the late
bot plays at once; a seat offered with 'pbem seek' and taken by the first
valid 'claim:', with a fresh secret, the old one refused, and the change of
hands in the log."""

from __future__ import annotations

import re

import pytest

from tabletop.referee import passwords

from .conftest import ANN, BEN, MASTER, game_copy, plain_registry_cached, raw_mail
from .table import check_schema, log_lines, parsed, queued, replayed, to

SUB, OTHER = "sub@example.net", "other@example.net"


def _disorder_game(tmp_path, smtp=None, **kw):
    kw = {"deadline": 3600, "late_bot": "random", "civil_disorder": 2, **kw}
    return game_copy(tmp_path, plain_registry_cached(), smtp, **kw)


def _ann_misses(game, times: int, start: float) -> float:
    """ann lets her deadline pass ``times`` times (ben plays in between); the moment after."""
    now = start
    for _ in range(times):
        while "ben" in (replayed(game).node.players or ()) or "ann" not in replayed(game).node.players:
            assert "played" in game.receive(game.mail("ben", f"move: {game.legal('ben')[0]}"), now)
            now += 1
        now = game.settings()["due"]["since"]["ann"] + 3601
        lines = game.referee().tick(now)
        assert "late notice to ann" in lines, lines
    return now


def test_missed_deadlines_are_shown_to_all_and_civil_disorder_lets_the_bot_play_at_once(tmp_path):
    """Issue 29 part 2: ann's missed deadlines are counted in every
    player's mail; at two she is in civil disorder (everyone and the
    master told), and from then on the late bot decides for her as soon as
    her decision is due, before any deadline. A decision she mails herself
    brings her back."""
    game = _disorder_game(tmp_path)
    start = game.settings()["due"]["since"]["ann"]
    before = game.names()
    now = _ann_misses(game, 1, start)
    text = [t for t in to(queued(game, before), BEN) if "Since your last mail" in t][-1]
    assert "Deadlines missed: ann 1, ben 0." in text
    before = game.names()
    now = _ann_misses(game, 1, now)
    mails = queued(game, before)
    assert any("ann missed 2 deadlines and is in civil disorder" in t for t in to(mails, BEN))
    assert any("pbem seek DIR ann" in t for t in to(mails, MASTER))
    assert game.settings()["players"]["ann"]["disorder"]
    # ann's next decision: the bot plays it at the first tick, long before her deadline.
    while "ben" in replayed(game).node.players or "ann" not in replayed(game).node.players:
        game.receive(game.mail("ben", f"move: {game.legal('ben')[0]}"), now)
        now += 1
    events = game.events()
    lines = game.referee().tick(now + 5)
    assert any("ann is in civil disorder: the bot 'random' played" in line for line in lines), lines
    assert game.events() > events and game.settings()["players"]["ann"]["missed"] == 2
    text = [t for t in to(queued(game, before), BEN) if "Since your last mail" in t][-1]
    assert "Deadlines missed: ann 2 (civil disorder), ben 0." in text
    while "ben" in replayed(game).node.players or "ann" not in replayed(game).node.players:
        game.receive(game.mail("ben", f"move: {game.legal('ben')[0]}"), now)
        now += 1
    assert "played 1" in game.receive(game.mail("ann", f"move: {game.legal('ann')[0]}"), now + 10)
    assert not game.settings()["players"]["ann"]["disorder"]


def _tokens(mails) -> dict[str, str]:
    found = {}
    for mail in mails:
        text = mail.get_body(("plain",)).get_content()
        if "claim:" in text:
            found[str(mail["To"])] = re.search(r"claim: (\S+)", text).group(1)
    return found


def test_a_seat_sought_is_taken_by_the_first_valid_claim(tmp_path, smtp, cli):
    """Issue 29 part 2: 'pbem seek' mails each address a token of
    its own; a wrong token takes nothing; the first valid claim takes ann's
    seat: a fresh secret mailed to the address the seat was offered to, the
    game as the seat sees it, ann's old secret refused, the other offer
    lapsed, and a 'handover' event in the log. Tokens never stay in the
    copies kept."""
    game = _disorder_game(tmp_path, smtp)
    start = game.settings()["due"]["since"]["ann"]
    _ann_misses(game, 2, start)
    game.send()
    before = game.names()
    seek = cli("pbem", "seek", "g", "ann", "--to", SUB, "--to", OTHER, plugins=False)
    assert seek.exit_code == 0 and "offered to sub@example.net, other@example.net" in seek.stdout, seek.output
    tokens = _tokens(queued(game, before))
    assert set(tokens) == {SUB, OTHER} and tokens[SUB] != tokens[OTHER]
    game.send()
    for path in (game.path / "sent").glob("seek-*.eml"):
        assert tokens[SUB].encode() not in path.read_bytes() and tokens[OTHER].encode() not in path.read_bytes()
    wrong = game.receive(raw_mail("chancer@example.net", ["game: g", "claim: abcd-efgh-jkmn-pqrs"]))
    assert "no seat of this game is offered" in wrong and "handover" not in game.log().decode()
    events = game.events()
    report = game.receive(raw_mail(SUB, ["game: g", f"claim: {tokens[SUB]}"], message_id="<claim@example.net>"))
    assert report == f"{SUB} took ann's seat (was {ANN})", report
    lines = log_lines(game)
    assert lines[-1] == {"seq": events + 1, "kind": "handover", "player": "ann", "payload": {}}
    check_schema(game)
    game.send()
    welcome = [m for m in smtp.inbox.to(SUB) if "Your secret:" in m.get_body(("plain",)).get_content()]
    assert len(welcome) == 1
    secret = re.search(r"Your secret: (\S+)", welcome[0].get_body(("plain",)).get_content()).group(1)
    assert passwords.matches(secret, game.settings()["players"]["ann"]["secret"])
    view = [m.get_body(("plain",)).get_content() for m in smtp.inbox.to(SUB) if "So far:" in str(m)]
    assert view and "a new player takes ann's seat" in view[-1]
    assert any("A substitute took ann's seat" in m.get_body(("plain",)).get_content() for m in smtp.inbox.to(ANN))
    assert any("was taken by another substitute" in m.get_body(("plain",)).get_content() for m in smtp.inbox.to(OTHER))
    # The old secret is refused (its holder told the seat is no longer his); the new one plays, from the new address.
    old = raw_mail(ANN, ["game: g", "player: ann", f"secret: {game.secrets['ann']}", "history"])
    assert "the seat is no longer yours" in game.receive(old)
    again = game.receive(raw_mail(OTHER, ["game: g", f"claim: {tokens[OTHER]}"]))
    assert "no seat of this game is offered" in again, again
    settings = game.settings()
    assert settings["players"]["ann"]["address"] == SUB and settings["players"]["ann"]["missed"] == 0
    assert settings["offers"] == []
    for path in (game.path / "archive").glob("*.eml"):
        assert tokens[SUB].encode() not in path.read_bytes()
    if "ann" in replayed(game).node.players:
        move = game.legal("ann")[0]
        assert "played 1" in game.receive(raw_mail(SUB, ["game: g", f"secret: {secret}", f"move: {move}"]))


def test_seek_checks_what_it_is_given(tmp_path, cli):
    """Issue 29 part 2: seek refuses a seat that is no player's, a player's address and a bad one in
    one line each, offering nothing; without --to it offers the game's substitutes."""
    game = _disorder_game(tmp_path, substitutes=(SUB,))
    none = cli("pbem", "seek", "g", "zed", plugins=False)
    assert none.exit_code == 2 and "'zed' is not a player" in none.stderr
    player = cli("pbem", "seek", "g", "ann", "--to", BEN, plugins=False)
    assert player.exit_code == 2 and "plays ben already" in player.stderr and len(player.stderr.splitlines()) == 1
    bad = cli("pbem", "seek", "g", "ann", "--to", "not an address", plugins=False)
    assert bad.exit_code == 2 and "not a single mail address" in bad.stderr
    assert not game.settings().get("offers")
    listed = cli("pbem", "seek", "g", "ann", plugins=False)  # the substitutes set at init
    assert listed.exit_code == 0 and SUB in listed.stdout
    unset = cli("pbem", "init", "h", "--game", "glux", "--player", "a=a@x.org", "--player", "b=b@x.org",
                "--civil-disorder", "2", plugins=False)  # fmt: skip
    assert unset.exit_code == 2 and "--civil-disorder needs --deadline" in unset.stderr


@pytest.mark.parametrize("point", ["journal", "log", "mail:", "view:ben", "settings", "journal-removed", "saved"])
def test_a_kill_in_a_claim_hands_the_seat_over_once(tmp_path, point):
    """Issue 29 part 2: a claim is one change: killed at any step,
    the claim delivered again takes the seat once: one handover, one secret
    mailed, and it works."""
    from .test_crashes import kill_at

    game = _disorder_game(tmp_path)
    ref = game.referee()
    before = game.names()
    ref.locked_master("seek", player="ann", addresses=[SUB])
    token = _tokens(queued(game, before))[SUB]
    raw = raw_mail(SUB, ["game: g", f"claim: {token}"], message_id="<claim@example.net>")
    kill_at(point, lambda: game.receive(raw))
    game.receive(raw)
    game.receive(raw)
    assert game.log().decode().count('"kind":"handover"') == 1
    secrets = []
    for folder in ("outbox", "sent"):
        for path in (game.path / folder).glob("*.eml") if (game.path / folder).is_dir() else []:
            text = parsed(path.read_bytes()).get_body(("plain",)).get_content()
            if "Your secret:" in text and "now play ann" in text:
                secrets.append(re.search(r"Your secret: (\S+)", text).group(1))
    assert len(secrets) == 1 and passwords.matches(secrets[0], game.settings()["players"]["ann"]["secret"])
    assert game.settings()["players"]["ann"]["address"] == SUB
    assert not (game.path / "journal.json").exists()


def test_the_offer_of_a_seat_tells_nothing_the_seat_hides(tmp_path):
    """Issue 29 part 2: twin games of Glyph Chess that differ only in ann's
    hidden coins: the offers of ann's seat are the same mail (their tokens
    aside); the substitute sees the seat's game only once it is theirs."""
    from tabletop.referee import blackout

    from ..glyph_chess.helpers import position
    from .test_lookahead import glyph_game

    offers = []
    for name, hand in (("a", "N N E"), ("b", "S U I")):
        (tmp_path / name).mkdir()
        game = glyph_game(tmp_path / name, position({"ann": {"g3": "E"}}, hands={"ann": hand, "ben": "S"}))
        before = game.names()
        game.referee().locked_master("seek", player="ann", addresses=[SUB])
        (mail,) = queued(game, before)
        offers.append(blackout.text(mail.get_body(("plain",)).get_content()))
    assert offers[0] == offers[1] and "(redacted)" in offers[0]
