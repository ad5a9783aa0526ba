"""The seeress's passive spell: enemy pieces in her sight cannot use coins."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tabletop import rulehook

from .hexes import HexBoard
from .pieces import SEERESS

if TYPE_CHECKING:
    from .game import GlyphChess
    from .state import State, Work


def in_sight(geo: HexBoard, state: State | Work, spot: int) -> bool:
    """Whether the piece on ``spot`` is in sight of an enemy seeress: the first
    piece in one of her six directions. (Looked at from the spot: she sees it
    exactly when she is the first piece in some direction from it.)"""
    board = state.board
    owner = board[spot][0]
    for ray in geo.ray_lists[spot]:
        for other in ray:
            piece = board[other]
            if piece is not None:
                if piece[1] == SEERESS and piece[0] != owner:
                    return True
                break
    return False


@rulehook
def glyph_may_use_coins(game: GlyphChess, state: State | Work, spot: int) -> bool:
    # Sight is judged as things stand, with an attacker still on its starting
    # spot (FAQ Q11); wild coins are coins too.
    return not in_sight(game.geo, state, spot)
