"""A real turn page server (``tabletop pbem serve``, uvicorn in its own
process on 127.0.0.1, killed with SIGKILL at a named step when asked) over
games by mail made as the referee's tests make them."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed")
pytest.importorskip("uvicorn", reason="the serve extra is not installed")

from tabletop.referee import pages  # noqa: E402
from tabletop.referee.gamedir import GameDir  # noqa: E402

from ..referee.conftest import Game, certs, free_port, game_copy, plain_registry_cached  # noqa: E402, F401
from ..viewer.test_viewer import browser  # noqa: E402, F401 - the viewer's headless Chromium, as a fixture here

#: The server, killed with SIGKILL at the step ``KILL_AT`` names (a fault point of the referee).
SERVE = textwrap.dedent(
    """
    import os, signal, sys
    from tabletop.referee import faults
    point = os.environ.get("KILL_AT", "")
    def hook(name):
        if point and name == point:
            os.kill(os.getpid(), signal.SIGKILL)
    faults.hook = hook
    from tabletop.cli import main
    main(sys.argv[1:], prog_name="tabletop")
    """
)
#: How long a server may take to start on a busy machine before the test gives up on it.
START_BOUND = 90.0


class Server:
    """``tabletop pbem serve`` over game folders, in a process of its own."""

    def __init__(
        self,
        folders: list[Path],
        port: int,
        kill_at: str = "",
        options: tuple[str, ...] = (),
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.folders = folders
        self.port = port
        #: The client's TLS (trusting the test's CA) when the server serves TLS of its own.
        self.tls = tls
        env = {**os.environ, "KILL_AT": kill_at, "PYTHONPATH": os.pathsep.join(sys.path)}
        env.pop("TABLETOP_PLUGINS", None)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-c",
                SERVE,
                "pbem",
                "serve",
                *map(str, folders),
                "--listen",
                f"127.0.0.1:{port}",
                *options,
            ],
            cwd=folders[0].parent,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._wait_until_it_answers()

    def _wait_until_it_answers(self) -> None:
        ends = time.monotonic() + START_BOUND
        while time.monotonic() < ends:
            if self.process.poll() is not None:
                out, err = self.process.communicate()
                pytest.fail(f"the server stopped at its start: {out} {err}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)  # a poll of the port, not a wait for a time: the loop ends when it answers
        self.stop()
        pytest.fail("the server never answered")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.said = self.process.communicate()

    # -- asking it ------------------------------------------------------------------
    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        if self.tls is None:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        else:
            connection = http.client.HTTPSConnection("127.0.0.1", self.port, timeout=60, context=self.tls)
        try:
            given = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
            connection.request(method, path, body=body, headers=given)
            answer = connection.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
        finally:
            connection.close()

    def get(self, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, fields: dict[str, str], headers: dict[str, str] | None = None):
        given = {
            "Origin": f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}",
            "Content-Type": "application/x-www-form-urlencoded",
            **(headers or {}),
        }
        return self.request("POST", path, urlencode(fields).encode(), given)


def served_game(tmp_path: Path, port: int, name: str = "g", **kw) -> Game:
    """A game by mail (Glüx for ann and ben, a game master) whose pages are at 127.0.0.1:``port``."""
    game = game_copy(tmp_path, plain_registry_cached(), None, **kw)
    if name != "g":
        shutil.move(game.path, tmp_path / name)
        game.path = tmp_path / name
    set_page_url(game.path, port)
    return game


def set_page_url(folder: Path, port: int, scheme: str = "http") -> None:
    data = json.loads((folder / "referee.json").read_text())
    data["page_url"] = f"{scheme}://127.0.0.1:{port}"
    (folder / "referee.json").write_text(json.dumps(data))


def path_of(game: Game, reader: str) -> str:
    """The path of ``reader``'s page (a seat, ``observer:ADDRESS``, ``(master)``)."""
    directory = GameDir(game.path)
    return urlsplit(pages.link(directory, directory.load(), reader)).path


def form_of(html: str, key: str) -> dict[str, str]:
    """The hidden fields of the page's form that posts ``key``, its post named afresh (as the page's script does)."""
    for form in re.findall(r"<form\b.*?</form>", html, re.S):
        if f'name="key" value="{key}"' in form:
            csrf = re.search(r'name="csrf" value="([^"]*)"', form).group(1)
            return {"csrf": csrf, "post": os.urandom(16).hex(), "key": key}
    raise AssertionError(f"no form posts {key}")


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
def servers():
    """Servers a test starts, every one stopped after it."""
    started: list[Server] = []

    def start(folders: list[Path], port: int, kill_at: str = "", options: tuple[str, ...] = (), tls=None) -> Server:
        server = Server(folders, port, kill_at, options, tls)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
