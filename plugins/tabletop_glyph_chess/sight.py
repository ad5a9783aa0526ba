"""The seeress's passive spell: enemy pieces in her sight cannot use coins.

A seeress sees the first piece in each of her six directions
(:func:`firsts`); that one line of sight serves both questions the rules
ask: whether one piece is in sight of an enemy seeress (:func:`in_sight`,
asked by ``glyph_may_use_coins`` when a payment is checked) and which of a
seat's pieces are (:func:`sighted`, worked out once per listing of the
seat's actions while no variant changes ``glyph_may_use_coins``).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress
from typing import TYPE_CHECKING

from tabletop import rulehook
from tabletop.host.rules import fast_form

from .hexes import HexBoard
from .pieces import SEERESS

if TYPE_CHECKING:
    from .game import GlyphChess
    from .state import State, Work


def firsts(geo: HexBoard, board, spot: int) -> list[int]:
    """The spots of the first piece in each of the six directions from
    ``spot``: what a seeress there sees."""
    found = []
    for ray in geo.ray_lists[spot]:
        for other in ray:
            if board[other] is not None:
                found.append(other)
                break
    return found


def in_sight(geo: HexBoard, state: State | Work, spot: int) -> bool:
    """Whether the piece on ``spot`` is in sight of an enemy seeress. Lines
    run both ways: she sees it exactly when she is among the first pieces
    seen from it."""
    board = state.board
    owner = board[spot][0]
    for other in firsts(geo, board, spot):
        piece = board[other]
        if piece[1] == SEERESS and piece[0] != owner:
            return True
    return False


def sighted(geo: HexBoard, board, seat: int, occupied: Iterable[int] | None = None) -> set[int]:
    """The spots of ``seat``'s pieces in sight of an enemy seeress (each
    enemy seeress's :func:`firsts`, kept where a piece of ``seat`` stands);
    ``occupied``, the spots with a piece, when they are known already."""
    found: set[int] = set()
    if occupied is None:
        occupied = compress(range(len(board)), board)
    for spot in occupied:
        piece = board[spot]
        if piece[1] == SEERESS and piece[0] != seat:
            found.update([other for other in firsts(geo, board, spot) if board[other][0] == seat])
    return found


#: The fast form ``glyph_may_use_coins`` declares (``tabletop.host.rules.fast_form``):
#: out of sight of an enemy seeress, which a listing works out once for all
#: of a seat's pieces (:func:`sighted`).
OUT_OF_SIGHT = "out of sight of an enemy seeress"


@rulehook
@fast_form(OUT_OF_SIGHT)
def glyph_may_use_coins(game: GlyphChess, state: State | Work, spot: int) -> bool:
    # Sight is judged as things stand, with an attacker still on its starting
    # spot (FAQ Q11); wild coins are coins too.
    return not in_sight(game.geo, state, spot)
