"""``extend: PLAYER LENGTH``: the player's deadline moves later (the
reminder and the late notice are due again)."""

from __future__ import annotations

from typing import Any

from ..clock import duration
from . import MasterCommand


class Extend(MasterCommand):
    name = "extend"
    usage = "extend: PLAYER LENGTH"
    does = "move PLAYER's deadline LENGTH later (like 24h)"
    order = 30
    about_a_player = True
    takes = ("player", "length")
    example = "ann 24h"

    def arguments(self, value: str) -> dict[str, Any]:
        who, _, length = value.partition(" ")
        return {"player": who.strip(), "seconds": duration(length.strip(), f"extend: {who.strip()}")}

    def given(self, *, player: str, length: str, **values: Any) -> dict[str, Any]:
        return {"player": player, "seconds": duration(length, "LENGTH"), **values}

    def run(self, ref, now: float, stamp: str, *, player: str, seconds: int, **kwargs: Any) -> str:
        ref.clock.extend(player, seconds)
        when = ref.clock.when(ref.clock.deadline_of(player) or now, player)
        ref.mail_to(player, "Your deadline was extended", f"The game master extended your deadline to {when}.\n", stamp)
        return f"{player}'s deadline extended to {when}"
