"""A real IMAP server for the tests: Debian's dovecot-imapd, started by the
test with a configuration of its own (its own folder, ports on 127.0.0.1,
password file and mail folders), and stopped by it. The system's dovecot,
if any, is never touched."""

from __future__ import annotations

import imaplib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from .conftest import free_port

DOVECOT = "/usr/sbin/dovecot"
USER, PASSWORD = "ref@example.org", "imap-secret-1"


class Dovecot:
    def __init__(self, folder: Path | None, cert: tuple[Path, Path] | None) -> None:
        # Its own folder, which dovecot's unprivileged processes can reach
        # (a test's tmp_path is its owner's alone); removed by stop().
        self.folder = Path(tempfile.mkdtemp(prefix="tabletop-dovecot-"))
        self.folder.chmod(0o711)
        self.cert = None
        if cert:
            self.cert = (self.folder / "server.pem", self.folder / "server.key")
            shutil.copy(cert[0], self.cert[0])
            shutil.copy(cert[1], self.cert[1])
        self.port = free_port()
        self.tls_port = free_port()
        self.process: subprocess.Popen | None = None

    def url(self, secure: bool = False, mailbox: str = "INBOX") -> str:
        user = USER.replace("@", "%40")
        if secure:
            return f"imaps://{user}@127.0.0.1:{self.tls_port}/{mailbox}"
        return f"imap://{user}@127.0.0.1:{self.port}/{mailbox}"

    def _config(self) -> Path:
        f = self.folder
        for sub in ("run", "state", "mail", "home"):
            (f / sub).mkdir(parents=True, exist_ok=True)
        (f / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
        (f / "passwd").chmod(0o644)  # read by dovecot's auth process (a test password)
        owner = os.getuid(), os.getgid()
        if os.geteuid() == 0:
            owner = 65534, 65534  # mail is never handled as root
            for path in (f / "mail", f / "home"):
                os.chown(path, *owner)
        me = "root" if os.geteuid() == 0 else os.environ.get("USER") or str(os.getuid())
        ssl_lines = "ssl = no"
        if self.cert:
            ssl_lines = f"ssl = yes\nssl_cert = <{self.cert[0]}\nssl_key = <{self.cert[1]}"
            if Path("/usr/share/dovecot/dh.pem").exists():
                ssl_lines += "\nssl_dh = </usr/share/dovecot/dh.pem"
        text = f"""
base_dir = {f}/run
state_dir = {f}/state
log_path = {f}/dovecot.log
protocols = imap
listen = 127.0.0.1
{ssl_lines}
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 0
mail_location = maildir:{f}/mail/%n
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {f}/passwd
}}
userdb {{
  driver = static
  args = uid={owner[0]} gid={owner[1]} home={f}/home/%n
}}
default_internal_user = {"dovecot" if os.geteuid() == 0 else me}
default_login_user = {"dovenull" if os.geteuid() == 0 else me}
default_internal_group = {"dovecot" if os.geteuid() == 0 else me}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {self.port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {self.tls_port if self.cert else 0}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
"""
        path = f / "dovecot.conf"
        path.write_text(text)
        return path

    def start(self) -> None:
        config = self._config()
        self.process = subprocess.Popen(
            [DOVECOT, "-F", "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"dovecot did not start: {self.process.stderr.read().decode()}{self.log()}")
            try:
                with imaplib.IMAP4("127.0.0.1", self.port, timeout=2) as probe:
                    probe.login(USER, PASSWORD)
                    probe.logout()
                return
            except (OSError, imaplib.IMAP4.error):
                time.sleep(0.1)
        raise RuntimeError("dovecot did not answer in 20 s: " + self.log())

    def log(self) -> str:
        path = self.folder / "dovecot.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- as the mail server's other side: delivering and looking ---------------------
    def client(self) -> imaplib.IMAP4:
        imap = imaplib.IMAP4("127.0.0.1", self.port, timeout=10)
        imap.login(USER, PASSWORD)
        return imap

    def deliver(self, raw: bytes, mailbox: str = "INBOX", when: float | None = None) -> None:
        """Put ``raw`` in the mailbox; ``when``: the moment it arrived (default: now)."""
        date = imaplib.Time2Internaldate(when) if when is not None else None
        with self.client() as imap:
            kind, data = imap.append(mailbox, None, date, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))
            assert kind == "OK", data
            imap.logout()

    def unseen(self, mailbox: str = "INBOX") -> int:
        with self.client() as imap:
            imap.select(mailbox, readonly=True)
            _, data = imap.search(None, "UNSEEN")
            imap.logout()
        return len(data[0].split())


def dovecot_server(folder: Path, cert=None) -> Dovecot:
    if not os.path.exists(DOVECOT):
        pytest.skip("the IMAP tests need Debian's dovecot-imapd (apt-get install dovecot-imapd; .ci/run installs it)")
    server = Dovecot(folder, cert)
    server.start()
    return server
