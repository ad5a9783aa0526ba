"""The turn pages' web application (ASGI, Starlette): one or several game
folders, each reader at ``/turn/TOKEN/``.

- ``GET /turn/TOKEN/``: the reader's page: the viewer's board for their
  view, opened at the latest event, with what they may do (:mod:`.panel`);
- ``GET /turn/TOKEN/events?since=STAMP``: answers once the page would
  differ (the viewer's page then reloads itself, as under ``watch``);
- ``POST /turn/TOKEN/post``: a form of the page: one mail line, run by the
  referee as the reader's mail (:meth:`tabletop.referee.inbox.Inbox.posted`),
  then back to the page, which shows the answer the mail would have had.

The referee's work (reading the folder, replaying the log, a post) runs in
worker threads; each game's changes are made under its folder's lock, as
every mail's are, so the pages, ``poll``, ``receive`` and ``tick`` may run
at once. Nothing is kept here that a restart would lose: a post is done
when the journal says so (:mod:`tabletop.referee.change`).
"""

from __future__ import annotations

import re
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from html import escape
from pathlib import Path
from typing import Any

import anyio
import attrs
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from ..base.errors import TabletopError, UsageError
from ..host.registry import Registry
from ..referee import pages
from ..referee.gamedir import GameDir
from ..referee.referee import Referee
from ..sight import seen
from ..viewer.page import stamped, watched
from ..viewer.serve import look
from . import guard, panel

#: How often a page's events look for a change, and how long one request waits (the browser asks again).
POLL = 0.5
KEEPALIVE = 15.0
EVENTS_FOR = 300.0
_POST = re.compile(r"^[0-9a-f]{16,64}$")

_WAITING = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; connect-src 'self'; script-src 'unsafe-inline'">
<title>The game cannot be shown now</title></head>
<body><p id="problem">The game cannot be shown now; the page reloads when it changes.</p>
<script>new EventSource("events?since={stamp}").onmessage = function () {{ location.reload(); }};</script>
</body></html>
"""


@attrs.frozen
class Shown:
    """A page as built: its HTML (the answer's place marked), its stamp, what it was built from."""

    html: str
    stamp: str
    looks: tuple[Any, ...]


class Game:
    """One game folder served: its readers by token, their pages built once per change."""

    def __init__(self, folder: Path, registry: Registry) -> None:
        self.folder = Path(folder)
        self.registry = registry
        self.dir = GameDir(self.folder)
        #: A page is built by one thread at a time; the readers are looked up apart (no request waits for a build).
        self._lock = threading.Lock()
        self._looking = threading.Lock()
        self._readers: tuple[Any, dict[str, str], str] | None = None
        self._pages: dict[str, Shown] = {}

    def open(self) -> Referee:
        return Referee.open(self.registry, self.folder)

    def looks(self) -> tuple[Any, ...]:
        return (look(self.dir.log), look(self.dir.settings_file), look(self.dir.press))

    def readers(self) -> tuple[dict[str, str], str]:
        """Every reader's token, and the address (``host[:port]``) the game's pages are served at."""
        with self._looking:
            now = look(self.dir.settings_file)
            if self._readers is None or self._readers[0] != now:
                settings = self.dir.load()
                origin = pages.origin(settings) or ""
                self._readers = (now, pages.readers(self.dir, settings), origin)
            return self._readers[1], self._readers[2]

    def offered(self, reader: str) -> tuple[str, str] | None:
        """The seat offered to the substitute ``reader`` (``offer:SALT``) and their address, while on offer."""
        offer = pages.offer_of(self.dir.load(), reader)
        return None if offer is None else (offer["seat"], offer["address"])

    def seat_of(self, seat: str, address: str) -> str | None:
        """The page token of ``seat`` when ``address`` holds it now, else None."""
        settings = self.dir.load()
        player = settings.players.get(seat)
        if player is None or player["address"].lower() != address.lower():
            return None
        return pages.token(self.dir, settings, seat)

    def page(self, token: str, reader: str) -> Shown:
        """The reader's page as the game now stands (built again only after a change)."""
        with self._lock:
            now = self.looks()
            kept = self._pages.get(token)
            if kept is not None and kept.looks == now:
                return kept
            shown = self._build(token, reader, now)
            self._pages = {t: p for t, p in self._pages.items() if p.looks == now}
            self._pages[token] = shown
            return shown

    def _build(self, token: str, reader: str, now: tuple[Any, ...]) -> Shown:
        try:
            ref = self.open()
            match = ref.ledger.replay()
            # Once the game is over its log is everyone's (every last mail carries it): the page shows everything.
            viewer = None if match.over else reader if reader in ref.settings.players else seen.PUBLIC
            addition = panel.section(ref, match, reader, guard.form_token(pages.key(self.dir), token))
            made = watched(self.registry, self.dir.log, viewer, addition)
        except TabletopError as exc:
            # A log caught half-written: the reader is told only that it cannot be shown (it may quote a hidden draw).
            say(f"{self.folder}: {exc}")
            html, stamp = stamped(lambda stamp: _WAITING.format(stamp=escape(stamp or "", quote=True)))
            return Shown(html, stamp, now)
        return Shown(made.html, made.stamp, now)


def say(message: str) -> None:
    try:
        sys.stderr.write(f"tabletop pbem serve: {' '.join(message.split())[:400]}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass  # a terminal gone: the server serves on


class Pages:
    """The games served, and the limits on who asks how much."""

    def __init__(self, games: Sequence[Game], limits: guard.Limits) -> None:
        self.games = list(games)
        self.by_address = guard.Rates(limits.address_requests)
        self.by_page = guard.Rates(limits.page_requests)
        self.posts = guard.Rates(limits.page_posts)
        #: The answer to each page's last post, shown once.
        self.answers: dict[str, str] = {}

    def find(self, token: str) -> tuple[Game, str, str] | None:
        """The game, reader and origin of a page's token, or None (a wrong or an old one)."""
        for game in self.games:
            readers, origin = game.readers()
            reader = readers.get(token)
            if reader is not None:
                return game, reader, origin
        return None

    def origins(self) -> set[str]:
        return {game.readers()[1] for game in self.games}


def _text(status: int, text: str, extra: dict[str, str] | None = None) -> Response:
    return PlainTextResponse(text + "\n", status_code=status, headers={**guard.HEADERS, **(extra or {})})


def _netloc(origin: str) -> str:
    return origin.split("://", 1)[1] if "://" in origin else ""


async def _gate(request: Request, served: Pages) -> tuple[Game, str, str] | Response:
    """The page a request is for, or the answer that refuses it."""
    client = request.client.host if request.client else "?"
    if not served.by_address.allows(client):
        return _text(429, "too many requests from this address: wait a minute", {"Retry-After": "60"})
    token = request.path_params.get("token", "")
    origins = await anyio.to_thread.run_sync(served.origins)
    host = (request.headers.get("host") or "").lower()
    if host not in {_netloc(o).lower() for o in origins if o}:
        return _text(421, "this server does not answer to that name")
    found = await anyio.to_thread.run_sync(served.find, token) if len(token) < 100 else None
    if found is None:
        return _text(404, "no such page: the link of your latest mail from the referee is the page's")
    game, reader, origin = found
    refused = guard.refuses_host(request.headers, _netloc(origin))
    if refused is not None:
        return _text(421, refused)
    if not served.by_page.allows(token):
        return _text(429, "too many requests from this page: wait a minute", {"Retry-After": "60"})
    return found


#: A route of a page: the request, the page's game, its token, reader and origin.
Routed = Callable[[Request, Game, str, str, str], Awaitable[Response]]


def application(games: Sequence[Game], limits: guard.Limits | None = None) -> Starlette:
    """The ASGI application serving ``games``' pages, each page and each
    address held to ``limits`` (the defaults of :class:`guard.Limits` unless told)."""
    served = Pages(games, limits or guard.Limits())

    def gated(route: Routed) -> Callable[[Request], Awaitable[Response]]:
        """``route``, for the requests :func:`_gate` lets through."""

        async def checked(request: Request) -> Response:
            found = await _gate(request, served)
            if isinstance(found, Response):
                return found
            game, reader, origin = found
            return await route(request, game, request.path_params["token"], reader, origin)

        return checked

    async def home(request: Request) -> Response:
        return _text(404, "a page of this server is at the link in your mail from the referee")

    @gated
    async def bare(request: Request, game: Game, token: str, reader: str, origin: str) -> Response:
        return RedirectResponse(f"{token}/", status_code=308, headers=guard.HEADERS)

    @gated
    async def page(request: Request, game: Game, token: str, reader: str, origin: str) -> Response:
        shown = await anyio.to_thread.run_sync(game.page, token, reader)
        answer = served.answers.pop(token, "")
        return HTMLResponse(shown.html.replace(panel.ANSWER, answer, 1), headers=guard.HEADERS)

    @gated
    async def events(request: Request, game: Game, token: str, reader: str, origin: str) -> Response:
        since = request.query_params.get("since", "")

        async def stream():
            began = quiet = time.monotonic()
            while time.monotonic() - began < EVENTS_FOR:
                shown = await anyio.to_thread.run_sync(game.page, token, reader)
                if shown.stamp != since:
                    yield f"data: {shown.stamp}\n\n"
                    return
                if time.monotonic() - quiet > KEEPALIVE:
                    yield ": still watching\n\n"
                    quiet = time.monotonic()
                if await request.is_disconnected():
                    return
                await anyio.sleep(POLL)

        return StreamingResponse(stream(), media_type="text/event-stream", headers=guard.HEADERS)

    @gated
    async def log(request: Request, game: Game, token: str, reader: str, origin: str) -> Response:
        # Served once the game is over, as every last mail attaches it: until then it holds every hidden draw.
        match = await anyio.to_thread.run_sync(lambda: game.open().ledger.replay())
        if not match.over:
            return _text(403, "the log is served once the game is over: until then it holds every hidden draw")
        body = await anyio.to_thread.run_sync(game.dir.log.read_bytes)
        extra = {"Content-Disposition": 'attachment; filename="game.jsonl"'}
        return Response(body, media_type="application/x-ndjson", headers={**guard.HEADERS, **extra})

    @gated
    async def post(request: Request, game: Game, token: str, reader: str, origin: str) -> Response:
        if reader.startswith(pages.OBSERVER):
            return _text(403, "an observer's page only shows the game")
        refused = guard.refuses_post(request.headers, origin)
        if refused is not None:
            return _text(403, refused)
        if not served.posts.allows(token):
            return _text(429, "too many posts from this page: wait a minute", {"Retry-After": "60"})
        body = await _body(request)
        if isinstance(body, Response):
            return body
        try:
            form = guard.fields(body)
            key = pages.key(game.dir)
            if not guard.same(form.get("csrf", ""), guard.form_token(key, token)):
                return _text(403, "the page's form token is missing or wrong: reload the page")
            lines, nonce = _lines(form, reader)
        except UsageError as exc:
            return _text(400, exc.message)
        offered = await anyio.to_thread.run_sync(game.offered, reader) if reader.startswith(pages.OFFER) else None
        try:
            done = await anyio.to_thread.run_sync(lambda: game.open().inbox.posted(reader, lines, nonce))
        except TabletopError as exc:
            served.answers[token] = panel.answer_html([], f"Nothing was done: {exc.message}")
        else:
            served.answers[token] = panel.answer_html(done.answers, done.report)
            if offered is not None:
                taken = await anyio.to_thread.run_sync(game.seat_of, *offered)
                if taken is not None:
                    # The seat is the substitute's now: on to its page (the offer's is gone).
                    served.answers[taken] = served.answers.pop(token)
                    return RedirectResponse(f"../{taken}/", status_code=303, headers=guard.HEADERS)
        return RedirectResponse("./", status_code=303, headers=guard.HEADERS)

    routes = [
        Route("/", home),
        Route(f"/{pages.PATH}/{{token}}", bare),
        Route(f"/{pages.PATH}/{{token}}/", page),
        Route(f"/{pages.PATH}/{{token}}/events", events),
        Route(f"/{pages.PATH}/{{token}}/log.jsonl", log),
        Route(f"/{pages.PATH}/{{token}}/post", post, methods=["POST"]),
    ]
    return Starlette(routes=routes)


async def _body(request: Request) -> bytes | Response:
    """The post's body, read no further than :data:`guard.MAX_BODY`."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > guard.MAX_BODY):
        return _text(413, f"a post is at most {guard.MAX_BODY:,} bytes")
    kept = bytearray()
    async for chunk in request.stream():
        kept += chunk
        if len(kept) > guard.MAX_BODY:
            return _text(413, f"a post is at most {guard.MAX_BODY:,} bytes")
    return bytes(kept)


def _lines(form: dict[str, str], reader: str) -> tuple[list[tuple[str, str]], str]:
    """The mail lines a form stands for, and the post's name."""
    nonce = form.get("post", "")
    if not _POST.match(nonce):
        raise UsageError("the post has no name of its own: reload the page")
    key = form.get("key", "")
    if reader == pages.MASTER:
        allowed = panel.master_keys()
    elif reader.startswith(pages.OFFER):
        allowed = panel.OFFER_KEYS
    else:
        allowed = panel.SEAT_KEYS
    if key not in allowed:
        raise UsageError("the page posts no such thing")
    value = form.get("value", "")
    if len(value) > 4000:
        raise UsageError("at most 4,000 characters")
    if key == "resign" and form.get("sure") != "yes":
        raise UsageError("resigning is asked for with the box ticked")
    if key == "press":
        # Each line of the message is a press line, as in a mail.
        said = [line.strip() for line in value.splitlines() if line.strip()]
        if not said:
            raise UsageError("the message is empty")
        return [("press", line) for line in said], nonce
    return [(key, " ".join(value.split()))], nonce
