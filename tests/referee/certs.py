"""Certificates for the TLS tests, made with the openssl command: a CA of
the test's own, a server certificate it signed for 127.0.0.1, one it signed
for another name, and one signed by nobody the client trusts."""

from __future__ import annotations

import shutil
import ssl
import subprocess
from pathlib import Path

import attrs
import pytest


@attrs.frozen
class Certs:
    ca: Path
    #: (certificate, key) for 127.0.0.1 and localhost, signed by the CA.
    good: tuple[Path, Path]
    #: signed by the CA, for another name.
    wrong_name: tuple[Path, Path]
    #: for 127.0.0.1, signed by a CA nobody trusts.
    untrusted: tuple[Path, Path]

    def server_context(self, which: str = "good") -> ssl.SSLContext:
        cert, key = getattr(self, which)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
        return context


def _run(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def _ca(folder: Path, name: str) -> tuple[Path, Path]:
    _run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name}",
         "-keyout", f"{name}.key", "-out", f"{name}.pem",
         "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
         cwd=folder)  # fmt: skip
    return folder / f"{name}.pem", folder / f"{name}.key"


def _signed(folder: Path, name: str, ca: tuple[Path, Path], alt: str) -> tuple[Path, Path]:
    (folder / f"{name}.ext").write_text(
        f"subjectAltName={alt}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
    )
    _run("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={name}", "-keyout", f"{name}.key",
         "-out", f"{name}.csr", cwd=folder)  # fmt: skip
    _run("x509", "-req", "-in", f"{name}.csr", "-CA", str(ca[0]), "-CAkey", str(ca[1]), "-CAcreateserial",
         "-days", "2", "-out", f"{name}.pem", "-extfile", f"{name}.ext", cwd=folder)  # fmt: skip
    return folder / f"{name}.pem", folder / f"{name}.key"


def make_certs(folder: Path) -> Certs:
    if not shutil.which("openssl"):
        pytest.skip("the TLS tests need the openssl command (Debian's openssl package; .ci/run installs it)")
    folder.mkdir(parents=True, exist_ok=True)
    ca = _ca(folder, "test-ca")
    other = _ca(folder, "other-ca")
    return Certs(
        ca=ca[0],
        good=_signed(folder, "server", ca, "IP:127.0.0.1,DNS:localhost"),
        wrong_name=_signed(folder, "wrong", ca, "DNS:mail.other.example"),
        untrusted=_signed(folder, "stranger", other, "IP:127.0.0.1,DNS:localhost"),
    )
