"""``resume``: a paused game goes on; every clock moves on by the pause."""

from __future__ import annotations

from typing import Any

from . import MasterCommand


class Resume(MasterCommand):
    name = "resume"
    usage = "resume"
    does = "restart a paused game; deadlines move on by the pause"
    order = 20

    def run(self, ref, now: float, stamp: str, **kwargs: Any) -> str:
        if not ref.settings.paused:
            return "not paused"
        lift(ref, now)
        ref.letters.mail_all("The game resumes", "The game master resumed the game; deadlines run again.", stamp)
        return "resumed"


def lift(ref, now: float) -> None:
    """End the pause, whoever made it: the clocks stood still while the game
    was paused, so each deadline moves on by the pause."""
    since = ref.settings.paused
    ref.settings.paused = None
    ref.settings.paused_by = None
    if since:
        ref.clock.stood_still(since, now)
