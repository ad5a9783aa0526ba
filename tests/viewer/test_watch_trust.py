"""``tabletop watch`` answers only this machine's own pages, serves no hidden
information of a game in progress, keeps quiet when a page goes away, and
builds each page once per change of the log. Real servers on loopback: in
this process where the test reads the server's own counts, as a separate
``tabletop watch`` where it reads the terminal."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tabletop.viewer import serve as serving

from ..conftest import PILE, REPLAYS

GLUX = REPLAYS / "glux" / "four-players.jsonl"


def tabletop(*args, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tabletop", "--plugins", str(PILE), *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def pile(folder: Path, name: str = "g.jsonl", *, sealed: bool = False) -> Path:
    """A new Pile game for ann and bob: both dealt a card, nobody has picked."""
    how = ["--sealed"] if sealed else ["--seed", "s"]
    done = tabletop("new", "pile", "--players", "ann,bob", *how, "-o", name, cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder / name


#: A Pile game to its end: the picks, then two stones a turn (ann starts, having picked higher).
TO_THE_END = [("ann", "pick 2"), ("bob", "pick 1")] + [(p, "2") for p in ("ann", "bob", "ann", "bob", "ann")]


def finish(log: Path) -> None:
    for player, move in TO_THE_END:
        done = tabletop("play", log.name, move, "--player", player, cwd=log.parent)
        assert done.returncode == 0, done.stderr


@contextlib.contextmanager
def watching(registry, log: Path, viewer: str | None = None):
    """``watch`` served from this process (its counts can be read); yields the server."""
    server = serving.Watch(registry, log, viewer, 0)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def ask(url: str, path: str = "", headers: dict[str, str] | None = None, host: str | None = None) -> bytes:
    """The whole raw answer to a GET of ``path`` (relative to ``url``), with
    ``headers``; ``Host`` is the address's own unless ``host`` is given."""
    parts = urlsplit(url)
    lines = [f"GET {parts.path}{path} HTTP/1.1", f"Host: {host if host is not None else parts.netloc}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    lines += ["Connection: close", "", ""]
    with socket.create_connection((parts.hostname, parts.port), timeout=120) as sock:
        sock.sendall("\r\n".join(lines).encode("latin-1"))
        chunks = []
        while chunk := sock.recv(1 << 16):
            chunks.append(chunk)
    return b"".join(chunks)


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def head_and_body(answer: bytes) -> tuple[dict[str, str], bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    fields = {}
    for line in head.decode("latin-1").split("\r\n")[1:]:
        key, _, value = line.partition(":")
        fields[key.strip().lower()] = value.strip()
    return fields, body


def without_date(answer: bytes) -> bytes:
    return re.sub(rb"\r\nDate: [^\r]*", b"", answer)


# -- who is answered -------------------------------------------------------


def test_a_page_of_another_name_is_refused(registry, tmp_path):
    """Trust finding 5: a web page that rebinds its own name to 127.0.0.1
    (DNS rebinding) sends its name as Host; another site's page says so in
    Origin and Sec-Fetch-Site. Neither is answered; this machine's own
    addresses for the port are."""
    log = pile(tmp_path)
    finish(log)  # a finished game: its log is served, to those answered
    with watching(registry, log) as server:
        port = server.server_address[1]
        url = server.url
        for path in ("", "log.jsonl", "events?since=x"):
            for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1.evil.example:{port}", "127.0.0.1:1", ""):
                answer = ask(url, path, host=host)
                assert status(answer) == 403, (path, host, answer[:200])
                assert b"pile" not in answer and b"ann" not in answer
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost:{port}", f"[::1]:{port}"):
            assert status(ask(url, host=host)) == 200, host
        assert status(ask(url, "log.jsonl")) == 200
        cross = [
            {"Origin": "http://evil.example"},
            {"Origin": "null"},
            {"Origin": f"http://127.0.0.1:{port + 1}"},
            {"Sec-Fetch-Site": "cross-site"},
            {"Sec-Fetch-Site": "same-site"},
        ]
        for headers in cross:
            assert status(ask(url, "log.jsonl", headers)) == 403, headers
        for headers in (
            {"Origin": f"http://127.0.0.1:{port}"},
            {"Sec-Fetch-Site": "same-origin"},
            {"Sec-Fetch-Site": "none"},
        ):
            assert status(ask(url, "log.jsonl", headers)) == 200, headers


def test_only_the_address_printed_is_answered(registry, tmp_path):
    """Trust finding 5: anyone on this machine can reach its loopback address
    (another user, any program); only the address ``watch`` printed, with its
    key, is answered."""
    log = pile(tmp_path)
    finish(log)
    with watching(registry, log) as server:
        url = server.url
        port = server.server_address[1]
        root = f"http://127.0.0.1:{port}/"
        assert url != root and url.startswith(root) and url.endswith("/")
        key = url[len(root) : -1]
        assert len(key) >= 20
        other = "y" if key.endswith("x") else "x"  # one letter off, whatever the key's last letter is
        for wrong in (
            root,
            root + "log.jsonl",
            root + "events?since=x",
            root + key[:-1] + other + "/",
            root + key + "x/",
        ):
            answer = ask(wrong)
            assert status(answer) == 404, wrong
            assert b"ann" not in answer
        assert status(ask(url)) == 200 and status(ask(url, "log.jsonl")) == 200


# -- what is served ----------------------------------------------------------


def test_the_log_of_a_game_in_progress_is_not_served(registry, tmp_path):
    """Trust finding 5: the log holds every hidden draw (and an open seed
    foretells every draw to come): it is served only once the game is over."""
    log = pile(tmp_path)
    with watching(registry, log) as server:
        answer = ask(server.url, "log.jsonl")
        assert status(answer) == 403
        assert b'"card"' not in answer and b'"seed"' not in answer
        assert 'id="download"' not in ask(server.url).decode()
        finish(log)
        answer = ask(server.url, "log.jsonl")
        assert status(answer) == 200
        assert head_and_body(answer)[1] == log.read_bytes()
        assert 'id="download"' in ask(server.url).decode()


@pytest.mark.parametrize(
    "name",
    ["g\r\nSet-Cookie: stolen=1\r\nX-Injected: yes.jsonl", 'ann "vs" bøb\\; x=".jsonl', "\x7f\x01ä.jsonl"],
    ids=["crlf", "quotes", "controls"],
)
def test_the_log_name_never_breaks_the_answers_headers(registry, tmp_path, name):
    """Trust finding 5: the log's name goes into Content-Disposition quoted and
    encoded (RFC 6266): a CR LF in it injects no header, a quote ends nothing."""
    log = pile(tmp_path)
    finish(log)
    log = log.rename(tmp_path / name)
    with watching(registry, log) as server:
        answer = ask(server.url, "log.jsonl")
    head, body = head_and_body(answer)
    assert status(answer) == 200 and body == log.read_bytes()
    assert "set-cookie" not in head and "x-injected" not in head
    disposition = head["content-disposition"]
    match = re.fullmatch(
        r'attachment; filename="([ -~]*)"; filename\*=UTF-8\'\'([A-Za-z0-9%._~!$&+^`|-]+)', disposition
    )
    assert match, disposition
    fallback, encoded = match.groups()
    assert '"' not in fallback and "\\" not in fallback and fallback.endswith(".jsonl")
    from urllib.parse import unquote

    assert unquote(encoded, encoding="utf-8", errors="strict") == name


# -- a seat's view ------------------------------------------------------------


def twins(tmp_path: Path, kind: str) -> tuple[Path, Path]:
    """Two logs of a game in progress that differ only in a hidden draw of a
    player other than ann (Pile: bob's card; Glüx: ben's first chip)."""
    (tmp_path / "one").mkdir()
    if kind == "pile":
        one = pile(tmp_path / "one", sealed=True)
        header, ann, bob = one.read_text().splitlines(keepends=True)
        deal = json.loads(bob)
        assert deal["player"] == "bob"
        deal["payload"]["card"] = deal["payload"]["card"] % 3 + 1  # another card of the three
        two_text = header + ann + json.dumps(deal, separators=(",", ":")) + "\n"
    else:
        lines = GLUX.read_text().splitlines(keepends=True)[:3]  # the header, ann's draw, ben's draw
        assert json.loads(lines[2])["payload"] == {"chip": "1/6"}
        one = tmp_path / "one" / "g.jsonl"
        one.write_text("".join(lines))
        two_text = one.read_text().replace(
            '"player":"ben","payload":{"chip":"1/6"}', '"player":"ben","payload":{"chip":"3/4"}'
        )
    (tmp_path / "two").mkdir()
    two = tmp_path / "two" / one.name
    two.write_text(two_text)
    assert one.read_text() != two.read_text()
    return one, two


@pytest.mark.parametrize("kind", ["pile", "glux"])
def test_twin_logs_give_a_seat_the_same_answers(registry, tmp_path, kind):
    """Trust finding 5: ``watch --as ann`` of two games that differ only in
    another player's hidden draw answers byte for byte the same, for the page,
    its updates and the log; and without ``--as`` the log of a game in
    progress is refused alike."""
    one, two = twins(tmp_path, kind)
    answers = []
    for log in (one, two):
        seen = {}
        with watching(registry, log, "ann") as server:
            key = urlsplit(server.url).path
            for path in ("", "events?since=x", "log.jsonl", "nothing"):
                seen[path] = without_date(ask(server.url, path)).replace(key.encode(), b"/KEY/")
        with watching(registry, log) as server:
            seen["everything: log.jsonl"] = without_date(ask(server.url, "log.jsonl"))
        answers.append(seen)
    assert status(answers[0][""]) == 200 and b"as ann sees it" in answers[0][""]
    assert status(answers[0]["events?since=x"]) == 200 and b"data: " in answers[0]["events?since=x"]
    for path, answer in answers[0].items():
        assert answer == answers[1][path], path


def test_a_seat_is_not_told_why_a_log_cannot_be_read(registry, tmp_path):
    """Trust finding 5: a log caught broken is said in full on the page that
    shows everything; a seat's page says only that it cannot be read (the
    message may quote what the seat may not see)."""
    log = pile(tmp_path)
    lines = log.read_text().splitlines(keepends=True)
    log.write_text(lines[0] + lines[1] + lines[2].replace('"seq":2', '"seq":7'))
    with watching(registry, log, "ann") as server:
        seat = head_and_body(ask(server.url))[1].decode()
    with watching(registry, log) as server:
        everything = head_and_body(ask(server.url))[1].decode()
    assert "sequence number" in everything
    assert "sequence number" not in seat and "cannot be shown" in seat and '"card"' not in seat


# -- built once per change ------------------------------------------------------


def test_a_page_is_built_once_per_change_of_the_log(registry, tmp_path, monkeypatch):
    """Trust finding 5: every GET built the page anew (seconds for a long
    game); now once per change of the log, however many pages ask."""
    built = []
    real = serving.watched

    def counted(*args, **kwargs):
        built.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(serving, "watched", counted)
    log = pile(tmp_path)
    with watching(registry, log) as server:
        pages = {ask(server.url) for _ in range(5)}
        assert len(pages) == 1 and len(built) == 1
        stamp = re.search(rb'"live":"([^"]+)"', next(iter(pages))).group(1).decode()
        assert b"data: " + stamp.encode() in ask(server.url, "events?since=x")  # an old stamp: answered at once
        assert len(built) == 1
        done = tabletop("play", log.name, "pick 2", "--player", "ann", cwd=tmp_path)
        assert done.returncode == 0
        answer = ask(server.url, f"events?since={stamp}")
        assert b"data: " in answer and stamp.encode() not in head_and_body(answer)[1]
        for _ in range(3):
            assert b"ann picks 2" in ask(server.url)
        assert len(built) == 2


# -- a page that goes away -------------------------------------------------------


def hang_up(sock: socket.socket) -> None:
    """Close with a reset (SO_LINGER 0), as a browser tab closed mid-answer does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def test_a_page_closed_mid_answer_is_no_traceback(tmp_path):
    """Trust finding 20: a page that goes away while ``watch`` answers it
    (before the answer, or in the middle of a long page) leaves the terminal quiet, and ``watch`` serves on."""
    log = tmp_path / GLUX.name
    log.write_bytes(GLUX.read_bytes())  # a finished game: the page holds every view, over a megabyte
    server = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "watch", log.name, "--port", "0"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = server.stdout.readline().split(" at ")[1].split()[0]
        parts = urlsplit(url)
        request = f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n".encode()
        for wait in ("nothing", "a little", "nothing", "a little"):
            sock = socket.create_connection((parts.hostname, parts.port), timeout=120)
            sock.sendall(request)
            if wait != "nothing":
                assert sock.recv(1000)
            hang_up(sock)
            time.sleep(0.3)
        time.sleep(2)  # the first page, built meanwhile, is written to a page gone
        assert status(ask(url)) == 200  # and it serves on
    finally:
        server.terminate()
        out, err = server.communicate(timeout=30)
    assert "Traceback" not in err and "Error" not in err, err
    assert err == ""
