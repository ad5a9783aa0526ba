"""Observers (issue 29, part 4): ``pbem init --observer ADDRESS`` and the
game master's ``observe: ADDRESS`` (or ``pbem observe``). An observer gets
the public view after every change (what every seat may see,
tabletop.sight.seen.PUBLIC) and the whole log at the end, never a secret: twin
games that differ only in a player's hidden draw give observers the very
same mails, the log's head aside. Played through a real IMAP server
(dovecot on 127.0.0.1) and a real SMTP server (aiosmtpd)."""

from __future__ import annotations

import json
import re
from email.message import EmailMessage
from pathlib import Path

import pytest

from tabletop.play import chance
from tabletop.play.engine import Match, Replay
from tabletop.play.live import decide, make_header, settle
from tabletop.referee import referee as referee_module
from tabletop.sight import seen

from .conftest import ANN, BEN, MASTER, REF, SmtpServer, body, free_port, plain_registry_cached, raw_mail, secret_in

CAROL, DAN = "carol@example.org", "dan@example.org"


def _topic(mail: EmailMessage) -> str:
    return body(mail).split("\n", 1)[0]


def _decisions_due(path: Path) -> list[str]:
    match = Replay(plain_registry_cached(), path / "game.jsonl").run()
    return [] if match.over else list(getattr(match.node, "players", ()) or ())


def _state_at(path: Path, seq: int):
    """The game after its first ``seq`` events, replayed from the log."""
    lines = (path / "game.jsonl").read_text().splitlines(keepends=True)
    part = path.parent / f"part-{seq}.jsonl"
    part.write_text("".join(lines[: seq + 1]))
    return Replay(plain_registry_cached(), part).run()


def _first_event(mail: EmailMessage) -> int:
    return int(re.search(r"Log head after event (\d+):", body(mail)).group(1))


def test_observers_get_the_public_view_each_turn_and_the_log_at_the_end(cli, tmp_path, smtp, dovecot, monkeypatch):
    """Part 4: two observers from ``init`` follow a game of Glyph Chess played
    by IMAP (five decisions, then a resignation ends it): a welcome, then one
    mail per change whose board is the public view of the game at that event
    (both players' coins hidden) and whose news never names a hidden draw;
    the last mail brings the whole log. No observer mail holds a secret."""
    from .dovecot import PASSWORD

    monkeypatch.setenv("TABLETOP_IMAP_PASSWORD", PASSWORD)
    init = cli(
        "pbem", "init", "g", "--game", "glyph-chess", "--player", f"ann={ANN}", "--player", f"ben={BEN}",
        "--referee", REF, "--smtp", smtp.address, "--pictures", "svg",
        "--observer", CAROL, "--observer", DAN, plugins=False,
    )  # fmt: skip
    assert init.exit_code == 0, init.output
    assert cli("pbem", "send", "g", plugins=False).exit_code == 0
    secrets = {p: secret_in(smtp.inbox.last(a)) for p, a in (("ann", ANN), ("ben", BEN))}
    path = tmp_path / "g"
    changes = 0
    for step in range(6):
        due = _decisions_due(path)
        if step == 5:
            lines = ["resign"]
            who = "ben"
        else:
            who = due[0]
            match = Replay(plain_registry_cached(), path / "game.jsonl").run()
            lines = [f"move: {match.game.notate(match.game.legal(match.state, who)[0])}"]
        address = {"ann": ANN, "ben": BEN}[who]
        dovecot.deliver(raw_mail(address, ["game: g", f"secret: {secrets[who]}", *lines]))
        polled = cli("pbem", "poll", "g", "--imap", dovecot.url(), plugins=False)
        assert polled.exit_code == 0 and "1 message(s) handled" in polled.output, polled.output
        assert cli("pbem", "send", "g", plugins=False).exit_code == 0
        changes += 1
    final = Replay(plain_registry_cached(), path / "game.jsonl").run()
    assert final.over
    for watcher in (CAROL, DAN):
        mails = smtp.inbox.to(watcher)
        assert len(mails) == 1 + changes
        root = mails[0]["Message-ID"]
        assert _topic(mails[0]).startswith("Welcome. Now: ")
        assert all(m["References"].split()[0] == root for m in mails[1:])
        for mail in mails:
            text = body(mail)
            assert "Your secret" not in text and not [s for s in secrets.values() if s in mail.as_string()]
            seq = _first_event(mail)
            match = _state_at(path, seq)
            board = seen.text(match.game, match.state, seen.PUBLIC)
            assert board in text
            for player in ("ann", "ben"):
                theirs = seen.text(match.game, match.state, player)
                assert theirs == board or theirs not in text  # a seat's view, where it shows more
            events, _ = referee_module.Referee.open(plain_registry_cached(), path).read_log("glyph-chess")
            for number, event in events[:seq]:
                whole = match.describe(event)
                if not seen.sees(match.game, event, seen.PUBLIC) and not match.over:
                    assert f"{number}. {whole}\n" not in text, (number, whole)
        last = mails[-1]
        assert _topic(last).startswith("Game over: ")
        attached = {p.get_filename(): p.get_content() for p in last.iter_attachments()}
        log = attached["game.jsonl"]
        log = log.decode() if isinstance(log, bytes) else log
        assert log == (path / "game.jsonl").read_text()
        assert "game.html" in attached and "The seed was: " in body(last)
    status = json.loads((path / "referee.json").read_text())
    assert [w["address"] for w in status["observers"]] == [CAROL, DAN]


# -- twin games: only a player's hidden draw differs ----------------------------------


def _glux_after(seed: str, moves: int) -> list:
    """The events of a two-player Glüx game on ``seed``, each player taking
    their first legal decision, ``moves`` decisions long."""
    registry = plain_registry_cached()
    header, seed, _ = make_header(registry, "glux", ["ann", "ben"], [], {}, seed)
    match = Match(registry, header)
    events = settle(match, seed, {})
    for _ in range(moves):
        player = match.node.players[-1]  # ben first, as the twins are played
        events += decide(match, match.game.legal(match.state, player)[0], seed, {})
    return [(match.describe(e), match.describe(e, seen.told(match.game, e, seen.PUBLIC))) for e in events]


def _twin_seeds() -> tuple[str, str, int]:
    """Two seeds whose games read alike to a watcher for their first
    decisions while ann holds a different hidden chip: the seeds, and how
    many decisions the twins may play before ann places that chip."""
    first: dict[tuple, list[tuple[str, list]]] = {}
    for number in range(400):
        seed = f"twin-{number}"
        events = _glux_after(seed, 3)
        public = tuple(told for _, told in events)
        for other, other_events in first.get(public, []):
            differs = [whole for (whole, told), (theirs, _) in zip(events, other_events) if whole != theirs]
            if differs and all(w.startswith("ann draws") for w in differs):
                return other, seed, 3
        first.setdefault(public, []).append((seed, events))
    pytest.fail("no twin seeds among 400")


def _observer_mails(tmp_path: Path, seed: str, moves: int, monkeypatch) -> tuple[list[str], list[str], bytes]:
    """A game by mail on ``seed`` with an observer: ``moves`` decisions mailed
    (ben first, each the first legal one), every mail sent to a real SMTP
    server. The observer's and ben's mails (text and HTML, the log's head
    taken out), and the log."""
    registry = plain_registry_cached()
    monkeypatch.setattr(chance, "new_seed", lambda: seed)
    server = SmtpServer(free_port())
    server.start()
    try:
        secrets = referee_module.init(
            registry, tmp_path / "g", "glux", [("ann", ANN), ("ben", BEN)], referee=REF, smtp=server.address,
            game_id="g", master=MASTER, pictures="svg", observers=[CAROL],
        )  # fmt: skip
        monkeypatch.undo()
        ref = referee_module.Referee.open(registry, tmp_path / "g")
        from tabletop.referee import delivery
        from tabletop.referee.gamedir import GameDir

        delivery.send(GameDir(tmp_path / "g"), server.address)
        for step in range(moves):
            match = ref.replay()
            who = match.node.players[-1]
            move = match.game.notate(match.game.legal(match.state, who)[0])
            address = {"ann": ANN, "ben": BEN}[who]
            raw = raw_mail(address, ["game: g", f"secret: {secrets[who]}", f"move: {move}"], message_id=f"<m{step}@x>")
            assert "played 1 decision" in ref.receive(raw)
            delivery.send(GameDir(tmp_path / "g"), server.address)
        mails = {
            who: [_readable(m) for m in server.inbox.to(address)] for who, address in (("carol", CAROL), ("ben", BEN))
        }
    finally:
        server.stop()
    return mails["carol"], mails["ben"], (tmp_path / "g" / "game.jsonl").read_bytes()


def _readable(mail: EmailMessage) -> str:
    """A mail's text, HTML and pictures, less what differs between any two
    mails (ids, dates, boundaries) and the commitments: the log's head and
    the seed's hash, which differ as the twins' logs and seeds do (each a
    hash no one can read back: the chain is salted from the seed)."""
    parts = []
    for part in mail.walk():
        if part.is_multipart():
            continue
        content = part.get_content()
        content = content.decode("latin-1") if isinstance(content, bytes) else content
        parts.append(f"[{part.get_content_type()} {part.get_filename()}]\n{content}")
    text = re.sub(r"(chain|sha256):[0-9a-f]{64}", r"\1:HASH", "\n".join(parts))
    return re.sub(r"\b[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}\b", "SECRET", text)  # ben's own, made anew


def test_twin_games_differing_in_a_hidden_draw_give_observers_the_same_mails(tmp_path, monkeypatch):
    """Part 4's twin test: two games whose only difference so far is the chip
    ann drew (hidden in her hand) give the observer identical mails, text,
    HTML and pictures alike, the commitments aside (the log's head, the
    seed's hash); ben's mails too."""
    first, second, moves = _twin_seeds()
    carol_a, ben_a, log_a = _observer_mails(tmp_path / "a", first, moves, monkeypatch)
    carol_b, ben_b, log_b = _observer_mails(tmp_path / "b", second, moves, monkeypatch)
    assert log_a != log_b  # the twins differ, in what no observer may see
    assert len(carol_a) == 1 + moves and len(ben_a) == 1 + moves
    assert "ann draws a chip" in carol_a[-1] and "ann draws a chip" in ben_a[-1]
    assert carol_a == carol_b
    assert ben_a == ben_b


# -- the game master adds one later ----------------------------------------------------


def test_the_game_master_adds_an_observer_by_mail_and_on_the_command_line(tmp_path, smtp, cli):
    """``observe: ADDRESS`` from the master (with the master's secret): the
    observer is welcomed with the game so far as the public sees it, then
    gets every change; ``pbem observe`` does the same; a bad address, a
    player's, or one already watching is one line and changes nothing."""
    from .conftest import game_copy

    game = game_copy(tmp_path, plain_registry_cached(), smtp)
    game.send()
    master_secret = game.secrets["(master)"]
    move = game.legal("ann")[0]
    assert "played 1" in game.receive(game.mail("ann", f"move: {move}"))
    report = game.receive(raw_mail(MASTER, ["game: g", f"secret: {master_secret}", f"observe: {CAROL}"]))
    assert f"{CAROL} observes the game" in report, report
    game.send()
    (welcome,) = smtp.inbox.to(CAROL)
    assert _topic(welcome) == "Welcome. Now: ben to decide"
    assert "So far:\n  1. ann draws a chip\n  2. ben draws a chip\n  3. ann " in body(welcome)
    assert "hand hidden" in body(welcome) and "Your secret" not in body(welcome)
    assert "ben" in body(smtp.inbox.last(MASTER)) or "observes" in body(smtp.inbox.last(MASTER))
    assert "played 1" in game.receive(game.mail("ben", f"move: {game.legal('ben')[0]}"))
    game.send()
    assert len(smtp.inbox.to(CAROL)) == 2 and "Since your last mail:\n  4. ben " in body(smtp.inbox.last(CAROL))
    # The same on the command line.
    done = cli("pbem", "observe", "g", DAN, plugins=False)
    assert done.exit_code == 0 and f"{DAN} observes the game" in done.output
    before = (tmp_path / "g" / "referee.json").read_bytes()
    for address, why in (
        ("not an address", "not a single mail address"),
        (ANN, "ann plays from that address"),
        (CAROL, "already an observer"),
        ("x@y>, z@w", "not a single mail address"),
    ):
        refused = cli("pbem", "observe", "g", address, plugins=False)
        assert refused.exit_code == 2 and why in refused.stderr and "Traceback" not in refused.stderr
        assert refused.stderr.count("\n") == 1
    assert (tmp_path / "g" / "referee.json").read_bytes() == before


def test_observers_hear_what_every_player_is_told_alike(tmp_path, smtp):
    """A note to every player alike (the game paused, resumed, ended) is no
    seat's secret: the observers get it too."""
    from .conftest import game_copy

    game = game_copy(tmp_path, plain_registry_cached(), smtp, observers=(CAROL,))
    master = ["game: g", f"secret: {game.secrets['(master)']}"]
    for line in ("pause", "resume", "end"):
        assert "game master:" in game.receive(raw_mail(MASTER, [*master, line]))
    game.send()
    topics = [_topic(m) for m in smtp.inbox.to(CAROL)]
    assert topics[1:] == ["The game is paused", "The game resumes", "The game was ended"]


def test_observers_at_init_are_checked_before_the_folder_is_made(cli, tmp_path):
    base = ("pbem", "init", "g", "--game", "glux", "--player", f"ann={ANN}", "--player", f"ben={BEN}")
    for address, why in (("carol", "not a single mail address"), (BEN, "ben plays from that address")):
        refused = cli(*base, "--observer", address, plugins=False)
        assert refused.exit_code == 2 and why in refused.stderr and not (tmp_path / "g").exists()
    twice = cli(*base, "--observer", CAROL, "--observer", CAROL.upper(), plugins=False)
    assert twice.exit_code == 2 and "already an observer" in twice.stderr


def test_an_observer_has_no_say(tmp_path, smtp):
    """An observer's mail is a stranger's: nothing is played, whatever it says."""
    from .conftest import game_copy

    game = game_copy(tmp_path, plain_registry_cached(), smtp, observers=(CAROL,))
    before = game.log()
    report = game.receive(raw_mail(CAROL, ["game: g", f"move: {game.legal('ann')[0]}", "player: ann", "secret: x"]))
    assert "wrong secret" in report or "not" in report
    assert game.log() == before
    game.receive(raw_mail(CAROL, ["game: g", "pause"]))
    assert not game.settings().get("paused")


class Killed(BaseException):
    """A run cut short at a step (no handler catches it, as none outlives a kill)."""


@pytest.mark.parametrize("point", ["view:ben", "settings"])
def test_a_change_finished_after_a_crash_mails_each_observer_once(tmp_path, smtp, point):
    """The observer's mail is queued under the change's key: a change a crash
    cut short after the log append (before the observer's mail was queued,
    or after) is finished once, the observer mailed once."""
    from tabletop.referee import faults

    from .conftest import game_copy

    game = game_copy(tmp_path, plain_registry_cached(), smtp, observers=(CAROL,))
    move = game.legal("ann")[0]
    raw = game.mail("ann", f"move: {move}", message_id="<crash@x>")

    def die(name: str) -> None:
        if name == point:
            raise Killed(name)

    faults.hook = die
    try:
        with pytest.raises(Killed):
            game.receive(raw)
    finally:
        faults.hook = None
    assert (game.path / "journal.json").exists()
    game.receive(raw)
    game.send()
    assert not (game.path / "journal.json").exists()
    mails = smtp.inbox.to(CAROL)
    assert len(mails) == 2 and "Since your last mail:\n  3. ann " in body(mails[1])
