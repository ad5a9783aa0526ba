"""``resume``: a paused game goes on; every clock moves on by the pause."""

from __future__ import annotations

from typing import Any

from . import MasterCommand


class Resume(MasterCommand):
    name = "resume"

    def run(self, ref, now: float, stamp: str, **kwargs: Any) -> str:
        since = ref.settings.get("paused")
        if not since:
            return "not paused"
        ref.settings["paused"] = None
        due = ref.settings.get("due")
        if due:  # the clocks stood still while the game was paused
            due["since"] = {p: t + (now - since) for p, t in due["since"].items()}
        ref.mail_all("The game resumes", "The game master resumed the game; deadlines run again.", stamp)
        return "resumed"
