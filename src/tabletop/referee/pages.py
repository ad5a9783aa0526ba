"""Turn pages: each reader's address on the game's web server (``tabletop
pbem serve``), a link in every mail to that reader and in nobody else's.

A page's token is drawn from a key of the game's own (``pages.key``, the
owner's alone, made once) and what names the reader: a seat by its name
and the salt of its secret, an observer by their address, the game master
by the master's salt. So a token changes whenever the secret does
(``reissue``, ``replace``, a substitute's claim) and the old link stops
working with it; nothing but the key is stored, and ``referee.json``
holds no token.

The server needs no index of its own: it draws every reader's token of
the games it serves and finds the one asked for (:func:`readers`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ..base.errors import UsageError
from .gamedir import one_line, write_private

if TYPE_CHECKING:
    from .gamedir import GameDir
    from .settings import Offer, Settings

#: The reader a token may name: a seat (its name), an observer, the game master, a
#: substitute a seat is offered to (by the salt of the offer's claim token).
OBSERVER = "observer:"
OFFER = "offer:"
MASTER = "(master)"
#: Where a page lives under the server's address.
PATH = "turn"
_KEY_BYTES = 32


def key(directory: GameDir) -> bytes:
    """The game's key for pages, made (owner only) the first time it is asked for."""
    path = directory.path / "pages.key"
    try:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: cannot read the key of the turn pages ({exc})") from None
    made = secrets.token_bytes(_KEY_BYTES)
    spare = path.with_name(f".pages.key.{os.getpid()}.{secrets.token_hex(4)}")
    try:
        write_private(spare, made.hex() + "\n")
        # Linked whole into place, once: two runs at once keep the first one's key.
        os.link(spare, path)
    except FileExistsError:
        return key(directory)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write the key of the turn pages ({exc.strerror})") from None
    finally:
        spare.unlink(missing_ok=True)
    return made


def token(directory: GameDir, settings: Settings, reader: str, secret: bytes | None = None) -> str | None:
    """The page token of ``reader`` (a seat, ``observer:ADDRESS``, :data:`MASTER`), or None for nobody
    (``secret``: the game's :func:`key`, when the caller has read it already)."""
    if reader == MASTER:
        stored = settings.master_secret
        what = f"master\0{stored['salt']}" if stored and settings.master else None
    elif reader.startswith(OBSERVER):
        what = f"observer\0{reader[len(OBSERVER) :].lower()}"
    elif reader.startswith(OFFER):
        what = f"offer\0{reader[len(OFFER) :]}" if offer_of(settings, reader) is not None else None
    else:
        player = settings.players.get(reader)
        what = f"seat\0{reader}\0{player['secret']['salt']}" if player else None
    if what is None:
        return None
    digest = hmac.digest(secret or key(directory), what.encode("utf-8"), hashlib.sha256)
    return base64.urlsafe_b64encode(digest[:24]).decode("ascii")


def readers(directory: GameDir, settings: Settings) -> dict[str, str]:
    """Every reader of the game who has a page, by token: the seats people
    play, the observers, the game master."""
    from . import botseats, observers

    names = [p for p in settings.players if not botseats.of(settings, p)]
    names += [OBSERVER + w["address"] for w in observers.listed(settings)]
    names += [OFFER + o["token"]["salt"] for o in settings.offers or []]
    if settings.master:
        names.append(MASTER)
    found, secret = {}, key(directory)
    for name in names:
        made = token(directory, settings, name, secret)
        if made is not None:
            found[made] = name
    return found


def offer_of(settings: Settings, reader: str) -> Offer | None:
    """The seat offered to the substitute ``reader`` names (``offer:SALT``), while it is on offer."""
    salt = reader[len(OFFER) :]
    return next((o for o in settings.offers or [] if o["token"]["salt"] == salt), None)


def link(directory: GameDir, settings: Settings, reader: str) -> str | None:
    """The address of ``reader``'s page, when the game has a page address (``page_url``)."""
    if not settings.page_url:
        return None
    made = token(directory, settings, reader)
    return None if made is None else f"{settings.page_url.rstrip('/')}/{PATH}/{made}/"


_LOOPBACK = ("localhost", "127.0.0.1", "::1")


def check_url(value: str | None) -> str | None:
    """The page address ``page_url`` as the settings keep it: ``https://HOST[:PORT]``
    (``http://`` only for this machine, where nothing crosses a network)."""
    if not value:
        return None
    try:
        parts = urlsplit(value)
        host = parts.hostname or ""
        parts.port  # noqa: B018 - a port that is no number is refused here
    except ValueError:
        host = ""
    if not value.isprintable() or parts.query or parts.fragment or parts.path.strip("/") or not host:
        raise UsageError(
            f"page_url '{one_line(value)[:80]}': write the server's address, like https://games.example.org"
        )
    if parts.scheme != "https" and not (parts.scheme == "http" and host in _LOOPBACK):
        raise UsageError(
            f"page_url '{one_line(value)[:80]}': https:// (a page carries what only its reader may see); "
            "http:// only for this machine"
        )
    return f"{parts.scheme}://{parts.netloc}"


def origin(settings: Settings) -> str | None:
    """The origin pages of the game are served from (``https://host``), or None."""
    return check_url(settings.page_url) if settings.page_url else None
