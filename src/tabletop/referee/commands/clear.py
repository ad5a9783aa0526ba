"""``clear``: the sender's conditional moves are withdrawn (see :mod:`..conditionals`)."""

from __future__ import annotations

from .. import conditionals
from . import Mail, PlayerCommand


class Clear(PlayerCommand):
    name = "clear"
    usage = "clear"
    does = "withdraw your conditional moves"
    order = 70

    def run(self, ref, mail: Mail) -> str:
        gone = conditionals.kept(ref.settings).pop(mail.player, None) or []
        text = f"Your {len(gone)} conditional move(s) are withdrawn." if gone else "You had no conditional moves."
        ref.mail_to(mail.player, "Conditional moves withdrawn", text + "\n", mail.key + "-clear", mail.letter)
        return f"{mail.player} withdrew {len(gone)} conditional move(s)"
