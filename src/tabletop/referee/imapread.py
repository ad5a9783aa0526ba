"""Reading an IMAP server's answers within bounds.

The standard library's ``imaplib`` reads whatever the server sends: a line
of up to a megabyte, a literal of any size it announces (read whole), any
number of lines before the answer ends, for as long as bytes keep coming.
A broken or hostile server could so hold a poll for ever, or fill the
memory. Here imaplib reads through :class:`Answers`, which keeps every
answer to one command within a size (:data:`ANSWER`, or what a fetch asked
for), every literal within what was asked, every line within
:data:`LINE`, and the whole of it within a deadline; past any of them the
connection is given up with :class:`ServerFault`, one line naming the
server and what it did (exit 2).
"""

from __future__ import annotations

import imaplib
import socket
import ssl
import time

from ..base.errors import TabletopError

#: Longest wait for one answer from the server (seconds), whatever the deadline over the run.
TIMEOUT = 60
#: The most one answer may hold (bytes) but a fetch's: a SEARCH of 20,000 UIDs is some 140 KB.
ANSWER = 1 << 20
#: How long the steps that end a connection well (IDLE's DONE, LOGOUT) may
#: run past the run's end (seconds).
GRACE = 2
#: The longest line, and the largest literal outside a fetch.
LINE = 256 << 10
LITERAL = 64 << 10


class ServerFault(TabletopError):
    """The IMAP server answered what IMAP does not allow, too much, or too
    slowly: one line naming the server and what was wrong (exit 2)."""


class Fault(Exception):
    """Raised inside imaplib's reading; :class:`ServerFault` once the server is named."""


class Answers:
    """imaplib's reader of the server's answers, with the buffer in sight (an
    IDLE must know whether an answer is already in hand before it waits on
    the socket) and the bounds of the command being answered."""

    def __init__(self, sock: socket.socket, deadline: float | None) -> None:
        self.sock = sock
        self.buffer = bytearray()
        #: The end of the whole run (time.monotonic()), if it has one.
        self.run_ends = deadline
        self.expect("the greeting")

    def expect(
        self, what: str, size: int = ANSWER, literal: int = LITERAL, wait: float = TIMEOUT, closing: bool = False
    ) -> None:
        """Bounds for the answer to the command ``what``: ``size`` bytes at
        most, literals of ``literal`` bytes at most, within ``wait`` seconds
        and before the run's end (a step that ends the connection well,
        ``closing``, :data:`GRACE` seconds after it)."""
        self.what = what
        self.size = self.left = size
        self.literal = literal
        self.ends = time.monotonic() + wait
        self.late = f"within {wait:.0f} s"
        if self.run_ends is not None:
            end = self.run_ends + (GRACE if closing else 0)
            if end < self.ends:
                self.ends, self.late = end, "before the run's end (--max-time)"

    def _more(self) -> bool:
        left = self.ends - time.monotonic()
        if left <= 0:
            raise Fault(f"no complete answer to {self.what} {self.late}")
        self.sock.settimeout(min(left, TIMEOUT))
        try:
            data = self.sock.recv(65536)
        except (socket.timeout, TimeoutError):
            if time.monotonic() >= self.ends:
                raise Fault(f"no complete answer to {self.what} {self.late}") from None
            raise
        self.left -= len(data)
        if self.left < 0:
            raise Fault(f"its answer to {self.what} runs past {_size(self.size)}")
        self.buffer += data
        return bool(data)

    def readline(self, limit: int = -1) -> bytes:
        start = 0
        while (found := self.buffer.find(b"\n", start)) < 0:
            if len(self.buffer) > LINE:
                break
            start = len(self.buffer)
            if not self._more():
                break
        if found > LINE or (found < 0 and len(self.buffer) > LINE):
            raise Fault(f"a line of its answer to {self.what} runs past {_size(LINE)}")
        end = found + 1 if found >= 0 else len(self.buffer)
        line = bytes(self.buffer[:end])
        del self.buffer[:end]
        return line

    def read(self, size: int) -> bytes:
        if size > self.literal:
            raise Fault(
                f"its answer to {self.what} announces {_size(size)} where at most {_size(self.literal)} were asked"
            )
        while len(self.buffer) < size:
            if not self._more():
                break
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data

    def ready(self) -> bool:
        pending = self.sock.pending() if isinstance(self.sock, ssl.SSLSocket) else 0
        return bool(self.buffer) or pending > 0

    def close(self) -> None:
        pass


def _size(count: int) -> str:
    if count >= 1 << 20:
        return f"{count / (1 << 20):.0f} MiB"
    if count >= 1 << 10:
        return f"{count / (1 << 10):.0f} KiB"
    return f"{count} bytes"


class _Bounded:
    """imaplib reading through :class:`Answers` from the first byte (the greeting)."""

    answers: Answers

    def open(self, host: str = "", port: int = 143, timeout: float | None = None) -> None:
        super().open(host, port, timeout)  # type: ignore[misc]
        self.answers = Answers(self.sock, self._run_ends)  # type: ignore[attr-defined]
        self.file = self.answers


class Plain(_Bounded, imaplib.IMAP4):
    def __init__(self, host: str, port: int, *, timeout: float, deadline: float | None) -> None:
        self._run_ends = deadline
        imaplib.IMAP4.__init__(self, host, port, timeout=timeout)


class Secure(_Bounded, imaplib.IMAP4_SSL):
    def __init__(
        self, host: str, port: int, *, ssl_context: ssl.SSLContext, timeout: float, deadline: float | None
    ) -> None:
        self._run_ends = deadline
        imaplib.IMAP4_SSL.__init__(self, host, port, ssl_context=ssl_context, timeout=timeout)
