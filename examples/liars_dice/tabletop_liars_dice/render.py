"""The game as text: each player's dice (``?`` under another's cup, ``.``
not rolled yet), the last bid, and the call. What is drawn is the viewer's
view, made by the core: a die the viewer may not see is a ``Hidden`` here.
The facets ``diff`` compares are the core's, one per field of the state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop import Hidden

from . import call
from .state import BID

if TYPE_CHECKING:
    from .game import LiarsDice

BOLD, PLAIN = "\033[1m", "\033[0m"


def _dice(game: LiarsDice, state: Any, seat: int) -> str:
    dice = state.dice[seat]
    shown = ["?" if isinstance(die, Hidden) else str(die) for die in dice]
    return " ".join(shown + ["."] * (game.dice[seat] - len(dice)))


def board_text(game: LiarsDice, state: Any, color: bool) -> str:
    wild = f"{game.wild}s wild" if game.wild else "nothing wild"
    lines = [f"Liar's Dice: {game.total} dice of {game.sides} faces at the table, {wild}"]
    width = max(map(len, game.players))
    for seat, player in enumerate(game.players):
        at_turn = state.phase == BID and seat == state.turn
        line = f"{'>' if at_turn else ' '} {player:<{width}}  [{_dice(game, state, seat)}]"
        lines.append(f"{BOLD}{line}{PLAIN}" if color and at_turn else line)
    if state.bid is not None:
        lines.append(f"bid: {state.bid.player} {game.notate(state.bid)}")
    if state.caller is not None:
        lines.append(f"{state.caller} calls liar: {call.outcome(game, state).note}")
    return "\n".join(lines)
