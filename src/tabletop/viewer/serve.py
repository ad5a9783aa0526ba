"""``tabletop watch``: the viewer served on this machine's loopback address,
updated as the log grows.

The page is the viewer's own, built anew from the log for each request. It
holds the log's stamp (size and time of change); its script listens to
``/events`` (server-sent events), which answers once the log's stamp is no
longer that one, and the page then reloads itself (following the game when
it was at the last event). A log caught half-written, or illegal, is shown as
its one-line error, and the page reloads at the next change.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from html import escape
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from ..errors import TabletopError, UsageError
from ..registry import Registry
from .page import page

#: How often the log is looked at, in seconds.
POLL = 0.2
#: A comment sent this often keeps a quiet connection open through proxies.
KEEPALIVE = 15.0

_WAITING = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; connect-src 'self'; script-src 'unsafe-inline'">
<title>{title}</title></head>
<body><p id="problem">{message}</p><p>The page reloads when the log changes.</p>
<script>new EventSource("events?since={stamp}").onmessage = function () {{ location.reload(); }};</script>
</body></html>
"""


def stamp(log: Path) -> str:
    """What changes whenever the log does: its size and time of change."""
    try:
        info = os.stat(log)
    except OSError:
        return "missing"
    return f"{info.st_size}-{info.st_mtime_ns}"


class Watch(ThreadingHTTPServer):
    """The server: one log, one view of it, loopback only."""

    daemon_threads = True

    def __init__(self, registry: Registry, log: Path, viewer: str | None, port: int) -> None:
        self.registry, self.log, self.viewer = registry, Path(log), viewer
        self.stopping = threading.Event()
        try:
            super().__init__(("127.0.0.1", port), Handler)
        except OSError as exc:
            raise UsageError(f"--port {port}: cannot listen on 127.0.0.1 ({exc.strerror or exc})") from None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def shutdown(self) -> None:
        self.stopping.set()
        super().shutdown()


class Handler(BaseHTTPRequestHandler):
    server: Watch

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass  # the terminal shows the address and errors, not every request

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        url = urlsplit(self.path)
        if url.path == "/":
            self._page()
        elif url.path == "/events":
            self._events(parse_qs(url.query).get("since", [""])[0])
        elif url.path == "/log.jsonl" and self.server.viewer is None:
            self._log()
        else:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")

    def _send(self, status: HTTPStatus, body: bytes, kind: str, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def _page(self) -> None:
        server = self.server
        now = stamp(server.log)
        try:
            html = page(server.registry, server.log, server.viewer, live=now)
        except TabletopError as exc:
            html = _WAITING.format(title=escape(server.log.name), message=escape(str(exc)), stamp=escape(now))
        self._send(HTTPStatus.OK, html.encode("utf-8"), "text/html; charset=utf-8")

    def _log(self) -> None:
        try:
            body = self.server.log.read_bytes()
        except OSError as exc:
            self._send(HTTPStatus.NOT_FOUND, f"{exc.strerror}\n".encode(), "text/plain; charset=utf-8")
            return
        disposition = f'attachment; filename="{self.server.log.name}"'
        self._send(HTTPStatus.OK, body, "application/x-ndjson", {"Content-Disposition": disposition})

    def _events(self, since: str) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        quiet = time.monotonic()
        try:
            while not self.server.stopping.is_set():
                now = stamp(self.server.log)
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
    server = Watch(registry, log, viewer, port)
    with server:
        if ready is not None:
            ready(server)
        try:
            server.serve_forever(poll_interval=0.2)
        except KeyboardInterrupt:
            pass
        finally:
            server.stopping.set()
