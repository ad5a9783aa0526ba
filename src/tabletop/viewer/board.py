"""``tabletop study``: the analysis board, served on this machine's loopback address.

It is ``tabletop watch``'s server (:mod:`tabletop.viewer.serve`), as strict:
only requests that name it as this machine does (Host 127.0.0.1, localhost
or [::1] with its port; no other site's Origin or Sec-Fetch-Site), only
under the address it printed, with its random key. It also **writes** (the
study file), so a write is answered only when it is a POST from the
board's own page: its Origin this server's, its body JSON (which no other
site may send without asking first), and a token drawn for this run that
only the page holds. Reading the legal decisions asks for the token too.

The page is the viewer's, with the study beside it
(:mod:`tabletop.viewer.studied`): a note is written, or a decision played
(on along the line, or on a variation), by a request whose answer is the
study as it now is; the file holds it at once (an atomic append), and a
write that fails tells the page why. Reloaded, the page is built again from
the log and the study file.

With ``--as`` the board shows and does only what that player may know: the
page holds their view; the decisions listed where another player decides,
and the chance outcomes of their variations, come from a world made up from
their view (the game's ``determinize``), never from the state.
"""

from __future__ import annotations

import hmac
import json
import secrets
import sys
import threading
from collections.abc import Callable
from email.message import Message
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ..base.errors import MAX_MESSAGE, TabletopError, UsageError, shown
from ..host.registry import Registry
from ..log import jsonline
from ..model.nodes import Decide
from ..review import study
from .page import page
from .serve import Handler, Shown, Watch, look, run
from .studied import data, section

#: The largest request body a write may send (a note of 10,000 characters fits).
MAX_BODY = 64 * 1024
#: The most legal decisions listed at one position.
MAX_LISTED = 2_000
#: The header that carries the page's token.
TOKEN = "X-Study-Token"


class Board(Watch):
    """The server: one log, its study, one view of them, loopback only."""

    def __init__(
        self,
        registry: Registry,
        log: Path,
        viewer: str | None,
        port: int,
        studied: study.Study,
        seed: str | None = None,
    ) -> None:
        super().__init__(registry, log, viewer, port)
        self.study = studied
        self.token = secrets.token_urlsafe(24)
        #: Draws the seeds of new variations: the one a position's decisions
        #: were listed from (a world made up for ``--as``) is the one played.
        self._secret = seed.encode("utf-8") if seed is not None else secrets.token_bytes(16)
        self._writing = threading.Lock()
        self._files = self._looks()

    def say(self, message: str) -> None:
        """One line on the terminal, as this command's."""
        try:
            sys.stderr.write(f"tabletop study: {shown(message)[:MAX_MESSAGE]}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass  # a terminal gone: the board serves on

    def _looks(self) -> tuple[Any, ...]:
        return (look(self.log), look(self.study.path))

    def current(self) -> Shown:
        with self._building:
            now = self._looks()
            if self._shown is None or self._shown.look != now:
                self._shown = self._build(now)  # type: ignore[arg-type]
            return self._shown

    def _build(self, now: Any) -> Shown:
        try:
            with self._writing:
                if now != self._files:  # changed by another program: read both again
                    self.study = study.load(self.registry, self.log, self.study.path)
                    self._files = now
                addition = section(self.study, [self.viewer], {"token": self.token})
            html = page(self.registry, self.log, self.viewer, (), addition, connect=True)
        except TabletopError as exc:
            self.say(str(exc))
            problem = str(exc) if self.viewer is None else f"{self.log.name} or its study cannot be shown now."
            return self._waiting(now, problem)
        return Shown(now, html.encode("utf-8"), "", False)

    def refuses_write(self, headers: Message) -> str | None:
        """Why a write (or a question only the page may ask) is not answered, or None."""
        origins = headers.get_all("Origin") or []
        if len(origins) != 1 or origins[0].strip().lower() not in self.origins:
            return "a write comes only from the board's own page"
        site = headers.get("Sec-Fetch-Site")
        if site is not None and site.strip().lower() != "same-origin":
            return "a write comes only from the board's own page"
        kind = (headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            return "a write is JSON"
        return self.refuses_token(headers)

    def refuses_token(self, headers: Message) -> str | None:
        token = headers.get(TOKEN) or ""
        if not hmac.compare_digest(token.encode("utf-8", "replace"), self.token.encode()):
            return "the page's token is missing or wrong: reload the page"
        return None

    # -- what the page asks ---------------------------------------------------------
    def seed_for(self, line: str, seq: int) -> str:
        """The seed of the next variation from event ``seq`` of ``line``."""
        known = sum(v.at.line == line and v.at.seq == seq for v in self.study.variations.values())
        message = f"{line} {seq} {known}".encode()
        return hmac.digest(self._secret, message, "sha256").hex()[:16]

    def moves(self, line: str, seq: int) -> dict[str, Any]:
        """Who decides at event ``seq`` of ``line`` and what they may decide, as the board's viewer may know it."""
        with self._writing:
            current = self.study
            current.anchor(line, seq)
            seen_as = self.viewer if line == study.MAIN else current.seen_as(line)
            if line != study.MAIN and seen_as != self.viewer:
                raise UsageError(f"variation {line} is not this board's to play on")
            match = current.match(line, seq, seen_as if line == study.MAIN else None, self.seed_for(line, seq))
        node = match.node
        answer: dict[str, Any] = {"line": line, "seq": seq, "deciding": [], "legal": [], "why": None}
        if not isinstance(node, Decide):
            answer["why"] = "the game is over here" if match.over else "no decision is due here"
            return answer
        if node.sealed:
            answer["why"] = "a secret decision is due here: it cannot be played on a variation"
            return answer
        answer["deciding"] = list(node.players)
        game = match.game
        for player in node.players:
            for decision in game.legal(match.state, player):
                if len(answer["legal"]) >= MAX_LISTED:
                    break
                text = game.format(decision, seen_as)
                answer["legal"].append({"player": player, "notation": game.notate(decision), "text": text})
        return answer

    def write(self, what: str, asked: dict[str, Any]) -> dict[str, Any]:
        """A note written or a decision played, as the page asked; the answer holds the study as it now is."""
        line, seq = _position(asked)
        with self._writing:
            if self._looks() != self._files:
                self.study = study.load(self.registry, self.log, self.study.path)
            if line != study.MAIN and self.study.seen_as(line) != self.viewer:
                raise UsageError(f"variation {line} is not this board's to play on")
            if what == "note":
                squares = _names(asked.get("squares", []), "squares")
                arrows = [tuple(_names(a, "an arrow")) for a in _list(asked.get("arrows", []), "arrows")]
                if any(len(a) != 2 for a in arrows):
                    raise UsageError("an arrow goes from one square to another: FROM-TO")
                mark = asked.get("mark") or None
                comment = asked.get("comment", "")
                if not isinstance(comment, str):
                    raise UsageError("a comment is text")
                self.study.note(line, seq, self.viewer, comment.strip(), mark, squares, arrows)  # type: ignore[arg-type]
                at = {"line": line, "seq": seq}
            else:
                decision, player = asked.get("decision"), asked.get("player")
                if not isinstance(decision, str) or not decision.strip() or len(decision) > 200:
                    raise UsageError("a decision is written in the game's notation")
                if player is not None and player not in self.study.header.players:
                    raise UsageError(f"{player!r} is not a player of this game")
                reached = self.study.play(line, seq, decision.strip(), player, self.viewer, self.seed_for(line, seq))
                at = {"line": reached[0], "seq": reached[1]}
            self._files = self._looks()
            return {"ok": True, "at": at, "study": data(self.study, [self.viewer], {"token": self.token})}


def _position(asked: dict[str, Any]) -> tuple[str, int]:
    line, seq = asked.get("line"), asked.get("seq")
    if not isinstance(line, str) or type(seq) is not int:
        raise UsageError("a position is a line ('main' or a variation's id) and an event number")
    return line, seq


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise UsageError(f"{what}: a list")
    return value


def _names(value: Any, what: str) -> list[str]:
    names = _list(value, what)
    if not all(isinstance(n, str) for n in names):
        raise UsageError(f"{what}: names of squares or spots")
    return names


class BoardHandler(Handler):
    server: Board

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        rest = self._rest()
        if rest == b"moves" and self.server.refuses(self.headers) is None:
            refused = self.server.refuses_token(self.headers)
            if refused is not None:
                self._answer(HTTPStatus.FORBIDDEN, {"error": refused})
                return
            query = parse_qs(urlsplit(self.path).query)
            try:
                seq = int(query.get("seq", [""])[0])
            except ValueError:
                self._answer(HTTPStatus.BAD_REQUEST, {"error": "seq: an event number"})
                return
            try:
                self._answer(HTTPStatus.OK, self.server.moves(query.get("line", ["main"])[0], seq))
            except TabletopError as exc:
                self._answer(HTTPStatus.UNPROCESSABLE_ENTITY, {"error": exc.message})
            return
        super().do_GET()

    def do_POST(self) -> None:  # noqa: N802 - the base class's name
        server = self.server
        refused = server.refuses(self.headers) or server.refuses_write(self.headers)
        rest = self._rest()
        if refused is not None or rest not in (b"note", b"play"):
            status = HTTPStatus.FORBIDDEN if refused is not None else HTTPStatus.NOT_FOUND
            self._answer(status, {"error": refused or "not found"})
            return
        try:
            length = int(self.headers.get("Content-Length") or "")
        except ValueError:
            self._answer(HTTPStatus.LENGTH_REQUIRED, {"error": "a write says its length"})
            return
        if not 0 <= length <= MAX_BODY:
            self._answer(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": f"a write is at most {MAX_BODY:,} bytes"})
            return
        try:
            asked = jsonline.loads(self.rfile.read(length))
            if not isinstance(asked, dict):
                raise UsageError("a write is a JSON object")
            answer = server.write(rest.decode(), asked)
        except TabletopError as exc:
            # The rule's reason for an illegal decision, or why the file could not be written.
            self._answer(HTTPStatus.UNPROCESSABLE_ENTITY, {"error": exc.message})
            return
        self._answer(HTTPStatus.OK, answer)

    def _rest(self) -> bytes | None:
        home = f"/{self.server.key}/".encode()
        path = urlsplit(self.path).path.encode("utf-8", "replace")
        return path[len(home) :] if hmac.compare_digest(path[: len(home)], home) else None

    def _answer(self, status: HTTPStatus, body: dict[str, Any]) -> None:
        text = json.dumps(body, ensure_ascii=False).encode("utf-8")
        self._send(status, text, "application/json; charset=utf-8")


def serve(
    registry: Registry,
    log: Path,
    studied: study.Study,
    viewer: str | None = None,
    port: int = 0,
    ready: Callable[[Board], None] | None = None,
    seed: str | None = None,
) -> None:
    """Serve the analysis board of ``log`` and its study until interrupted;
    ``ready`` is called with the server once it listens. New variations'
    seeds are drawn from ``seed`` (default: a fresh secret)."""
    server = Board(registry, log, viewer, port, studied, seed)
    server.RequestHandlerClass = BoardHandler
    run(server, ready)
