"""``help``: what a player, or the game master, can write to the referee."""

from __future__ import annotations

from typing import Any

from .. import mailout
from . import Mail, MasterCommand, PlayerCommand


class Help(PlayerCommand):
    name = "help"
    usage = "help"
    does = "this text"
    order = 10

    def run(self, ref, mail: Mail) -> str:
        ref.mail_to(
            mail.player,
            "How to play by mail",
            mailout.player_help(ref.settings.game_id),
            mail.key + "-help",
            mail.letter,
        )
        return f"{mail.player} asked for help"


class MasterHelp(MasterCommand):
    name = "help"
    usage = "help"
    does = "this text"
    order = 90
    by_mail_only = True

    def run(self, ref, now: float, stamp: str, **kwargs: Any) -> str:
        ref.letters.mail_master("Game master commands", mailout.master_help(ref.settings.game_id), key=stamp + "-help")
        return "help"
