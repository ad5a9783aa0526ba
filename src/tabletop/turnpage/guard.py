"""What a turn page's server lets through: the game's own name for itself
(Host), posts from its own pages only (Origin, Sec-Fetch-Site, a form
token only the page holds), bodies of bounded size and shape, and requests
at a bounded rate per page and per address (in memory: a restart starts
the counts afresh).

A page's form token is drawn from the game's key and the page's token
(:mod:`tabletop.referee.pages`): it outlives a restart of the server (a
post sent again after one is still the reader's), changes with the page,
and no other page, nor any other site, can know it."""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
from collections import deque
from collections.abc import Mapping
from urllib.parse import parse_qsl

import attrs

from ..base.errors import UsageError

#: The largest body a post may have (a press message of 4,000 characters, escaped, fits).
MAX_BODY = 32 * 1024
#: At most this many fields in a post.
MAX_FIELDS = 12
#: The window the rates are counted in, in seconds.
WINDOW = 60.0


@attrs.frozen
class Limits:
    """Requests a page may make, and an address, in :data:`WINDOW`; posts a page may make."""

    page_requests: int = 120
    address_requests: int = 600
    page_posts: int = 20


#: Sent with every answer: no other site may frame, embed or sniff a page, nor learn its address.
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "same-origin",
    # The page's own policy is in its <meta>; this one adds where forms may go and who may frame it.
    "Content-Security-Policy": "frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    "X-Frame-Options": "DENY",
    # No address (it holds the page's token) goes to another site; this one's own posts keep their Origin
    # (under no-referrer a browser sends "Origin: null", which no post is taken from).
    "Referrer-Policy": "same-origin",
}


def form_token(key: bytes, token: str) -> str:
    """The form token of the page ``token`` (see the module's text)."""
    return hmac.new(key, b"form\0" + token.encode("ascii", "replace"), hashlib.sha256).hexdigest()[:32]


def same(given: str, wanted: str) -> bool:
    return hmac.compare_digest(given.encode("utf-8", "replace"), wanted.encode("utf-8"))


def refuses_host(headers: Mapping[str, str], netloc: str) -> str | None:
    """Why a request naming another Host than the game's address is refused (a
    name that resolves here by someone else's doing: DNS rebinding), or None."""
    host = (headers.get("host") or "").strip().lower()
    if host != netloc.lower():
        return "this server does not answer to that name"
    return None


def refuses_post(headers: Mapping[str, str], origin: str) -> str | None:
    """Why a post is not from the game's own pages (its Origin, the browser's
    Sec-Fetch-Site, its kind of body), or None. The form token is checked with the body."""
    given = headers.get("origin")
    if given is None or given.strip().lower() != origin.lower():
        return "a post comes only from the game's own pages"
    site = headers.get("sec-fetch-site")
    if site is not None and site.strip().lower() not in ("same-origin", "none"):
        return "a post comes only from the game's own pages"
    kind = (headers.get("content-type") or "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        return "a post is a form"
    return None


def fields(body: bytes) -> dict[str, str]:
    """A form's fields, each once; a body that is no such form is one UsageError."""
    try:
        text = body.decode("utf-8")
        pairs = parse_qsl(text, keep_blank_values=True, strict_parsing=bool(text), max_num_fields=MAX_FIELDS)
    except (UnicodeDecodeError, ValueError):
        raise UsageError("the post is not a form this page sends") from None
    found: dict[str, str] = {}
    for name, value in pairs:
        if name in found or any(not c.isprintable() and c not in "\r\n\t" for c in name + value):
            raise UsageError("the post is not a form this page sends")
        found[name] = value
    return found


class Rates:
    """Requests counted in a sliding window, per key (a page, an address)."""

    def __init__(self, limit: int, window: float = WINDOW, keys: int = 10_000) -> None:
        self.limit = limit
        self.window = window
        self.keys = keys
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def allows(self, key: str, now: float | None = None) -> bool:
        """Whether one more request of ``key`` is let through now (and count it if so)."""
        now = time.monotonic() if now is None else now
        with self._lock:
            times = self._seen.get(key)
            if times is None:
                if len(self._seen) >= self.keys:
                    self._forget(now)
                times = self._seen[key] = deque()
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) >= self.limit:
                return False
            times.append(now)
            return True

    def _forget(self, now: float) -> None:
        for key in [k for k, t in self._seen.items() if not t or t[-1] <= now - self.window]:
            del self._seen[key]
        if len(self._seen) >= self.keys:  # a flood of new keys: the oldest go
            for key in list(self._seen)[: len(self._seen) // 2]:
                del self._seen[key]
