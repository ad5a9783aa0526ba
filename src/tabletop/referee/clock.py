"""The referee's clocks: lengths (48h, 3d), moments in UTC and in each
player's own time zone, and whose decision is due since when (the
deadlines themselves are kept by :mod:`.deadlines`)."""

from __future__ import annotations

import re
import time
from datetime import datetime
from typing import TYPE_CHECKING

from ..base.errors import UsageError
from ..model.nodes import Decide
from .gamedir import one_line

if TYPE_CHECKING:
    from ..play.engine import Match
    from .ledger import Ledger

_DURATION = re.compile(r"^\s*(\d{1,9})\s*([smhdw])\s*$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def duration(text: str | None, option: str) -> int | None:
    """``text`` like 90m, 48h or 3d in seconds (None stays None); ``option``
    names what is at fault in the one-line error."""
    if text is None:
        return None
    m = _DURATION.match(text)
    if not m:
        raise UsageError(f"{option} '{one_line(text)}': write a number and a unit, like 90m, 48h or 3d")
    return int(m.group(1)) * _UNITS[m.group(2)]


def utc(epoch: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(epoch))


def when(epoch: float, zone: str | None = None) -> str:
    """``epoch`` in UTC, and first in the time zone ``zone`` when one is given:
    "2026-11-30 19:00 CET (18:00 UTC)"."""
    text = utc(epoch)
    if not zone:
        return text
    # zoneinfo (with sysconfig) only when a zone is asked for: most mail names none.
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        local = datetime.fromtimestamp(epoch, ZoneInfo(zone))
    except (ZoneInfoNotFoundError, ValueError):
        return text
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()} ({text[11:]})"


def check_zone(name: str, zone: str) -> str:
    """A time zone's name (like Europe/Berlin), checked: one UsageError otherwise."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise UsageError(f"--tz {name}={one_line(zone)}: not a time zone (write one like Europe/Berlin)") from None
    return zone


class Clock:
    """Whose decision is due since when (``due`` in the settings): started
    when a decision falls due, restarted when its player decides again,
    moved by an extension or a pause; each deadline read in its player's
    time zone."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def refresh_due(self, match: Match, now: float) -> None:
        """Start the clock for each player who must now decide; a player still
        deciding the same thing (another's move came in between) keeps theirs."""
        settings = self.ledger.settings
        old = settings.due or {"since": {}, "reminded": [], "late": []}
        node = match.node
        deciding = list(node.players) if isinstance(node, Decide) else []
        settings.due = {
            "seq": match.seq,
            "since": {p: old["since"].get(p, now) for p in deciding},
            "reminded": [p for p in old["reminded"] if p in deciding],
            "late": [p for p in old["late"] if p in deciding],
        }

    def restart_clocks(self, players: list[str]) -> None:
        """``players`` decided: a decision due of theirs after it is a new one, on a clock of its own."""
        due = self.ledger.settings.due
        if not due:
            return
        for player in players:
            due["since"].pop(player, None)
        due["reminded"] = [p for p in due["reminded"] if p not in players]
        due["late"] = [p for p in due["late"] if p not in players]

    def extend(self, player: str, seconds: int) -> None:
        """``player``'s deadline moves ``seconds`` later; the reminder and the late notice are due again."""
        due = self.ledger.settings.due
        if not due or player not in due["since"]:
            raise UsageError(f"{player} has no decision due now")
        due["since"][player] += seconds
        due["reminded"] = [p for p in due["reminded"] if p != player]
        due["late"] = [p for p in due["late"] if p != player]

    def stood_still(self, since: float, now: float) -> None:
        """The game was paused from ``since`` to ``now``: each deadline moves on by the pause."""
        due = self.ledger.settings.due
        if due:
            due["since"] = {p: t + (now - since) for p, t in due["since"].items()}

    def when(self, epoch: float, player: str | None = None) -> str:
        """A moment as ``player`` reads it: in their time zone (``--tz``), and in UTC."""
        players = self.ledger.players
        zone = players[player].get("tz") if player in players else None
        return when(epoch, zone)

    def deadline_of(self, player: str) -> float | None:
        settings = self.ledger.settings
        due, deadline = settings.due, settings.deadline
        if not due or not deadline or player not in due["since"]:
            return None
        return due["since"][player] + deadline
