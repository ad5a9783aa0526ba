"""Resigning in Glyph Chess: the player is eliminated, as when their scepter
falls; all their pieces leave the board."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop.errors import IllegalEventError

from . import actions
from .rules import eliminate
from .state import ESCAPE, OVER, SETUP, State, evolve

if TYPE_CHECKING:
    from .game import GlyphChess


def resign(game: GlyphChess, state: State, player: str) -> State:
    """The state after ``player`` resigns. On their own turn the turn ends
    (the reset step re-rolls the dice spent, then the next player). While
    another player's necromancer-escape question waits on them, their
    attacked necromancer leaves with the rest, and the attack goes on."""
    seat = game.seats[player]
    if state.phase == SETUP:
        raise IllegalEventError("in Glyph Chess a player may resign once the pieces are set up")
    if state.eliminated[seat]:
        raise IllegalEventError(f"{player} is out of the game already")
    escaping = state.phase == ESCAPE
    state = eliminate(state, seat)
    if state.phase == OVER:
        return evolve(state, steps=(), target=None)
    if state.turn == seat:
        return game.settle(actions.finish(evolve(state, target=None)))
    if escaping:
        # The escape question was theirs: the attacked spot is empty now.
        return game.settle(actions.run(game, state))
    return state
