"""Bots in seats (issue 29, part 4): ``pbem init --player NAME=bot:SPEC``
seats a bot from the start. The referee plays it as soon as one of its
decisions is due, handing it the seat's view alone; its seat gets no mail;
the log holds its decisions and ``pbem status`` says who took them. Played
through a real IMAP server (dovecot on 127.0.0.1) and a real SMTP server
(aiosmtpd)."""

from __future__ import annotations

import json
import signal

import pytest

from tabletop import Hidden
from tabletop.play.engine import Replay

from .conftest import ANN, BEN, MASTER, REF, body, game_copy, plain_registry_cached, raw_mail, secret_in
from .test_imap import tabletop

BOT = "mcts:seconds=0.05"


def _init(cli, smtp, *extra: str):
    result = cli(
        "pbem", "init", "g", "--game", "glux", "--player", f"ann={ANN}", "--player", f"ben=bot:{BOT}",
        "--referee", REF, "--smtp", smtp.address, "--pictures", "svg", "--master", MASTER, *extra, plugins=False,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert cli("pbem", "send", "g", plugins=False).exit_code == 0
    return result


def _match(path):
    return Replay(plain_registry_cached(), path / "game.jsonl").run()


def _decisions(path, player: str) -> int:
    lines = [json.loads(line) for line in (path / "game.jsonl").read_text().splitlines()[1:]]
    return sum(1 for line in lines if line.get("player") == player and line["kind"] in ("start", "place"))


def _to_bots(smtp, path) -> list[str]:
    """Every mail the server got or the outbox holds for a bot's seat."""
    sent = [m["X-Envelope-To"] for m in smtp.inbox.mails if "bot:" in m["X-Envelope-To"]]
    kept = [p.name for folder in ("outbox", "sent") for p in (path / folder).glob("*.eml") if b"bot:" in p.read_bytes()]
    return sent + kept


def test_a_bot_seated_at_init_plays_as_soon_as_it_is_due(cli, tmp_path, smtp, dovecot, monkeypatch):
    """ben is a bot: it decides at init, and right after each of ann's mails
    (polled from IMAP), so the game only ever waits for ann; ben's seat gets
    no mail; ann reads what the bot played, and her own moves spoken to her;
    the log holds ben's decisions and ``pbem status`` counts them."""
    from .dovecot import PASSWORD

    monkeypatch.setenv("TABLETOP_IMAP_PASSWORD", PASSWORD)
    path = tmp_path / "g"
    _init(cli, smtp)
    assert _decisions(path, "ben") == 1  # both choose a start face at once: the bot at once
    secret = secret_in(smtp.inbox.to(ANN)[0])
    played = 0
    for _ in range(5):
        match = _match(path)
        assert list(match.node.players) == ["ann"]  # never waiting for the bot
        before = _decisions(path, "ben")
        move = match.game.notate(match.game.legal(match.state, "ann")[0])
        dovecot.deliver(raw_mail(ANN, ["game: g", f"secret: {secret}", f"move: {move}"]))
        polled = cli("pbem", "poll", "g", "--imap", dovecot.url(), plugins=False)
        assert polled.exit_code == 0, polled.output
        now = _decisions(path, "ben") - before
        assert (f"ben is played by a bot: the bot '{BOT}' played" in polled.output) == (now == 1), polled.output
        mailed = len(smtp.inbox.to(ANN))
        assert cli("pbem", "send", "g", plugins=False).exit_code == 0
        assert len(smtp.inbox.to(ANN)) == mailed + 1  # one mail: her move, and the bot's at once
        assert f"Your move {move} was played." in body(smtp.inbox.last(ANN))
        if now:
            assert f"Your move {move} was played. ben (the bot '{BOT}') played." in body(smtp.inbox.last(ANN))
        played += now
    assert played >= 3
    assert not _to_bots(smtp, path)
    status = cli("pbem", "status", "g", plugins=False)
    assert f"ben is played by the bot '{BOT}' ({1 + played} decisions)" in status.output, status.output
    data = json.loads(cli("pbem", "status", "g", "--json", plugins=False).output)
    assert data["bots"] == {"ben": {"bot": BOT, "decisions": 1 + played}}
    assert [w["player"] for w in data["waiting"]] == ["ann"]


def test_the_bot_is_handed_its_seats_view_alone(tmp_path, smtp, monkeypatch):
    """The bot decides from ben's view (ann's hidden chip a Hidden), never the state."""
    from tabletop import api
    from tabletop.referee import bots

    seen_by_bot = []
    real = api.bot_named

    def spying(registry, spec, game):
        bot = real(registry, spec, game)
        choose = bot.choose

        def look(game, known, player, legal, rng):
            seen_by_bot.append((player, known))
            return choose(game, known, player, legal, rng)

        import attrs

        return attrs.evolve(bot, choose=look)

    monkeypatch.setattr(bots, "bot_named", spying)
    game = game_copy(tmp_path, plain_registry_cached(), smtp, players=("ann", "ben"))
    settings = game.settings()
    settings["players"]["ben"]["address"] = f"bot:{BOT}"
    (game.path / "referee.json").write_text(json.dumps(settings))
    before = _match(game.path)
    done = game.referee().bots.play(0.0)
    assert done and [player for player, _ in seen_by_bot] == ["ben"]
    known = seen_by_bot[0][1]
    assert isinstance(known.hands[0], Hidden) and not isinstance(before.state.hands[0], Hidden)  # ann's chip
    assert known == before.game.view(before.state, "ben")


@pytest.mark.parametrize(
    ("player", "why"),
    [
        ("ben=bot:nosuch", "ben=bot:nosuch: unknown bot"),
        ("ben=bot:mcts:depth=3", "ben=bot:mcts:depth=3"),
        ("ben=bot:", "name the bot"),
    ],
)
def test_a_bot_that_cannot_play_is_refused_before_the_folder_is_made(cli, tmp_path, player, why):
    result = cli("pbem", "init", "g", "--game", "glux", "--player", f"ann={ANN}", "--player", player, plugins=False)
    assert result.exit_code == 2 and why in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert not (tmp_path / "g").exists()


def test_a_table_of_bots_alone_is_refused(cli, tmp_path):
    result = cli(
        "pbem", "init", "g", "--game", "glux", "--player", "ann=bot:random", "--player", "ben=bot:random",
        plugins=False,
    )  # fmt: skip
    assert result.exit_code == 2 and "needs one person at least" in result.stderr
    assert not (tmp_path / "g").exists()


def test_a_mail_in_a_bots_name_is_a_strangers(cli, tmp_path, smtp):
    """A bot's seat has a secret nobody was given: a mail naming it is
    refused, and nobody is alerted (the bot reads no mail)."""
    _init(cli, smtp)
    path = tmp_path / "g"
    before = (path / "game.jsonl").read_bytes()
    from .conftest import open_referee

    for lines in (["game: g", "player: ben", "secret: abcd-efgh-jkmn-pqrs", "move: 1@a1"], ["game: g", "player: ben"]):
        report = open_referee(plain_registry_cached(), path).receive(raw_mail("eve@example.net", lines))
        assert "played" not in report.replace("nothing was played", "")
    assert (path / "game.jsonl").read_bytes() == before
    assert not _to_bots(smtp, path)


def test_the_game_master_hands_a_bot_seat_to_a_person(cli, tmp_path, smtp):
    """``replace: ben ADDRESS``: a person plays ben from then on, with a
    secret of their own; the bot plays no more and the game waits for ben."""
    _init(cli, smtp)
    path = tmp_path / "g"
    done = cli("pbem", "replace", "g", "ben", BEN, plugins=False)
    assert done.exit_code == 0, done.output
    assert cli("pbem", "send", "g", plugins=False).exit_code == 0
    secret = secret_in(smtp.inbox.last(BEN))
    from .conftest import open_referee

    ref = open_referee(plain_registry_cached(), path)
    ann = secret_in(smtp.inbox.to(ANN)[0])
    for _ in range(2):  # ann's start chip, and her first chip if she is the start player
        match = _match(path)
        if "ann" not in match.node.players:
            break
        move = match.game.notate(match.game.legal(match.state, "ann")[0])
        report = ref.receive(raw_mail(ANN, ["game: g", f"secret: {ann}", f"move: {move}"]))
        assert "played 1 decision" in report and "bot" not in report
    after = _match(path)
    assert list(after.node.players) == ["ben"] and _decisions(path, "ben") == 1
    theirs = after.game.notate(after.game.legal(after.state, "ben")[0])
    assert "played 1 decision" in ref.receive(raw_mail(BEN, ["game: g", f"secret: {secret}", f"move: {theirs}"]))


def test_a_kill_before_the_bot_decides_is_made_good_by_the_next_tick(cli, tmp_path, smtp, dovecot):
    """A poll killed (SIGKILL) once ann's mail was handled and before the bot
    decided: the next ``tick`` plays the bot's decision, once."""
    from .conftest import open_referee

    _init(cli, smtp)
    path = tmp_path / "g"
    secret = secret_in(smtp.inbox.to(ANN)[0])

    def anns_move() -> bytes:
        match = _match(path)
        assert list(match.node.players) == ["ann"]
        move = match.game.notate(match.game.legal(match.state, "ann")[0])
        return raw_mail(ANN, ["game: g", f"secret: {secret}", f"move: {move}"])

    # Past the start chips, each of ann's placements makes the bot's turn.
    open_referee(plain_registry_cached(), path).receive(anns_move())
    if _decisions(path, "ann") == 1:
        open_referee(plain_registry_cached(), path).receive(anns_move())
    ann, ben = _decisions(path, "ann"), _decisions(path, "ben")
    dovecot.deliver(anns_move())
    killed = tabletop("pbem", "poll", "g", "--imap", dovecot.url(), cwd=tmp_path, kill_at="saved")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert _decisions(path, "ann") == ann + 1 and _decisions(path, "ben") == ben
    tick = tabletop("pbem", "tick", "g", cwd=tmp_path)
    assert tick.returncode == 0 and f"the bot '{BOT}' played" in tick.stdout, tick.stdout + tick.stderr
    again = tabletop("pbem", "tick", "g", cwd=tmp_path)
    assert "played" not in again.stdout
    assert _decisions(path, "ben") == ben + 1
    assert list(_match(path).node.players) == ["ann"]
    # ann hears of her move and the bot's in one mail.
    assert f"the bot '{BOT}') played." in body(smtp.inbox.last(ANN)) and "Your move " in body(smtp.inbox.last(ANN))


def test_a_bot_seat_is_no_voter(cli, tmp_path, smtp):
    """Trust finding 27.5: a seat a bot plays casts no vote, so it is not
    counted among those a vote needs: with the default majority (all the
    players still in the game) ann alone, the only person at the table,
    carries a draw against a bot; the draw is still shared with the bot's
    seat, which is in the game."""
    path = tmp_path / "g"
    _init(cli, smtp)
    secret = secret_in(smtp.inbox.to(ANN)[0])
    mail = raw_mail(ANN, ["game: g", f"secret: {secret}", "vote: draw"]).decode()
    received = cli("pbem", "receive", "g", plugins=False, input=mail)
    assert received.exit_code == 0, received.output
    assert "the vote to end the game in a draw is carried (ann)" in received.output, received.output
    match = _match(path)
    assert match.over and match.outcome().winners == ("ann", "ben")
