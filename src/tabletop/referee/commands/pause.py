"""``pause``: no decision is played and no deadline runs until ``resume``."""

from __future__ import annotations

from typing import Any

from . import MasterCommand


class Pause(MasterCommand):
    name = "pause"
    usage = "pause"
    does = "stop the game and its deadlines (players are told)"
    order = 10

    def run(self, ref, now: float, stamp: str, **kwargs: Any) -> str:
        settings = ref.settings
        if settings.paused:
            if settings.paused_by == "vote":
                # The players paused it; now it is the master's pause, which
                # no player's 'vote: resume' lifts.
                settings.paused_by = "master"
                return "already paused by the players' vote; it is now the game master's pause"
            return "already paused"
        settings.paused = now
        settings.paused_by = "master"
        ref.letters.mail_all(
            "The game is paused",
            "The game master paused the game: no decision is played and no deadline runs until it resumes.",
            stamp,
        )
        return "paused"
