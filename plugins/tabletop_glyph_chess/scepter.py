"""The scepter, the key to victory: it moves 1 spot for 1 die of any face
(never coins); on the centre at the start of its owner's turn it wins; when
it is killed or incinerated its owner is eliminated.

Its range and cost are answered by the movement hooks (see
:mod:`~tabletop_glyph_chess.movement`); its victory and fall are the hooks
``glyph_centre_wins`` and ``glyph_eliminate``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop import rulehook

from .pieces import SCEPTER
from .state import OVER, State, Work

if TYPE_CHECKING:
    from .game import GlyphChess

#: How many spots the scepter moves.
RANGE = 1
#: What it pays: dice of any face, one per spot, never coins.
COST = "any-die"


@rulehook
def glyph_centre_wins(game: GlyphChess, state: State | Work, seat: int) -> bool:
    return state.board[game.geo.center] == (seat, SCEPTER)


@rulehook
def glyph_eliminate(game: GlyphChess, state: Work, seat: int) -> bool:
    # A scepter fell: its player is out and all their pieces leave the board;
    # the last player remaining wins at once.
    board = state.board
    for spot, piece in enumerate(board):
        if piece is not None and piece[0] == seat:
            board[spot] = None
    state.eliminated[seat] = True
    left = state.players_left()
    if len(left) == 1:
        state.phase, state.winner = OVER, left[0]
        state.steps.clear()
    return True
