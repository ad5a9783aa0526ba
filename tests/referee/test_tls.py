"""Finding 1: the referee checks the mail servers' certificates. A real
SMTP server on loopback (aiosmtpd) with STARTTLS (as on port 587) or
implicit TLS (as on port 465), and a certificate made by the test: one its
own CA signed for 127.0.0.1 is trusted with --ca-file; one for another
name, or signed by a CA nobody trusts, gets no password and no mail."""

from __future__ import annotations

import pytest
from aiosmtpd.controller import Controller

from tabletop.referee import delivery
from tabletop.referee.gamedir import GameDir

from .conftest import Inbox, free_port, game_copy, plain_registry_cached


class Authenticator:
    """Takes any login, and remembers the passwords it was given."""

    def __init__(self) -> None:
        self.passwords: list[bytes] = []

    def __call__(self, server, session, envelope, mechanism, auth_data):
        from aiosmtpd.smtp import AuthResult

        self.passwords.append(auth_data.password)
        return AuthResult(success=True)


def server(certs, which: str, implicit: bool):
    inbox, auth = Inbox(), Authenticator()
    context = certs.server_context(which)
    port = free_port()
    if implicit:
        controller = Controller(
            inbox, hostname="127.0.0.1", port=port, ssl_context=context, authenticator=auth, auth_require_tls=False
        )
    else:
        controller = Controller(
            inbox,
            hostname="127.0.0.1",
            port=port,
            tls_context=context,
            require_starttls=True,
            authenticator=auth,
            auth_require_tls=True,
        )
    controller.start()
    return controller, inbox, auth, port


@pytest.mark.parametrize("implicit", [False, True], ids=["starttls", "implicit-tls"])
@pytest.mark.parametrize("which", ["good", "wrong_name", "untrusted"])
def test_the_smtp_server_certificate_is_checked(tmp_path, certs, monkeypatch, implicit, which):
    game = game_copy(tmp_path, plain_registry_cached(), None)
    monkeypatch.setenv("TABLETOP_SMTP_USER", "referee")
    monkeypatch.setenv("TABLETOP_SMTP_PASSWORD", "hunter2")
    controller, inbox, auth, port = server(certs, which, implicit)
    try:
        waiting = len(GameDir(game.path).waiting())
        outcome = delivery.send(
            GameDir(game.path),
            f"127.0.0.1:{port}",
            security="tls" if implicit else "starttls",
            ca_file=str(certs.ca),
        )
    finally:
        controller.stop()
    if which == "good":
        assert outcome.problem is None and outcome.sent == waiting
        assert len(inbox.mails) == waiting and auth.passwords == [b"hunter2"]
    else:
        assert "certificate" in outcome.problem and "not trusted" in outcome.problem
        assert inbox.mails == [] and auth.passwords == []
        assert len(GameDir(game.path).waiting()) == waiting


def test_without_a_ca_file_the_system_store_does_not_trust_a_private_ca(tmp_path, certs):
    game = game_copy(tmp_path, plain_registry_cached(), None)
    controller, inbox, _, port = server(certs, "good", implicit=False)
    try:
        outcome = delivery.send(GameDir(game.path), f"127.0.0.1:{port}", security="starttls")
    finally:
        controller.stop()
    assert "not trusted" in outcome.problem and inbox.mails == []


def test_port_465_means_implicit_tls_and_587_starttls():
    assert delivery.security_of("mail.example.org:465", "auto") == "tls"
    assert delivery.security_of("mail.example.org:587", "auto") == "starttls"
    # Elsewhere STARTTLS is taken when offered (test_trust.py).
    assert delivery.security_of("localhost:25", "auto") == "auto"
    assert delivery.security_of("localhost:25", "starttls") == "starttls"


def test_init_and_set_take_the_security_and_the_ca_file(cli, tmp_path, certs):
    from .conftest import ANN, BEN, REF

    args = ("--game", "glux", "--player", f"ann={ANN}", "--player", f"ben={BEN}", "--referee", REF)
    result = cli(
        "pbem", "init", "g", *args, "--smtp", "mail.example.org:587", "--ca-file", str(certs.ca), plugins=False
    )
    assert result.exit_code == 0, result.output
    result = cli("pbem", "set", "g", "smtp_security=tls", plugins=False)
    assert result.exit_code == 0, result.output
    result = cli("pbem", "set", "g", "smtp_security=maybe", plugins=False)
    assert result.exit_code == 2 and "--smtp-security 'maybe'" in result.stderr
    (tmp_path / "bad.pem").write_text("not a certificate")
    result = cli("pbem", "set", "g", f"ca_file={tmp_path / 'bad.pem'}", plugins=False)
    assert result.exit_code == 2 and "cannot read the CA certificates" in result.stderr
