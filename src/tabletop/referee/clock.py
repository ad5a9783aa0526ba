"""Time as the referee speaks it: lengths (48h, 3d), and moments in UTC and
in each player's own time zone."""

from __future__ import annotations

import re
import time
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..errors import UsageError
from .gamedir import one_line

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
    try:
        local = datetime.fromtimestamp(epoch, ZoneInfo(zone))
    except (ZoneInfoNotFoundError, ValueError):
        return text
    return f"{local:%Y-%m-%d %H:%M} {local.tzname()} ({text[11:]})"


def check_zone(name: str, zone: str) -> str:
    """A time zone's name (like Europe/Berlin), checked: one UsageError otherwise."""
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise UsageError(f"--tz {name}={one_line(zone)}: not a time zone (write one like Europe/Berlin)") from None
    return zone
