"""Observers: people who follow a game by mail and play no part
(``pbem init --observer ADDRESS``, or the game master's ``observe:
ADDRESS`` later).

An observer gets the game as a watcher with no seat may know it after
every change, as the players get theirs: what every seat may see
(:func:`tabletop.sight.seen.public`), never what any seat's view hides (a hand,
a draw, a secret choice, who voted before the turn ended); and the whole log
with the last mail, as every player gets it once the game is over. An
observer has no secret: the referee takes no commands from them (a mail
from them is a stranger's).

Observers are kept in the referee's settings (``observers``: each an
address and the last event mailed to it); a mail to an observer about a
change is queued under the change's key and a hash of the address, so a
change finished after a crash mails nobody twice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..base.errors import UsageError
from . import mailin
from .gamedir import one_line

if TYPE_CHECKING:
    from .ledger import Ledger
    from .letters import Letters
    from .settings import Settings, Watcher

#: At most this many observers: each change mails every one of them.
MAX_OBSERVERS = 100


def listed(settings: Settings) -> list[Watcher]:
    """The game's observers (the settings' own records: a mail updates ``mailed``)."""
    if settings.observers is None:
        settings.observers = []
    return settings.observers


def key(change: str | None, watcher: dict[str, Any]) -> str | None:
    """The name a mail about ``change`` to ``watcher`` is queued under (None: no key)."""
    if not change:
        return None
    return f"{change}-watch-{hashlib.sha256(watcher['address'].lower().encode()).hexdigest()[:12]}"


def check(address: str, players: dict[str, dict[str, Any]], known: Sequence[str], option: str) -> str:
    """One more observer's address, checked: a plain address, no player's,
    not one already watching; one line otherwise."""
    address = str(address).strip()
    if not mailin.valid_address(address):
        raise UsageError(f"{option} '{one_line(address)}': not a single mail address")
    for name, data in players.items():
        if str(data.get("address", "")).lower() == address.lower():
            raise UsageError(f"{option} {address}: {name} plays from that address (a player sees their own view)")
    if address.lower() in (a.lower() for a in known):
        raise UsageError(f"{option} {address}: already an observer of this game")
    if len(known) >= MAX_OBSERVERS:
        raise UsageError(f"{option} {address}: a game has at most {MAX_OBSERVERS} observers")
    return address


class Observers:
    """Observers added to a game under way: each welcomed with the game so far."""

    def __init__(self, ledger: Ledger, letters: Letters) -> None:
        self.ledger = ledger
        self.letters = letters

    def welcome(self, address: str, stamp: str, note: str = "") -> Watcher:
        """Add ``address`` as an observer and mail them the game so far (the
        first mail of their thread)."""
        watcher: Watcher = {"address": address, "mailed": 0}
        listed(self.ledger.settings).append(watcher)
        # Kept before the mail: a run cut short leaves an observer whose first
        # view comes with the next change, never one mailed twice.
        self.ledger.save()
        self.letters.queue_watch(self.ledger.replay(), watcher, welcome=True, note=note, key=stamp)
        return watcher

    def add(self, address: str, stamp: str) -> str:
        """The game master's ``observe: ADDRESS``: one line saying what was done."""
        settings = self.ledger.settings
        if settings.ended:
            raise UsageError("the game was ended: there is nothing more to watch")
        address = check(address, settings.players, [w["address"] for w in listed(settings)], "observe")
        self.welcome(address, stamp)
        return f"{address} observes the game from now on (the game so far was mailed there)"
