"""``end``: no more decisions are played (the seed stays sealed)."""

from __future__ import annotations

from typing import Any

from . import MasterCommand


class End(MasterCommand):
    name = "end"
    usage = "end"
    does = "end the game; no more decisions are played"
    order = 80

    def run(self, ref, now: float, stamp: str, **kwargs: Any) -> str:
        ref.settings.ended = now
        ref.letters.mail_all(
            "The game was ended", "The game master ended the game. No more decisions are played.", stamp
        )
        return "ended"
