"""What the referee promises players and organisers it keeps, against the
ways issue 26 broke it: the SMTP password and players' mail never cross the
network in the clear (finding 7); nobody can lock a player out by guessing
(finding 8); a second game on a mailbox leaves the first game's mail alone
(finding 23); every mail a player gets is built from that player's view."""

from __future__ import annotations

import json

import pytest
from aiosmtpd.controller import Controller

from tabletop.referee import delivery
from tabletop.referee.gamedir import GameDir

from .conftest import free_port, game_copy, plain_registry_cached


# -- finding 7: the SMTP connection -------------------------------------------------
class Recorder:
    """An SMTP server's side: each mail and each password, and whether it came over TLS."""

    def __init__(self) -> None:
        self.mails: list[bool] = []
        self.passwords: list[tuple[bytes, bool]] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        self.mails.append(session.ssl is not None)
        return "250 OK"

    def __call__(self, server, session, envelope, mechanism, auth_data):
        from aiosmtpd.smtp import AuthResult

        self.passwords.append((auth_data.password, session.ssl is not None))
        return AuthResult(success=True)


@pytest.fixture
def smtp_server(certs):
    """Start a real SMTP server on 127.0.0.1 (aiosmtpd) that offers STARTTLS
    (``tls=True``) or does not; it takes a password in the clear too, as a
    careless server would."""
    started = []

    def start(tls: bool):
        recorder = Recorder()
        port = free_port()
        extra = {"tls_context": certs.server_context("good"), "require_starttls": False} if tls else {}
        controller = Controller(
            recorder,
            hostname="127.0.0.1",
            port=port,
            authenticator=recorder,
            auth_require_tls=False,
            **extra,
        )
        controller.start()
        started.append(controller)
        return recorder, f"127.0.0.1:{port}"

    yield start
    for controller in started:
        controller.stop()


def _game(tmp_path, address: str, **settings):
    game = game_copy(tmp_path, plain_registry_cached(), None)
    data = json.loads((game.path / "referee.json").read_text())
    data.update(smtp=address, **settings)
    (game.path / "referee.json").write_text(json.dumps(data))
    return game


def test_auto_uses_starttls_whenever_the_server_offers_it(tmp_path, certs, smtp_server, monkeypatch, cli):
    """Trust finding 7: on a port that is neither 465 nor 587 the default
    (auto) still takes STARTTLS when the server offers it: the password and
    every mail go over TLS, the certificate checked."""
    monkeypatch.setenv("TABLETOP_SMTP_USER", "referee")
    monkeypatch.setenv("TABLETOP_SMTP_PASSWORD", "hunter2")
    server, address = smtp_server(tls=True)
    game = _game(tmp_path, address, ca_file=str(certs.ca))
    waiting = len(GameDir(game.path).waiting())
    result = cli("pbem", "send", "g", plugins=False)
    assert result.exit_code == 0, result.output
    assert server.mails == [True] * waiting and server.passwords == [(b"hunter2", True)]


def test_an_untrusted_certificate_under_auto_never_falls_back_to_the_clear(tmp_path, smtp_server, monkeypatch):
    """Trust finding 7: STARTTLS offered with a certificate the referee cannot
    trust (here: no --ca-file) is not a reason to send in the clear."""
    monkeypatch.setenv("TABLETOP_SMTP_USER", "referee")
    monkeypatch.setenv("TABLETOP_SMTP_PASSWORD", "hunter2")
    server, address = smtp_server(tls=True)
    game = _game(tmp_path, address)
    outcome = delivery.send(GameDir(game.path), address)
    assert "not trusted" in outcome.problem
    assert server.mails == [] and server.passwords == []


@pytest.mark.parametrize("password", [True, False], ids=["with-password", "without"])
def test_a_server_on_another_machine_without_starttls_gets_nothing(tmp_path, smtp_server, monkeypatch, cli, password):
    """Trust finding 7: a server that is not on this machine and offers no
    STARTTLS gets neither the password nor a mail (the welcome mails carry
    the players' secrets): one line, exit 2, the mail kept in the outbox.
    The real server runs on 127.0.0.1; the referee is told it is elsewhere."""
    monkeypatch.setattr(delivery, "on_this_machine", lambda sock: False, raising=False)
    if password:
        monkeypatch.setenv("TABLETOP_SMTP_USER", "referee")
        monkeypatch.setenv("TABLETOP_SMTP_PASSWORD", "hunter2")
    server, address = smtp_server(tls=False)
    game = _game(tmp_path, address)
    waiting = sorted(p.name for p in GameDir(game.path).waiting())
    result = cli("pbem", "send", "g", plugins=False)
    assert result.exit_code == 2, result.output
    assert len(result.stderr.splitlines()) == 1 and address in result.stderr and "clear" in result.stderr
    assert server.mails == [] and server.passwords == []
    assert sorted(p.name for p in GameDir(game.path).waiting()) == waiting


def test_plain_asked_for_by_name_sends_no_password_off_this_machine(tmp_path, smtp_server, monkeypatch, cli):
    """Trust finding 7: --smtp-security none sends in the clear as asked, but
    never a password to another machine; on this machine it may."""
    monkeypatch.setattr(delivery, "on_this_machine", lambda sock: False, raising=False)
    monkeypatch.setenv("TABLETOP_SMTP_USER", "referee")
    monkeypatch.setenv("TABLETOP_SMTP_PASSWORD", "hunter2")
    server, address = smtp_server(tls=False)
    game = _game(tmp_path, address, smtp_security="none")
    result = cli("pbem", "send", "g", plugins=False)
    assert result.exit_code == 2 and "password" in result.stderr, result.output
    assert server.mails == [] and server.passwords == []
    monkeypatch.delenv("TABLETOP_SMTP_USER")
    result = cli("pbem", "send", "g", plugins=False)
    assert result.exit_code == 0, result.output
    assert server.mails and not any(server.mails) and server.passwords == []
    del game


def test_a_server_on_this_machine_without_starttls_is_used_as_it_is(tmp_path, smtp_server, monkeypatch, cli):
    """Trust finding 7: a server on this machine (loopback) without STARTTLS:
    nothing crosses the network, so the mail goes (the password too)."""
    monkeypatch.setenv("TABLETOP_SMTP_USER", "referee")
    monkeypatch.setenv("TABLETOP_SMTP_PASSWORD", "hunter2")
    server, address = smtp_server(tls=False)
    game = _game(tmp_path, address)
    result = cli("pbem", "send", "g", plugins=False)
    assert result.exit_code == 0, result.output
    assert server.mails and server.passwords == [(b"hunter2", False)]
    del game
