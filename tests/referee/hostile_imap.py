"""An IMAP server that misbehaves on purpose: a Python socket server on
127.0.0.1 speaking just enough IMAP4rev1 for the referee's poll and watch
(CAPABILITY, LOGIN, SELECT, UID SEARCH, UID FETCH, UID STORE, NOOP, IDLE,
LOGOUT), then wrong in one named way (``mode``):

- ``bad-search``: the SEARCH answer holds a word that is not a number;
- ``not-imap``: the SEARCH answer is a line that is no IMAP at all;
- ``endless``: the SEARCH answer never ends (untagged lines without end);
- ``trickle``: the SEARCH answer comes a byte at a time and never ends;
- ``big-literal``: a mail's body is a literal far larger than the mail's
  announced size (64 MiB of it, sent as fast as it is read);
- ``missing-uid``: SEARCH names UID 999999, which the box lacks;
- ``idle-forever``: after IDLE's DONE the tagged answer never comes.

``bad-uids`` names the UIDs the misbehaviour is limited to, for the
FETCH-time ones (the other mails are served well). The mode can change
between connections (a server mended)."""

from __future__ import annotations

import re
import socketserver
import threading
import time

from .conftest import free_port

BIG_LITERAL = 64 * 1024 * 1024


class HostileImap:
    def __init__(self, mode: str = "", bad_uids: tuple[int, ...] = ()) -> None:
        self.mode = mode
        self.bad_uids = set(bad_uids)
        self.mails: dict[int, bytes] = {}
        self.validity = 7
        self.port = free_port()
        self.stopping = threading.Event()
        #: Set once a client has asked for a SEARCH (a poll is under way).
        self.searched = threading.Event()
        owner = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                try:
                    owner._session(self.rfile, self.wfile)
                except (OSError, ValueError):
                    pass

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.server = Server(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, mailbox: str = "INBOX") -> str:
        return f"imap://ref%40example.org@127.0.0.1:{self.port}/{mailbox}"

    def add(self, raw: bytes) -> int:
        uid = max(self.mails, default=0) + 1
        self.mails[uid] = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        return uid

    def start(self) -> HostileImap:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()

    # -- one client's session ----------------------------------------------------------
    def _session(self, rfile, wfile) -> None:
        def say(text: str | bytes) -> None:
            wfile.write(text.encode() if isinstance(text, str) else text)
            wfile.flush()

        say("* OK [CAPABILITY IMAP4rev1 IDLE] hostile test server ready\r\n")
        while not self.stopping.is_set():
            line = rfile.readline(65536)
            if not line:
                return
            tag, _, rest = line.decode("ascii", "replace").strip().partition(" ")
            command = rest.upper()
            if command.startswith("CAPABILITY"):
                say(f"* CAPABILITY IMAP4rev1 IDLE\r\n{tag} OK done\r\n")
            elif command.startswith("LOGIN"):
                say(f"{tag} OK logged in\r\n")
            elif command.startswith("SELECT"):
                say(
                    f"* {len(self.mails)} EXISTS\r\n* 0 RECENT\r\n* OK [UIDVALIDITY {self.validity}] ok\r\n"
                    f"* OK [UIDNEXT {max(self.mails, default=0) + 1}] ok\r\n{tag} OK [READ-WRITE] selected\r\n"
                )
            elif command.startswith("UID SEARCH"):
                self._search(tag, rest, say)
            elif command.startswith("UID FETCH"):
                self._fetch(tag, rest, say)
            elif command.startswith("UID STORE") or command.startswith("NOOP"):
                say(f"{tag} OK done\r\n")
            elif command.startswith("IDLE"):
                self._idle(tag, rfile, say)
            elif command.startswith("LOGOUT"):
                say(f"* BYE bye\r\n{tag} OK done\r\n")
                return
            else:
                say(f"{tag} BAD unknown command\r\n")

    def _uids(self) -> list[int]:
        return sorted(self.mails) + ([999999] if self.mode == "missing-uid" else [])

    def _search(self, tag: str, rest: str, say) -> None:
        self.searched.set()
        if self.mode == "bad-search":
            say(f"* SEARCH 1 2 x7\r\n{tag} OK done\r\n")
            return
        if self.mode == "not-imap":
            say("what is this?\r\n")
            return
        if self.mode == "endless":
            while not self.stopping.is_set():
                say(b"* SEARCH 1\r\n" * 4096)
            return
        if self.mode == "trickle":
            say(b"* SEARCH 1")
            while not self.stopping.is_set():
                time.sleep(0.2)
                say(b" 1")
            return
        uids = self._uids()
        found = re.search(r"UID (\d+|\*)(?::(\d+|\*))?", rest[len("UID SEARCH") :], re.I)
        if not found or not uids:
            say(f"* SEARCH\r\n{tag} OK done\r\n")
            return
        low, high = found.group(1), found.group(2)
        top = uids[-1]
        if low == "*":
            chosen = [top]
        else:
            end = top if high in (None, "*") else int(high)
            end = int(low) if high is None else end
            chosen = [u for u in uids if int(low) <= u <= end]
            if high == "*" and not chosen:
                chosen = [top]  # "N:*" names the last mail even below N
        say(f"* SEARCH {' '.join(map(str, chosen))}\r\n{tag} OK done\r\n")

    def _fetch(self, tag: str, rest: str, say) -> None:
        found = re.search(r"FETCH (\d+) \((.*)\)", rest, re.I)
        uid, items = int(found.group(1)), found.group(2).upper()
        raw = self.mails.get(uid)
        if raw is None:
            say(f"{tag} OK no such message\r\n")
            return
        number = sorted(self.mails).index(uid) + 1
        parts = [f"UID {uid}"]
        if "RFC822.SIZE" in items:
            parts.append(f"RFC822.SIZE {len(raw)}")
        if "INTERNALDATE" in items:
            parts.append('INTERNALDATE "' + time.strftime("%d-%b-%Y %H:%M:%S +0000", time.gmtime()) + '"')
        body = None
        if "BODY.PEEK[" in items:
            section = "HEADER" if "[HEADER]" in items else ""
            body = raw.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n" if section else raw
            partial = re.search(r"<0\.(\d+)>", items)
            name = f"BODY[{section}]" + ("<0>" if partial else "")
            if partial:
                body = body[: int(partial.group(1))]
        head = f"* {number} FETCH ({' '.join(parts)}"
        if body is None:
            say(head + f")\r\n{tag} OK done\r\n")
        elif self.mode == "big-literal" and (not self.bad_uids or uid in self.bad_uids):
            say(head + f" {name} {{{BIG_LITERAL}}}\r\n")
            chunk = b"x" * 65536
            for _ in range(BIG_LITERAL // len(chunk)):
                if self.stopping.is_set():
                    return
                say(chunk)
            say(f")\r\n{tag} OK done\r\n")
        else:
            say(head.encode() + f" {name} {{{len(body)}}}\r\n".encode() + body + f")\r\n{tag} OK done\r\n".encode())

    def _idle(self, tag: str, rfile, say) -> None:
        say("+ idling\r\n")
        line = rfile.readline(65536)
        if not line:
            return
        if self.mode == "idle-forever":
            while not self.stopping.is_set():
                time.sleep(0.2)
                say("* OK still here\r\n")
            return
        say(f"{tag} OK idle done\r\n")


def hostile(mode: str = "", bad_uids: tuple[int, ...] = ()) -> HostileImap:
    return HostileImap(mode, bad_uids).start()
