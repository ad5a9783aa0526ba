"""``legal``: every one of the player's legal decisions now."""

from __future__ import annotations

from ...model.nodes import Decide
from ...sight import seen
from ..letters import waiting_for
from ..settings import LISTED_ALL
from . import Mail, PlayerCommand


class Legal(PlayerCommand):
    name = "legal"
    usage = "legal"
    does = "every one of your legal decisions now"
    order = 30

    def run(self, ref, mail: Mail) -> str:
        ref.mail_to(mail.player, "Your legal decisions", text(ref, mail.player), mail.key + "-legal", mail.letter)
        return f"{mail.player} asked for every legal decision"


def text(ref, player: str) -> str:
    match = ref.ledger.replay()
    node = match.node
    if not (isinstance(node, Decide) and player in node.players):
        return f"It is not your turn: waiting for {waiting_for(match)}."
    legal = list(match.game.legal(match.state, player))
    shown = "\n".join(f"  {match.game.notate(d)}" for d in legal[:LISTED_ALL])
    more = f"\n  ... and {len(legal) - LISTED_ALL} more" if len(legal) > LISTED_ALL else ""
    return f"All {len(legal)} of your legal decisions ({seen.asks(match.game, match.state, player)}):\n{shown}{more}\n"
