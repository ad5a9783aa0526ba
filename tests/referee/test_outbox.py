"""The outbox: each mail on its own; 5xx set aside and reported to the game
master, 4xx and a dead server retried with backoff; SMTPUTF8 for addresses
beyond ASCII; secrets blacked out in what is kept."""

from __future__ import annotations

import email
import email.policy

import pytest
from aiosmtpd.controller import Controller

from tabletop.referee import delivery
from tabletop.referee.gamedir import GameDir

from .conftest import ANN, BEN, MASTER, Inbox, free_port, game_copy, plain_registry_cached, raw_mail, topic


class Picky(Inbox):
    """An SMTP server that refuses some recipients: 550 for ``gone``, 450 for ``busy``."""

    def __init__(self, gone=(), busy=()) -> None:
        super().__init__()
        self.gone, self.busy = set(gone), set(busy)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802 (aiosmtpd's name)
        if address in self.gone:
            return "550 5.1.1 no such user"
        if address in self.busy:
            return "450 4.2.1 mailbox busy, try later"
        envelope.rcpt_tos.append(address)
        return "250 OK"


class Server:
    def __init__(self, handler, utf8: bool = True) -> None:
        self.port = free_port()
        self.inbox = handler
        self.controller = Controller(handler, hostname="127.0.0.1", port=self.port, enable_SMTPUTF8=utf8)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"


@pytest.fixture
def picky():
    servers = []

    def start(gone=(), busy=(), utf8=True) -> Server:
        server = Server(Picky(gone, busy), utf8)
        server.controller.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.controller.stop()


def test_a_refused_recipient_does_not_hold_back_the_others(tmp_path, picky):
    server = picky(gone={ANN})
    game = game_copy(tmp_path, plain_registry_cached(), server)
    outcome = game.send()
    assert outcome.sent == 2 and outcome.waiting == 0  # ben's welcome and the master's
    assert [name for name, rcpts, _ in outcome.refused] and outcome.refused[0][1] == ANN
    assert "550" in outcome.refused[0][2]
    aside = GameDir(game.path).undeliverable
    assert len(list(aside.glob("*.eml"))) == 1 and "550" in next(aside.glob("*.why")).read_text()
    assert {m["X-Envelope-To"] for m in server.inbox.mails} == {BEN, MASTER}


def test_a_permanent_refusal_is_reported_to_the_master(cli, tmp_path, picky):
    server = picky(gone={ANN})
    game_copy(tmp_path, plain_registry_cached(), server)
    result = cli("pbem", "send", "g", plugins=False)
    assert result.exit_code == 0, result.output
    assert "refused for good" in result.stdout
    report = [m for m in server.inbox.mails if m["X-Envelope-To"] == MASTER and "could not be delivered" in topic(m)]
    assert len(report) == 1 and ANN in report[0].get_body().get_content()


def test_a_temporary_refusal_is_retried_with_backoff(tmp_path, picky):
    server = picky(busy={ANN})
    game = game_copy(tmp_path, plain_registry_cached(), server)
    directory = GameDir(game.path)
    now = 1_800_000_000.0
    first = delivery.send(directory, server.address, now)
    assert first.sent == 2 and first.waiting == 1 and first.deferred and "450" in first.deferred[0][1]
    again = delivery.send(directory, server.address, now + 10)  # not yet due: not tried
    assert again.sent == 0 and again.waiting == 1 and not again.deferred
    server.inbox.busy.clear()
    later = delivery.send(directory, server.address, now + delivery.BACKOFF[0] + 1)
    assert later.sent == 1 and later.waiting == 0
    assert len([m for m in server.inbox.mails if m["X-Envelope-To"] == ANN]) == 1


def test_backoff_grows_with_each_refusal(tmp_path, picky):
    server = picky(busy={ANN})
    game = game_copy(tmp_path, plain_registry_cached(), server)
    directory = GameDir(game.path)
    now = 1_800_000_000.0
    for wait in delivery.BACKOFF[:3]:
        delivery.send(directory, server.address, now)
        tries = delivery._load_tries(directory)
        entry = next(iter(tries.values()))
        assert entry["next"] == now + wait
        now += wait


def test_a_non_ascii_address_goes_out_with_smtputf8(tmp_path, picky):
    server = picky()
    game = game_copy(tmp_path, plain_registry_cached(), server)
    game.send()
    game.receive(raw_mail("zoë@example.org", ["game: g", "hello"]))
    outcome = game.send()
    assert outcome.sent == 1 and not outcome.refused
    assert server.inbox.mails[-1]["X-Envelope-To"] == "zoë@example.org"


def test_a_non_ascii_address_is_set_aside_when_the_server_has_no_smtputf8(tmp_path, picky):
    server = picky(utf8=False)
    game = game_copy(tmp_path, plain_registry_cached(), server)
    game.send()
    game.receive(raw_mail("zoë@example.org", ["game: g", "hello"]))
    move = game.asked("ann")[0]
    game.receive(game.mail("ann", f"move: {move}"))
    outcome = game.send()
    assert [r for r in outcome.refused if "SMTPUTF8" in r[2]]
    assert outcome.sent >= 2 and outcome.waiting == 0  # the views after ann's move still went out


def test_a_dead_server_keeps_everything(tmp_path):
    game = game_copy(tmp_path, plain_registry_cached(), None)
    outcome = delivery.send(GameDir(game.path), f"127.0.0.1:{free_port()}")
    assert outcome.problem and "ConnectionRefusedError" in outcome.problem and outcome.waiting == 3


def test_the_secret_is_blacked_out_in_sent_and_the_archive(tmp_path, smtp):
    game = game_copy(tmp_path, plain_registry_cached(), smtp)
    game.send()
    secret = game.secrets["ann"]
    assert secret in smtp.inbox.last(ANN).get_body(preferencelist=("plain",)).get_content()  # the player has it
    game.receive(game.mail("ann", "history"))
    game.send()
    kept = [p.read_bytes() for folder in ("sent", "archive") for p in (game.path / folder).iterdir()]
    assert kept and not any(secret.encode() in data for data in kept)
    assert any(b"Your secret: (redacted)" in data for data in kept)
    assert any(b"secret: (redacted)" in data for data in kept)


def test_a_secret_in_a_base64_body_is_blacked_out_in_the_archive(tmp_path, smtp):
    game = game_copy(tmp_path, plain_registry_cached(), smtp)
    mail = email.message.EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = ANN, "ref@example.org", "move"
    mail.set_content(f"game: g\nsecret: {game.secrets['ann']}\n", cte="base64")
    game.receive(bytes(mail))
    for path in (game.path / "archive").iterdir():
        text = email.message_from_bytes(path.read_bytes(), policy=email.policy.default).get_body().get_content()
        assert game.secrets["ann"] not in text and "(redacted)" in text


def test_a_kill_after_the_server_accepted_sends_that_one_mail_again_with_its_message_id(tmp_path, smtp):
    """The one step SMTP cannot make exact: acceptance and the move to sent/."""
    from tabletop.referee import faults

    game = game_copy(tmp_path, plain_registry_cached(), smtp)

    class Killed(BaseException):
        pass

    def hook(point: str) -> None:
        if point == "accepted":
            raise Killed

    faults.hook = hook
    try:
        with pytest.raises(Killed):
            game.send()
    finally:
        faults.hook = None
    outcome = game.send()
    assert outcome.sent == 3 and outcome.waiting == 0
    ids = [str(m["Message-ID"]) for m in smtp.inbox.mails]
    assert len(ids) == 4 and len(set(ids)) == 3  # the first mail twice, under one Message-ID
