"""Where a Glyph Chess turn ends, for a game's length in turns (``simulate``,
``stats``, the ``turns`` column).

A turn runs from the awakening to the reset roll: the re-roll (when a die
shows a dead piece's type), the draw, one action, what the action calls for
(the necromancer's escape, the seeress's look and discard) and the roll of
the dice it spent. It is counted by its one action: an event the action
step takes (a move, a spell, the pass the rules make for a player with
none, or a variant's action added to that step). A game won by an action
ends in the turn it was made; the setup is no turn.

What happens as a turn ends is ``glyph_turn_end``: asked once the reset
roll is done and the next player is at turn, before their awakening, only
when a variant implements it (the official rule does nothing). It may
change the Work (a coin owed in ``owed``, another ``turn``) and name the
step that follows (the draw step, for a coin owed: it draws, then the
awakening follows).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop import Event, rulehook

from .state import ACT, State, Work

if TYPE_CHECKING:
    from .game import GlyphChess


def turn_ends(game: GlyphChess, event: Event) -> bool:
    return isinstance(event, game.steps[ACT].accepts)


@rulehook
def glyph_turn_end(game: GlyphChess, state: State | Work, seat: int) -> None:
    # Nothing happens as a turn ends: the next player awakens.
    return None
