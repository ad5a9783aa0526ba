"""Where a Glyph Chess turn ends, for a game's length in turns (``simulate``,
``stats``, the ``turns`` column).

A turn runs from the awakening to the reset roll: the re-roll (when a die
shows a dead piece's type), the draw, one action, what the action calls for
(the necromancer's escape, the seeress's look and discard) and the roll of
the dice it spent. It is counted by its one action: an event the action
step takes (a move, a spell, the pass the rules make for a player with
none, or a variant's action added to that step). A game won by an action
ends in the turn it was made; the setup is no turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop import Event

from .state import ACT

if TYPE_CHECKING:
    from .game import GlyphChess


def turn_ends(game: GlyphChess, event: Event) -> bool:
    return isinstance(event, game.steps[ACT].accepts)
