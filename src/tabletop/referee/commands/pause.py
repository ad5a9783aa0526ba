"""``pause``: no decision is played and no deadline runs until ``resume``."""

from __future__ import annotations

from typing import Any

from . import MasterCommand


class Pause(MasterCommand):
    name = "pause"
    usage = "pause"
    does = "stop the game and its deadlines"
    order = 10

    def run(self, ref, now: float, stamp: str, **kwargs: Any) -> str:
        if ref.settings.get("paused"):
            if ref.settings.get("paused_by") == "vote":
                # The players paused it; now it is the master's pause, which
                # no player's 'vote: resume' lifts.
                ref.settings["paused_by"] = "master"
                return "already paused by the players' vote; it is now the game master's pause"
            return "already paused"
        ref.settings["paused"] = now
        ref.settings["paused_by"] = "master"
        ref.mail_all(
            "The game is paused",
            "The game master paused the game: no decision is played and no deadline runs until it resumes.",
            stamp,
        )
        return "paused"
