"""``pause``: no decision is played and no deadline runs until ``resume``."""

from __future__ import annotations

from typing import Any

from . import MasterCommand


class Pause(MasterCommand):
    name = "pause"

    def run(self, ref, now: float, stamp: str, **kwargs: Any) -> str:
        if ref.settings.get("paused"):
            return "already paused"
        ref.settings["paused"] = now
        ref.mail_all(
            "The game is paused",
            "The game master paused the game: no decision is played and no deadline runs until it resumes.",
            stamp,
        )
        return "paused"
