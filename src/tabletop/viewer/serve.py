"""``tabletop watch``: the viewer served on this machine's loopback address,
updated as the log grows.

Who is answered: loopback is open to every user and program of the machine,
and a web page anywhere can make the browser ask it (a name of its own
rebound to 127.0.0.1, DNS rebinding, or a plain link or script). So the
server answers only requests that name it as this machine does (Host
127.0.0.1, localhost or [::1] with its port; no other site's Origin or
Sec-Fetch-Site), and only under the address it printed, whose first part is
a random key: whoever does not hold the address gets nothing.

What is served: the page as ``--as`` says (a seat's page holds only that
seat's view), and the log itself only once the game is over: until then it
holds every hidden draw, and an open seed foretells every draw to come.

The page is built once per change of the log (its size, time of change and
inode), whatever the number of pages asking. It holds a stamp, the digest of
the page itself; its script listens to ``events`` (server-sent events), which
answers once the page's stamp is no longer the one it holds, and the page
then reloads itself, following the game when it was at the last event. A log
caught half-written, or illegal, is shown as its one-line error (to a seat,
only that it cannot be shown: the error may quote a hidden draw), and the
page reloads at the next change.
"""

from __future__ import annotations

import hmac
import os
import secrets
import sys
import threading
import time
from collections.abc import Callable
from email.message import Message
from html import escape
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import attrs

from ..base.errors import MAX_MESSAGE, TabletopError, UsageError, shown
from ..host.registry import Registry
from .page import Watched, stamped, watched

#: How often the log is looked at, in seconds.
POLL = 0.2
#: A comment sent this often keeps a quiet connection open through proxies.
KEEPALIVE = 15.0
#: A page that sends nothing for this long is let go (a request is a few hundred bytes).
IDLE = 60.0

_WAITING = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; connect-src 'self'; script-src 'unsafe-inline'">
<title>{title}</title></head>
<body><p id="problem">{message}</p><p>The page reloads when the log changes.</p>
<script>new EventSource("events?since={stamp}").onmessage = function () {{ location.reload(); }};</script>
</body></html>
"""

#: Sent with every answer: no other site may frame, embed or sniff what is served, nor learn the address.
_GUARDS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


def look(log: Path) -> tuple[int, ...] | None:
    """What changes whenever the log does: its inode, size and times of change
    (None when it is missing)."""
    try:
        info = os.stat(log)
    except OSError:
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def disposition(name: str) -> str:
    """``Content-Disposition`` for a download named ``name`` (RFC 6266): the
    name percent-encoded in ``filename*``, and a plain ASCII one beside it
    for old clients, with no quote, backslash or control character."""
    text = os.fsencode(name).decode("utf-8", "replace")  # a name that is no UTF-8 is shown as near as it goes
    plain = "".join(c if " " <= c <= "~" and c not in '"\\' else "_" for c in text)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(text, safe='')}"


@attrs.frozen
class Shown:
    """The page for one state of the log."""

    look: tuple[int, ...] | None
    body: bytes
    stamp: str
    over: bool


class Watch(ThreadingHTTPServer):
    """The server: one log, one view of it, loopback only."""

    daemon_threads = True

    def __init__(self, registry: Registry, log: Path, viewer: str | None, port: int) -> None:
        self.registry, self.log, self.viewer = registry, Path(log), viewer
        self.stopping = threading.Event()
        self.key = secrets.token_urlsafe(18)
        self._building = threading.Lock()
        self._shown: Shown | None = None
        try:
            super().__init__(("127.0.0.1", port), Handler)
        except OSError as exc:
            raise UsageError(f"--port {port}: cannot listen on 127.0.0.1 ({exc.strerror or exc})") from None
        port = self.server_address[1]
        names = ("127.0.0.1", "localhost", "[::1]")
        self.hosts = frozenset(f"{n}:{port}" for n in names) | (frozenset(names) if port == 80 else frozenset())
        self.origins = frozenset(f"http://{h}" for h in self.hosts)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/{self.key}/"

    def shutdown(self) -> None:
        self.stopping.set()
        super().shutdown()

    def refuses(self, headers: Message) -> str | None:
        """Why a request with ``headers`` is not answered, or None."""
        hosts = headers.get_all("Host") or []
        if len(hosts) != 1 or hosts[0].strip().lower() not in self.hosts:
            return f"this server answers only as 127.0.0.1:{self.server_address[1]}"
        if any(o.strip().lower() not in self.origins for o in headers.get_all("Origin") or []):
            return "this server answers only its own pages"
        site = headers.get("Sec-Fetch-Site")
        if site is not None and site.strip().lower() not in ("same-origin", "none"):
            return "this server answers only its own pages"
        return None

    def current(self) -> Shown:
        """The page for the log as it is now: built when the log has changed
        since the last one, else the last one (one build at a time)."""
        with self._building:
            now = look(self.log)
            if self._shown is None or self._shown.look != now:
                # Looked at before the build: a change made during it is seen at the next look.
                self._shown = self._build(now)
            return self._shown

    def _build(self, now: tuple[int, ...] | None) -> Shown:
        try:
            made: Watched = watched(self.registry, self.log, self.viewer)
        except TabletopError as exc:
            self.say(str(exc))
            problem = str(exc) if self.viewer is None else f"{shown(self.log.name)} cannot be shown now."
            return self._waiting(now, problem)
        except Exception as exc:  # a plugin that fails: said once per change of the log, and the page waits
            self.say(f"{shown(self.log.name)}: the page could not be made ({type(exc).__name__}: {exc})")
            return self._waiting(now, f"{shown(self.log.name)} cannot be shown now.")
        return Shown(now, made.html.encode("utf-8"), made.stamp, made.over)

    def _waiting(self, now: tuple[int, ...] | None, problem: str) -> Shown:
        def fill(stamp: str | None) -> str:
            return _WAITING.format(title=escape(self.log.name), message=escape(problem), stamp=escape(stamp or ""))

        html, stamp = stamped(fill)
        return Shown(now, html.encode("utf-8"), stamp, False)

    def say(self, message: str) -> None:
        """One line on the terminal."""
        message = shown(message)
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 1] + "…"
        try:
            sys.stderr.write(f"tabletop watch: {message}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass  # a terminal gone: the server serves on

    def handle_error(self, request: object, client_address: object) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return  # a page closed or reloaded mid-answer: nothing anyone need know
        self.say(f"a request failed: {type(error).__name__}: {error}")


class Handler(BaseHTTPRequestHandler):
    server: Watch
    timeout = IDLE

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass  # the terminal shows the address and errors, not every request

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        server = self.server
        refused = server.refuses(self.headers)
        if refused is not None:
            self._send(HTTPStatus.FORBIDDEN, f"{refused}\n".encode(), "text/plain; charset=utf-8")
            return
        url = urlsplit(self.path)
        home = f"/{server.key}/".encode()
        path = url.path.encode("utf-8", "replace")
        # Compared in constant time: how long an answer takes tells nothing of the key.
        if hmac.compare_digest(path, home[:-1]):
            self._send(HTTPStatus.PERMANENT_REDIRECT, b"", "text/plain; charset=utf-8", {"Location": home.decode()})
            return
        rest = path[len(home) :] if hmac.compare_digest(path[: len(home)], home) else None
        if rest == b"":
            self._send(HTTPStatus.OK, server.current().body, "text/html; charset=utf-8")
        elif rest == b"events":
            self._events(parse_qs(url.query).get("since", [""])[0])
        elif rest == b"log.jsonl" and server.viewer is None:
            self._log()
        else:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")

    def _send(self, status: HTTPStatus, body: bytes, kind: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for key, value in {**_GUARDS, **(extra or {})}.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def _log(self) -> None:
        log = self.server.log
        for _ in range(5):  # the log read must be the one found over: read again if it changed meanwhile
            page = self.server.current()
            if not page.over:
                message = b"the log is served once the game is over: until then it holds every hidden draw\n"
                self._send(HTTPStatus.FORBIDDEN, message, "text/plain; charset=utf-8")
                return
            try:
                body = log.read_bytes()
            except OSError as exc:
                self._send(HTTPStatus.NOT_FOUND, f"{exc.strerror}\n".encode(), "text/plain; charset=utf-8")
                return
            if look(log) == page.look:
                extra = {"Content-Disposition": disposition(log.name)}
                self._send(HTTPStatus.OK, body, "application/x-ndjson", extra)
                return
        self._send(HTTPStatus.SERVICE_UNAVAILABLE, b"the log is changing: try again\n", "text/plain; charset=utf-8")

    def _events(self, since: str) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        for key, value in _GUARDS.items():
            self.send_header(key, value)
        self.end_headers()
        quiet = time.monotonic()
        try:
            while not self.server.stopping.is_set():
                now = self.server.current().stamp
                if now != since:
                    self.wfile.write(f"data: {now}\n\n".encode())
                    self.wfile.flush()
                    return
                if time.monotonic() - quiet > KEEPALIVE:
                    self.wfile.write(b": still watching\n\n")
                    self.wfile.flush()
                    quiet = time.monotonic()
                self.server.stopping.wait(POLL)
        except OSError:  # the page went away
            return


def serve(
    registry: Registry,
    log: Path,
    viewer: str | None = None,
    port: int = 0,
    ready: Callable[[Watch], None] | None = None,
) -> None:
    """Serve the viewer of ``log`` until interrupted; ``ready`` is called with
    the server once it listens."""
    run(Watch(registry, log, viewer, port), ready)


def run(server: Watch, ready: Callable[[Watch], None] | None = None) -> None:
    """Serve with ``server`` until interrupted (Ctrl-C stops it quietly);
    ``ready`` is called with it once it listens."""
    with server:
        if ready is not None:
            ready(server)
        try:
            server.serve_forever(poll_interval=0.2)
        except KeyboardInterrupt:
            pass
        finally:
            server.stopping.set()
