"""A mail that asks for nothing: the player's view of the game as it stands."""

from __future__ import annotations

from ...log import logfile
from . import FALLBACK, Mail, PlayerCommand


class View(PlayerCommand):
    name = "view"
    runs = FALLBACK

    def asked(self, letter) -> bool:
        return False  # what a mail gets when it asks for nothing else

    def run(self, ref, mail: Mail) -> str:
        with logfile.locked(ref.ledger.dir.log) as handle:
            match = ref.ledger.replay(handle)
        ref.letters.queue_view(
            match, mail.player, note="Here is the game as it stands.", resend=True, key=mail.key + "-view"
        )
        return f"{mail.player} asked for the game as it stands"
