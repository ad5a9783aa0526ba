"""``history``: the whole game so far, as the player may see it."""

from __future__ import annotations

from ...model.events import Reveal
from . import Mail, PlayerCommand


class History(PlayerCommand):
    name = "history"
    usage = "history"
    does = "the whole game so far, as you may see it"
    order = 20

    def run(self, ref, mail: Mail) -> str:
        ref.mail_to(mail.player, "The game so far", text(ref, mail.player), mail.key + "-history", mail.letter)
        return f"{mail.player} asked for the history"


def text(ref, player: str) -> str:
    """The game as ``player`` may see it, event by event, and the log's head."""
    match = ref.ledger.replay()
    events, head = ref.ledger.read_log(match.header.game)
    lines = [
        f"  {seq}. {match.describe(event, player)}"
        for seq, event in events
        if not isinstance(event, Reveal) or match.over
    ]
    return f"Game '{ref.settings.game_id}' as {player} may see it:\n\n" + "\n".join(lines) + f"\n\nLog head: {head}\n"
