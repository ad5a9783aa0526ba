"""Resigning in Glyph Chess: the player is eliminated, as when their scepter
falls; all their pieces leave the board."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.base.errors import IllegalEventError

from . import actions
from .kills import eliminate
from .state import ACT, ESCAPE, OVER, SETUP, State, freeze, thaw

if TYPE_CHECKING:
    from .game import GlyphChess


def resign(game: GlyphChess, state: State, player: str) -> State:
    """The state after ``player`` resigns. On their own turn the turn ends
    (the reset step re-rolls the dice spent, then the next player). While
    the necromancer-escape question waits on them, their attacked
    necromancer leaves with the rest, and the attack goes on."""
    seat = game.seats[player]
    if state.phase == SETUP:
        raise IllegalEventError("in Glyph Chess a player may resign once the pieces are set up")
    if state.eliminated[seat]:
        raise IllegalEventError(f"{player} is out of the game already")
    work = thaw(state)
    escaping = work.phase == ESCAPE
    eliminate(game, work, seat)
    if work.phase == OVER:
        work.steps, work.target = [], None
    elif work.turn == seat:
        work.target = None
        actions.finish(work)
    elif escaping:
        # The escape question was theirs: the attacked spot is empty now.
        work.phase = ACT
        actions.run(game, work)
    game.turn.settle(game, work)
    return freeze(work)
